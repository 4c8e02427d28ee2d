// What each screen knows of its place: whether it is on top (owns the keys) and the room it has.
import React, { createContext, useContext, useLayoutEffect, type ReactNode } from 'react';
import type { Route } from './navigation';
import { SCREEN_FLAGS, screenContext, type ScreenContext } from './keyboard/bindings';
import type { ScreenId } from './keyboard/modes';

interface ScreenFrame {
  active: boolean;
  width: number;
  height: number;
  /** Tells the chrome which bindings are in force (a screen's modes: list, detail, review…). */
  setMode: (mode: ScreenId, context?: ScreenContext) => void;
}

const ScreenFrameContext = createContext<ScreenFrame>({ active: true, width: 80, height: 20, setMode: () => undefined });

export function ScreenFrameProvider({ value, children }: { value: ScreenFrame; children: ReactNode }) {
  return <ScreenFrameContext.Provider value={value}>{children}</ScreenFrameContext.Provider>;
}

export function useScreenFrame(): ScreenFrame {
  return useContext(ScreenFrameContext);
}

/** Declares the screen's current mode while it is on top, so footer, help and q follow it from the same commit. */
export function useScreenMode(mode: ScreenId, context: ScreenContext = {}): void {
  const { active, setMode } = useScreenFrame();
  // The flags set, as one value: a new context object with the same flags set is the same state.
  const set = SCREEN_FLAGS.filter((flag) => context[flag] === true).join(' ');
  useLayoutEffect(() => {
    if (active) setMode(mode, screenContext(Object.fromEntries(set.split(' ').map((flag) => [flag, true]))));
  }, [active, mode, set, setMode]);
}

/** A screen as the console opens it: the route it answers, the mode it opens in (until it reports its own), and
 *  how it is drawn from the route. Its modes (titles and bindings) are declared beside it with defineModes. */
export interface ScreenDeclaration<R extends Route['screen'] = Route['screen']> {
  route: R;
  mode: ScreenId;
  /** The state its bindings start from, when the route alone says it (so opening the screen reports nothing new). */
  context?: (route: Extract<Route, { screen: R }>) => ScreenContext;
  render: (route: Extract<Route, { screen: R }>) => ReactNode;
}

export function defineScreen<R extends Route['screen']>(screen: ScreenDeclaration<R>): ScreenDeclaration<R> {
  return screen;
}
