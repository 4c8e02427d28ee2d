// Every key counts during loads: while a screen is loading what its keys act on (a page, a list, a check),
// keys wait in a queue and are applied in order once it has settled, one per frame, as if pressed slowly
// after each answer. ctrl+c is never held (App reads it first); esc acts at once and drops the keys still
// waiting (it is the way out of a slow load); ? and a q that quits act at once when no key waits before them.
import { useEffect, useMemo, useRef } from 'react';
import type { Key } from 'ink';
import type { KeystrokeRouter } from './keystrokes';

interface WaitingKey {
  input: string;
  keystroke: Key;
}

export interface KeysWhileBusy {
  /** True when the key waits (a screen is busy, or keys before it still wait); false: apply it now. `atOnce`:
   *  the key does not depend on what loads (help, a q that quits here), so it acts now if no key waits. */
  hold(input: string, keystroke: Key, atOnce: boolean): boolean;
  /** How many keys wait. */
  waiting(): number;
}

/** The queue of one console: `apply` is the console's handling of a key (the global keys, then the screens). */
export function useKeysWhileBusy(router: KeystrokeRouter, apply: (input: string, keystroke: Key) => void): KeysWhileBusy {
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const state = useMemo(() => ({ queue: [] as WaitingKey[], timer: undefined as NodeJS.Immediate | undefined }), []);

  const keys = useMemo<KeysWhileBusy>(() => {
    // One key per turn of the event loop: React commits the frame it set (and the screen says whether it is
    // busy again) before the next key is read, as with keys pressed one after another.
    const next = () => {
      state.timer = undefined;
      if (router.busy()) return;
      const key = state.queue.shift();
      if (!key) return;
      applyRef.current(key.input, key.keystroke);
      if (state.queue.length > 0) state.timer = setImmediate(next);
    };
    router.onCommitted(() => {
      if (state.queue.length > 0 && state.timer === undefined && !router.busy()) state.timer = setImmediate(next);
    });
    return {
      hold(input, keystroke, atOnce) {
        if (state.queue.length === 0 && !router.busy()) return false;
        if (keystroke.escape) {
          state.queue.length = 0;
          return false;
        }
        if (state.queue.length === 0 && atOnce) return false;
        state.queue.push({ input, keystroke });
        return true;
      },
      waiting: () => state.queue.length,
    };
  }, [router, state]);

  useEffect(
    () => () => {
      if (state.timer) clearImmediate(state.timer);
      router.onCommitted(undefined);
    },
    [router, state],
  );
  return keys;
}
