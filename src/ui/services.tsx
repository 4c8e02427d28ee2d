// What the console is given by its caller (cli or tests): the api, where it points, and small side effects.
import React, { createContext, useContext, type ReactNode } from 'react';
import type { BrokerApi } from '../api/contract';
import type { AuditRecorder } from '../config/auditTrail';
import type { DiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import type { RecentSubAccounts } from '../config/recentSubAccounts';
import type { CopyToClipboard } from './clipboard';
import type { ExchangeLog } from './exchangeLog';
import type { TransferExporter } from '../export/types';
import type { TargetSwitcher } from './targets';
import type { Theme } from './theme';

export interface ConsoleServices {
  api: BrokerApi;
  /** setup: nothing to connect to yet (the welcome screens). */
  mode: 'demo' | 'live' | 'setup';
  /** Host (and port) the console talks to, shown next to the LIVE badge. */
  target: string;
  /** Profile name, or "demo". */
  profile: string;
  /** Where the credentials came from: sandbox, environment, keychain, session. */
  credentialSource: string;
  exchanges: ExchangeLog;
  recent: RecentSubAccounts;
  /** Sub-accounts found in transfer history for this target (remembered per base URL, not secret). */
  discovered: DiscoveredSubAccounts;
  /** Names offered in the picker besides the recent ones (the demo's seeded sub-accounts). */
  suggestions: string[];
  copy: CopyToClipboard;
  exporter: TransferExporter;
  theme: Theme;
  /** The console's "now" (relative spans such as 7d, "blank: now"): the real clock, or the pinned demo's
   *  (`--demo-clock`), which the run takes from its target. */
  now: () => number;
  /** Set when nothing may be changed (a read-only profile, --read-only): why, in one line. The header says
   *  READ-ONLY and the ways to a new key are refused; the api refuses to create as well. */
  readOnly?: string;
  /** Set when the base URL is plain http:// to another host (keys and secrets travel unencrypted): the header flags it. */
  cleartext?: string;
  /** How long a request may take (--timeout); absent: the client's default. */
  timeoutMs?: number;
  /** Appends each create attempt that was sent to the audit trail (best effort, never rejects); absent: not recorded. */
  audit?: AuditRecorder;
  /** Changes the target (profiles, demo, session credentials); absent in tests that do not need it. */
  switcher?: TargetSwitcher;
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
