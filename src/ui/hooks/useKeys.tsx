// The one owner of the keyboard: App reads every key once and offers it to the active screen's handler
// first; a handler that returns true has consumed the key.
import React, { createContext, useContext, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Key } from 'ink';

export type KeyHandler = (input: string, key: Key) => boolean;
/** false: keys are commands; 'text': printable keys are typed, but ? still opens help; 'all': ? is typed too. */
export type TextEntry = false | 'text' | 'all';

interface Registration {
  handler: { current: KeyHandler };
  /** While set, printable keys are text: App does not read them as global commands ('all': not even ?). */
  textEntry: { current: TextEntry };
}

export interface KeyRouter {
  register(registration: Registration): () => void;
  /** Offers the key to handlers, newest first. Returns whether one consumed it, and whether text entry is on. */
  dispatch(input: string, key: Key): { consumed: boolean; textEntry: TextEntry };
}

export function createKeyRouter(): KeyRouter {
  const registrations: Registration[] = [];
  return {
    register(registration) {
      registrations.push(registration);
      return () => {
        const at = registrations.indexOf(registration);
        if (at >= 0) registrations.splice(at, 1);
      };
    },
    dispatch(input, key) {
      const modes = registrations.map((r) => r.textEntry.current);
      const textEntry: TextEntry = modes.includes('all') ? 'all' : modes.includes('text') ? 'text' : false;
      for (let i = registrations.length - 1; i >= 0; i--) {
        if (registrations[i]!.handler.current(input, key)) return { consumed: true, textEntry };
      }
      return { consumed: false, textEntry };
    },
  };
}

const KeyRouterContext = createContext<KeyRouter | undefined>(undefined);

export function KeyRouterProvider({ router, children }: { router: KeyRouter; children: ReactNode }) {
  return <KeyRouterContext.Provider value={router}>{children}</KeyRouterContext.Provider>;
}

/** Registers a screen's key handler while `active`; the latest handler is always the one called. */
export function useScreenKeys(handler: KeyHandler, options: { active: boolean; textEntry?: TextEntry }): void {
  const router = useContext(KeyRouterContext);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const textEntryRef = useRef<TextEntry>(options.textEntry ?? false);
  textEntryRef.current = options.textEntry ?? false;
  const registration = useMemo<Registration>(() => ({ handler: handlerRef, textEntry: textEntryRef }), []);
  // A layout effect runs in the same task as the commit that draws the screen, so no key can arrive
  // between the frame appearing and its handler being registered.
  useLayoutEffect(() => {
    if (!router || !options.active) return undefined;
    return router.register(registration);
  }, [router, options.active, registration]);
}
