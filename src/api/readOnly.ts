// Read-only targets (a read-only profile, `--read-only`, BROKER_READ_ONLY): the client refuses
// every operation that changes something before anything is built or sent, whatever screen or command asks.
import type { BrokerApi } from './contract';
import { BrokerError } from './errors';
import { OPERATION_LABELS } from './operations';

/** What made a run read-only: the profile's setting, the --read-only flag, or BROKER_READ_ONLY. */
export type ReadOnlySource = { kind: 'profile'; profile: string } | { kind: 'flag' } | { kind: 'environment' };

const READ_ONLY_ENV = 'BROKER_READ_ONLY';

/** BROKER_READ_ONLY turns read-only on with any value but empty, 0, false, no or off (a typo stays on the safe side). */
export function readOnlyFromEnvironment(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[READ_ONLY_ENV]?.trim().toLowerCase();
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value);
}

/** The first that applies: the flag, the environment, then the profile's own setting; undefined: not read-only. */
export function readOnlySource(
  flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
  profile?: { name: string; readOnly?: boolean },
): ReadOnlySource | undefined {
  if (flag === true) return { kind: 'flag' };
  if (readOnlyFromEnvironment(env)) return { kind: 'environment' };
  if (profile?.readOnly === true) return { kind: 'profile', profile: profile.name };
  return undefined;
}

/** Why creating is refused, in one line, naming what made it so. */
export function readOnlyReason(source: ReadOnlySource): string {
  const why =
    source.kind === 'profile'
      ? `read-only profile '${source.profile}'`
      : source.kind === 'flag'
        ? 'read-only run (--read-only)'
        : `read-only run (${READ_ONLY_ENV})`;
  return `${why}: creating keys is disabled`;
}

/** The same client with creating refused at once (an invalid-request error: nothing built, no socket opened). */
export function readOnlyApi(api: BrokerApi, reason: string): BrokerApi {
  return {
    listSubAccountKeys: (subAccount, options) => api.listSubAccountKeys(subAccount, options),
    createSubAccountKey: () =>
      Promise.reject(new BrokerError({ kind: 'invalid-request', operation: OPERATION_LABELS.createSubAccountKey, serviceMessage: reason })),
    listUniversalTransfers: (query, options) => api.listUniversalTransfers(query, options),
    clockOffsetMs: () => api.clockOffsetMs(),
    reportCutShort: () => api.reportCutShort(),
    heldBack: (operation) => api.heldBack(operation),
    close: () => api.close(),
  };
}
