// Keys whose secret the operator may not have, as the audit trail tells: created with the secret not delivered
// (or unreadable), shown but never confirmed stored, or listed now after an attempt whose outcome stayed unknown
// (the service may have made it).
import type { SubAccountKey } from '../api/types';
import { type AuditEntry, stillSending } from '../config/auditTrail';
import { apiKeyDigest, shortenApiKey } from '../api/redact';
import { timeOrder } from '../api/serviceTime';

export type LostSecret = 'not-delivered' | 'unconfirmed' | 'never-received';

export const LOST_SECRET_TEXT: Record<LostSecret, string> = {
  'not-delivered': 'secret not delivered — delete it in the web console',
  unconfirmed: 'secret never confirmed stored — delete it if you do not have it',
  'never-received': 'secret never received — delete it in the web console',
};

/** Clocks differ: a key made for an attempt may carry a time a little before the attempt's own. */
const CLOCK_SLACK_MS = 5 * 60_000;

/** How many of a sub-account's latest attempts are read to mark its keys. */
export const ATTEMPTS_READ = 200;

/** Whether `key` could be the one an attempt of unknown outcome made: created after it, with its note. */
export function madeBy(key: SubAccountKey, attempt: AuditEntry): boolean {
  const at = Date.parse(attempt.time);
  return attempt.outcome === 'unknown' && Number.isFinite(at) && timeOrder(key.createdAt) >= at - CLOCK_SLACK_MS && key.note === attempt.note;
}

/** Whether a key is one the trail records as created (by its digest, or the short form of a line without one). */
export function recordedKeys(entries: readonly AuditEntry[]): (key: SubAccountKey) => boolean {
  const created = entries.filter((e) => e.outcome === 'created' && e.apiKey !== undefined);
  const digests = new Set(created.flatMap((e) => (e.keyDigest === undefined ? [] : [e.keyDigest])));
  const shorts = new Set(created.flatMap((e) => (e.keyDigest === undefined ? [e.apiKey!] : [])));
  return (key) => digests.has(apiKeyDigest(key.apiKey)) || shorts.has(shortenApiKey(key.apiKey));
}

/** The keys (by API key) whose secret was lost; `entries`: the sub-account's attempts on this host. */
export function lostSecrets(keys: readonly SubAccountKey[], entries: readonly AuditEntry[]): Map<string, LostSecret> {
  const lost = new Map<string, LostSecret>();
  // What became of each created key's secret (undefined: delivered), by its digest; a line without one (written
  // before digests were) by its short form, which two keys may share.
  const fates = new Map<string, LostSecret | undefined>();
  for (const entry of entries) {
    if (entry.outcome !== 'created' || entry.apiKey === undefined) continue;
    const fate = entry.secret === undefined ? undefined : entry.secret === 'unconfirmed' ? 'unconfirmed' : 'not-delivered';
    fates.set(entry.keyDigest ?? `short ${entry.apiKey}`, fate);
  }
  // An attempt whose sender still waits may yet deliver its key's secret: not lost, not yet.
  const unknown = entries.filter((e) => e.outcome === 'unknown' && stillSending(e) === undefined);
  for (const key of keys) {
    const digest = apiKeyDigest(key.apiKey);
    const mark = fates.has(digest) ? digest : `short ${shortenApiKey(key.apiKey)}`;
    const fate = fates.get(mark);
    if (fate !== undefined) lost.set(key.apiKey, fate);
    else if (!fates.has(mark) && unknown.some((attempt) => madeBy(key, attempt))) lost.set(key.apiKey, 'never-received');
  }
  return lost;
}
