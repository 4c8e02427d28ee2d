// What the console works against, and how it changes target: the demo, a saved profile, or credentials
// given for this run only. Implemented outside ui/ (src/commands/consoleTargets.ts): screens never see
// URLs being called, the keychain or the sandbox.
import type { BrokerApi } from '../api/contract';
import type { AuditRecorder } from '../config/auditTrail';
import type { DiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import type { RecentSubAccounts } from '../config/recentSubAccounts';
import type { TransferExporter } from '../export/types';
import type { ExchangeLog } from './exchangeLog';
import type { ProfileColor } from '../credentials/profiles';

export interface ConsoleTarget {
  /** Changes whenever the target does: the console starts afresh on a new one. */
  id: number;
  api: BrokerApi;
  mode: 'demo' | 'live';
  /** Host (and port) shown next to the LIVE badge. */
  host: string;
  /** Profile name, "demo", or "session". */
  profile: string;
  /** The colour the profile gave its name in the header (`profile add --color`). */
  profileColor?: ProfileColor;
  /** Where the credentials came from: sandbox, environment, keychain, session (memory only). */
  credentialSource: string;
  /** The command that lists a sub-account's keys on this service with these credentials (without --sub), said in advice to run it; none for the demo. */
  keyListCommand?: string;
  recent: RecentSubAccounts;
  discovered: DiscoveredSubAccounts;
  suggestions: string[];
  exporter: TransferExporter;
  exchanges: ExchangeLog;
  /** Records create attempts in the audit trail (the config folder's audit.jsonl). */
  audit?: AuditRecorder;
  /** Set when the target is read-only (a read-only profile, --read-only): why creating is disabled, in one line. */
  readOnly?: string;
  /** Set when the base URL is plain http:// to another host: the warning, in one line (the header flags it). */
  cleartext?: string;
  /** The target's "now" when it is not the real clock (the pinned demo); the console's services.now follows it. */
  now?: () => number;
  /** --timeout: how long a request may take (absent: the client's default). */
  timeoutMs?: number;
}

export interface ProfileSummary {
  name: string;
  baseUrl: string;
  isDefault: boolean;
  /** Saved with `profile add --read-only`. */
  readOnly?: boolean;
  /** Not a saved profile: a target of this run (environment credentials, credentials for this run only) to go back to. */
  inMemory?: boolean;
}

export type CredentialField = 'name' | 'baseUrl' | 'apiKey' | 'secretKey' | 'apiKeyHeader' | 'postSignature' | 'color';

export interface CredentialsInput {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** What a create's signature covers, as typed: auto (also when blank), query or body. */
  postSignature?: string;
}

export interface NewProfileInput extends CredentialsInput {
  name: string;
  apiKeyHeader: string;
  /** The colour of its name in the header, as typed: blank for none. */
  color?: string;
}

/** The result of checking credentials against the service (and, for a new profile, of saving it). */
export type CheckOutcome = { ok: true; notice?: string } | { ok: false; message: string; field?: CredentialField; keychainFailed?: boolean };

/** Why the console opened without a target (shown by the first screen), if it did. */
export interface StartupProblem {
  /** no-profile: none set up (or none the default); profiles: the profile file cannot be read; keychain: a profile's secret cannot. */
  kind: 'no-profile' | 'profiles' | 'keychain';
  message: string;
  /** The profile whose secret could not be read (kind keychain). */
  profile?: ProfileSummary;
}

export interface TargetSwitcher {
  current(): ConsoleTarget | undefined;
  subscribe(listener: () => void): () => void;
  startupProblem(): StartupProblem | undefined;
  profiles(): Promise<ProfileSummary[]>;
  openDemo(): Promise<void>;
  openProfile(name: string): Promise<CheckOutcome>;
  /** Opens again a target of this run that is no saved profile (listed by profiles() with inMemory). */
  openInMemory?(name: string): Promise<CheckOutcome>;
  /** Checks the credentials against the service, then stores the secret in the keychain and the profile. */
  addProfile(input: NewProfileInput): Promise<CheckOutcome>;
  /** Checks the credentials, then uses them for this run only: kept in memory, never written. */
  useForSession(input: CredentialsInput, profile?: string): Promise<CheckOutcome>;
  /** Set when the whole run is read-only (--read-only, BROKER_READ_ONLY): why; shown before any target is open too. */
  runReadOnly?(): string | undefined;
}
