// What each screen knows of its place: whether it is on top (owns the keys) and the room it has.
import React, { createContext, useContext, useLayoutEffect, type ReactNode } from 'react';
import type { ScreenContext } from './keyboard/bindings';
import type { ScreenId } from './keyboard/modes';

export interface ScreenFrame {
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
  const { retryable } = context;
  useLayoutEffect(() => {
    if (active) setMode(mode, retryable ? { retryable } : {});
  }, [active, mode, retryable, setMode]);
}
