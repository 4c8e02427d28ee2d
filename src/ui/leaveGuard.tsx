// A screen that must not be left by accident (the one-time secret) guards every way out the console
// offers: App asks the guard before it quits, interrupts, or opens another screen from anywhere.
import React, { createContext, useContext, useLayoutEffect, useRef, type ReactNode } from 'react';

/** Why the console would leave the screen: q, ctrl+c, ctrl+p (profiles), ctrl+t (transfers). */
export type LeaveIntent = 'quit' | 'interrupt' | 'profiles' | 'transfers';
/** Returns true when it holds the way out (and will call `proceed` itself once the operator agrees). */
export type LeaveGuard = (intent: LeaveIntent, proceed: () => void) => boolean;

export interface LeaveGuards {
  current: LeaveGuard | undefined;
}

const LeaveGuardContext = createContext<LeaveGuards | undefined>(undefined);

export function LeaveGuardProvider({ guards, children }: { guards: LeaveGuards; children: ReactNode }) {
  return <LeaveGuardContext.Provider value={guards}>{children}</LeaveGuardContext.Provider>;
}

/** Holds every way out of the console while the calling screen is mounted. */
export function useLeaveGuard(guard: LeaveGuard): void {
  const guards = useContext(LeaveGuardContext);
  const latest = useRef(guard);
  latest.current = guard;
  useLayoutEffect(() => {
    if (!guards) return undefined;
    const mine: LeaveGuard = (intent, proceed) => latest.current(intent, proceed);
    guards.current = mine;
    return () => {
      if (guards.current === mine) guards.current = undefined;
    };
  }, [guards]);
}

/** Runs `proceed` now unless a guard holds it. */
export function leaveThrough(guards: LeaveGuards, intent: LeaveIntent, proceed: () => void): void {
  if (guards.current?.(intent, proceed)) return;
  proceed();
}
