// What the console is given by its caller (cli or tests): the api, where it points, and small side effects.
import React, { createContext, useContext, type ReactNode } from 'react';
import type { CopyToClipboard } from './clipboard';
import type { ConsoleTarget, TargetSwitcher } from './targets';
import type { Theme } from './theme';

/** The target the console works against (without its id: a new target starts the console afresh), and what the run adds. */
export interface ConsoleServices extends Omit<ConsoleTarget, 'id' | 'mode' | 'now'> {
  /** setup: nothing to connect to yet (the welcome screens). */
  mode: ConsoleTarget['mode'] | 'setup';
  /** The console's "now" (relative spans such as 7d, "blank: now"): the real clock, or the pinned demo's
   *  (`--demo-clock`), which the run takes from its target. */
  now: () => number;
  copy: CopyToClipboard;
  theme: Theme;
  /** Changes the target (profiles, demo, session credentials); absent in tests that do not need it. */
  switcher?: TargetSwitcher;
  /** A line said on the terminal once the console has closed: what the operator must still know then. */
  sayOnLeaving?: (line: string) => void;
}

const ServicesContext = createContext<ConsoleServices | undefined>(undefined);

export function ServicesProvider({ services, children }: { services: ConsoleServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}
