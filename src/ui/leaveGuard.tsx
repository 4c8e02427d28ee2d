// A screen that must not be left by accident (the one-time secret, a create in flight, a running export) guards
// every way out the console offers: App asks the guards of the mounted screens before it quits, interrupts, or
// opens another screen from anywhere.
import React, { createContext, useContext, useLayoutEffect, useRef, type ReactNode } from 'react';

/** Why the console would leave the screen: q, ctrl+c, ctrl+p (profiles), ctrl+t (transfers). */
type LeaveIntent = 'quit' | 'interrupt' | 'profiles' | 'transfers';
/**
 * Returns true when it holds the way out: it calls `proceed` once the operator agrees (the guards under it are
 * then asked), or never, when the way out stays shut (it says why on its own screen). False: it lets it pass, and
 * must not call `proceed` itself.
 */
export type LeaveGuard = (intent: LeaveIntent, proceed: () => void) => boolean;

/** The guards of the screens mounted now, in the order they mounted: a screen under another stays mounted, and guarded. */
export interface LeaveGuards {
  mounted: LeaveGuard[];
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
    guards.mounted.push(mine);
    return () => {
      const at = guards.mounted.indexOf(mine);
      if (at >= 0) guards.mounted.splice(at, 1);
    };
  }, [guards]);
}

/**
 * Runs `proceed` unless a guard holds it: the newest screen's guard is asked first, and one that holds and later
 * agrees passes the way out on to the guards under it (one that has unmounted meanwhile is skipped).
 */
export function leaveThrough(guards: LeaveGuards, intent: LeaveIntent, proceed: () => void): void {
  const asked = [...guards.mounted].reverse();
  const next = (from: number): void => {
    for (let i = from; i < asked.length; i += 1) {
      const guard = asked[i]!;
      if (!guards.mounted.includes(guard)) continue;
      if (guard(intent, () => next(i + 1))) return;
    }
    proceed();
  };
  next(0);
}
