// The one owner of the keyboard: App reads every key once and offers it first to the focused text field,
// then to the active screens' handlers; a handler that returns true has consumed the key. Registration
// happens in layout effects and handlers are read through refs, so a key that arrives in the same chunk
// as the one that changed the screen already reaches the new screen with its latest state.
import React, { createContext, useContext, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Key } from 'ink';

type KeystrokeHandler = (input: string, keystroke: Key) => boolean;
/** Whether a screen is loading what this key would act on (most screens: any key, while they load). */
type BusyTest = (input: string, keystroke: Key) => boolean;
type PasteHandler = (text: string) => void;
/** false: keys are commands; 'text': printable keys are typed, but ? still opens help; 'all': ? is typed too. */
type TextEntry = false | 'text' | 'all';

interface Registration {
  handler: { current: KeystrokeHandler };
  /** While set, printable keys are text: App does not read them as global commands ('all': not even ?). */
  textEntry: { current: TextEntry };
  /** Whether the screen is loading what this key acts on: the key then waits (keysWhileBusy.ts). */
  busy: { current: BusyTest };
}

interface FieldRegistration {
  handler: { current: KeystrokeHandler };
  paste: { current: PasteHandler };
}

export interface KeystrokeRouter {
  register(registration: Registration): () => void;
  /** A focused text field: it sees every key first, and every paste. */
  registerField(registration: FieldRegistration): () => void;
  /** Offers the key to the focused field, then to handlers newest first. Returns whether one consumed it, and whether text entry is on. */
  dispatch(input: string, keystroke: Key): { consumed: boolean; textEntry: TextEntry };
  /** Gives a paste to the focused field; false when no field has focus (the paste is dropped, never read as keys). */
  dispatchPaste(text: string): boolean;
  /** Whether a registered screen is loading what this key acts on. */
  busy(input: string, keystroke: Key): boolean;
  /** Called after a screen's frame is committed (a load may have settled); onCommitted sets who hears it. */
  committed(): void;
  onCommitted(listener: (() => void) | undefined): void;
}

export function createKeystrokeRouter(): KeystrokeRouter {
  const registrations: Registration[] = [];
  const fields: FieldRegistration[] = [];
  let committedListener: (() => void) | undefined;
  const remove =
    <T,>(list: T[], item: T) =>
    () => {
      const at = list.indexOf(item);
      if (at >= 0) list.splice(at, 1);
    };
  return {
    register(registration) {
      registrations.push(registration);
      return remove(registrations, registration);
    },
    registerField(registration) {
      fields.push(registration);
      return remove(fields, registration);
    },
    dispatch(input, keystroke) {
      const modes = registrations.map((r) => r.textEntry.current);
      const textEntry: TextEntry = modes.includes('all') ? 'all' : modes.includes('text') || fields.length > 0 ? 'text' : false;
      const field = fields.at(-1);
      if (field?.handler.current(input, keystroke)) return { consumed: true, textEntry };
      for (let i = registrations.length - 1; i >= 0; i--) {
        if (registrations[i]!.handler.current(input, keystroke)) return { consumed: true, textEntry };
      }
      return { consumed: false, textEntry };
    },
    dispatchPaste(text) {
      const field = fields.at(-1);
      if (!field) return false;
      field.paste.current(text);
      return true;
    },
    busy: (input, keystroke) => registrations.some((r) => r.busy.current(input, keystroke)),
    committed: () => committedListener?.(),
    onCommitted(listener) {
      committedListener = listener;
    },
  };
}

const KeystrokeRouterContext = createContext<KeystrokeRouter | undefined>(undefined);

export function KeystrokeRouterProvider({ router, children }: { router: KeystrokeRouter; children: ReactNode }) {
  return <KeystrokeRouterContext.Provider value={router}>{children}</KeystrokeRouterContext.Provider>;
}

const notBusy = () => false;

/**
 * Registers a screen's key handler while `active`; the latest handler is always the one called. `busy` says
 * whether the screen is loading what its keys act on (read when a key arrives, so it must read refs for what
 * a key of the same chunk just asked): keys then wait, in order, until it is not.
 */
export function useScreenKeystrokes(handler: KeystrokeHandler, options: { active: boolean; textEntry?: TextEntry; busy?: BusyTest }): void {
  const router = useContext(KeystrokeRouterContext);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const textEntryRef = useRef<TextEntry>(options.textEntry ?? false);
  textEntryRef.current = options.textEntry ?? false;
  const busyRef = useRef(options.busy ?? notBusy);
  busyRef.current = options.busy ?? notBusy;
  const registration = useMemo<Registration>(() => ({ handler: handlerRef, textEntry: textEntryRef, busy: busyRef }), []);
  // A layout effect runs in the same task as the commit that draws the screen, so no key can arrive
  // between the frame appearing and its handler being registered.
  useLayoutEffect(() => {
    if (!router || !options.active) return undefined;
    return router.register(registration);
  }, [router, options.active, registration]);
  // Every frame of a busy-capable screen may be the one where its load settled: waiting keys may go on.
  useLayoutEffect(() => {
    if (router && options.active && options.busy) router.committed();
  });
}

/** Registers a text field while it has focus: it gets keys before the screen, and pastes. */
export function useFieldKeystrokes(handler: KeystrokeHandler, paste: PasteHandler, focused: boolean): void {
  const router = useContext(KeystrokeRouterContext);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const pasteRef = useRef(paste);
  pasteRef.current = paste;
  const registration = useMemo<FieldRegistration>(() => ({ handler: handlerRef, paste: pasteRef }), []);
  useLayoutEffect(() => {
    if (!router || !focused) return undefined;
    return router.registerField(registration);
  }, [router, focused, registration]);
}
