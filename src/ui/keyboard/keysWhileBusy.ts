// Every key counts during loads: while a screen is loading what its keys act on (a page, a list, a check),
// keys wait in a queue and are applied in order once it has settled, one per frame, as if pressed slowly
// after each answer. ctrl+c is never held (App reads it first); esc acts at once and drops the keys still
// waiting (it is the way out of a slow load); ?, ctrl+t, ctrl+p and a q that quits act at once when no key
// waits before them.
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { Key } from 'ink';
import { afterRender } from '../../terminal/keyStream';
import type { KeystrokeRouter } from './keystrokes';

interface WaitingKey {
  input: string;
  keystroke: Key;
}

/** Keys still waiting when the console's screens are replaced by another target's (a profile or the demo
 *  opening): the next console takes them, so they act on its first screen as if typed after it appeared. */
export interface CarriedKeys {
  keys: WaitingKey[];
}

interface KeysWhileBusy {
  /** True when the key waits (a screen is busy, or keys before it still wait); false: apply it now. `atOnce`:
   *  the key does not depend on what loads (help, another screen, a q that quits here): it acts now if no key waits. */
  hold(input: string, keystroke: Key, atOnce: boolean): boolean;
  /** A screen committed a frame: if none is busy for the next waiting key now, the waiting keys go on. */
  settled(): void;
}

/** The queue of one console: `apply` is the console's handling of a key (the global keys, then the screens). */
export function useKeysWhileBusy(router: KeystrokeRouter, apply: (input: string, keystroke: Key) => void, carried?: CarriedKeys): KeysWhileBusy {
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const state = useMemo(() => ({ queue: [] as WaitingKey[], scheduled: false, stopped: false }), []);

  const keys = useMemo<KeysWhileBusy>(() => {
    // One key per rendered frame: the next is read once React has rendered what this one set (and the
    // screen says whether it is busy again), as the key reader does for keys pressed one after another.
    const schedule = () => {
      if (state.scheduled || state.queue.length === 0) return;
      state.scheduled = true;
      void afterRender().then(() => {
        state.scheduled = false;
        const key = state.queue[0];
        if (state.stopped || !key || router.busy(key.input, key.keystroke)) return;
        state.queue.shift();
        applyRef.current(key.input, key.keystroke);
        schedule();
      });
    };
    return {
      settled() {
        const key = state.queue[0];
        if (key && !router.busy(key.input, key.keystroke)) schedule();
      },
      hold(input, keystroke, atOnce) {
        if (state.queue.length === 0 && !router.busy(input, keystroke)) return false;
        if (keystroke.escape) {
          state.queue.length = 0;
          return false;
        }
        if (state.queue.length === 0 && atOnce) return false;
        state.queue.push({ input, keystroke });
        return true;
      },
    };
  }, [router, state]);

  // Each frame a screen commits may be the one where its load settled.
  useLayoutEffect(() => {
    state.stopped = false;
    router.onCommitted(keys.settled);
    if (carried && carried.keys.length > 0) {
      state.queue.push(...carried.keys.splice(0));
      keys.settled();
    }
    return () => {
      state.stopped = true;
      router.onCommitted(undefined);
      if (carried) carried.keys = state.queue.splice(0);
    };
  }, [router, state, keys, carried]);
  return keys;
}
