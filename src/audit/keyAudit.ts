// The key audit: what an operator must look at in a sub-account's API keys. Pure: keys in, flags
// out; "now" and the age threshold are passed in. No React, no HTTP (fetching is fetchAudit.ts).
import { timeOrder } from '../api/serviceTime';
import { DAY_MS, UNIT_MS } from '../api/timeInput';
import { NO_IP_LIFETIME_DAYS, type ServiceTime, type SubAccountKey } from '../api/types';
import type { AuditEntry } from '../config/auditTrail';
import { plural } from '../terminal/sanitize';
import { LOST_SECRET_TEXT, lostSecrets } from './lostSecrets';

export const FLAG_KINDS = ['lost-secret', 'no-ip', 'write', 'withdraw', 'transfer', 'old', 'shared-note'] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

/** Keys older than this are flagged unless told otherwise (`--max-age`). */
export const DEFAULT_MAX_AGE_MS = 90 * DAY_MS;

export interface KeyFlag {
  kind: FlagKind;
  /** One line for a person; may quote the key's note or permissions (outside text: sanitise before showing). */
  reason: string;
}

export interface KeyFinding {
  key: SubAccountKey;
  /** In FLAG_KINDS order; empty when nothing is wrong with the key. */
  flags: KeyFlag[];
}

export interface AuditSummary {
  keys: number;
  /** Keys with at least one flag. */
  flagged: number;
  /** Keys with each flag. */
  byKind: Record<FlagKind, number>;
}

// Which permissions mean what. The names are the service's (its docs show SPOT_ACCOUNT_READ, SPOT_ACCOUNT_WRITE, read_only)
// and the documented known values (KNOWN_PERMISSIONS in api/types.ts): <AREA>_READ or <AREA>_WRITE. The service
// accepts others, so the rule is by name, not by list: a name ending in _WRITE (any case) can change something;
// in the SPOT_WITHDRAW area it can move funds out of the exchange (withdraw), in SPOT_TRANSFER between accounts
// (transfer); any other _WRITE (account, deal/trading, contract, deposit) is `write`. READ names and read_only
// change nothing.
const WRITE = /_WRITE$/i;
const WITHDRAW = /WITHDRAW/i;
const TRANSFER = /TRANSFER/i;

export function permissionKind(permission: string): 'withdraw' | 'transfer' | 'write' | undefined {
  const name = permission.trim();
  if (!WRITE.test(name)) return undefined;
  if (WITHDRAW.test(name)) return 'withdraw';
  if (TRANSFER.test(name)) return 'transfer';
  return 'write';
}

/**
 * Notes compare trimmed, case-insensitive, inner runs of spaces as one: "Trading bot" and "trading  bot " name
 * the same key to a person, which is what makes a repeated note a problem (which one to revoke?). Blank notes
 * count as the same note too: such keys cannot be told apart by their note either.
 */
export function noteIdentity(note: string): string {
  return note.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Whole days, as the reasons say it (a creation time a Date cannot hold counts as the nearest end of its range). */
export function ageInDays(createdAt: ServiceTime, now: number): number {
  return Math.max(0, Math.floor((now - timeOrder(createdAt)) / DAY_MS));
}

/** A span as the operator would type it back: 90d, 12w, 36h, 90m, 45s (the largest unit that divides it). */
export function formatSpan(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit];
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** The no-ip flag of a key about to be made. */
export const NO_IP_AT_CREATION = `no linked IP: any address can use it, and the service ends such a key after ${NO_IP_LIFETIME_DAYS} days`;

/** The no-ip flag of a key made `age` whole days ago: how long the service's lifetime of such a key still runs. */
function noIpReason(age: number): string {
  const left = NO_IP_LIFETIME_DAYS - age;
  const when = left > 0 ? `${plural(left, 'day')} left` : `made ${age} days ago: it may no longer work`;
  return `no linked IP: any address can use it; the service ends such a key after ${NO_IP_LIFETIME_DAYS} days (${when})`;
}

/**
 * Flags every key of ONE sub-account (the shared note is a matter between keys of the same sub-account).
 * A key is `old` when strictly more than maxAgeMs passed since its creation (exactly the threshold is not old);
 * a creation time in the future (a clock apart) is not old.
 */
export function auditKeys(
  keys: readonly SubAccountKey[],
  now: number,
  maxAgeMs: number = DEFAULT_MAX_AGE_MS,
  attempts: readonly AuditEntry[] = [],
): KeyFinding[] {
  // The trail's word on each key's secret (lost-secret): the sub-account's create attempts on this host.
  const lost = lostSecrets(keys, attempts);
  const notes = new Map<string, number>();
  for (const key of keys) notes.set(noteIdentity(key.note), (notes.get(noteIdentity(key.note)) ?? 0) + 1);
  return keys.map((key) => {
    const flags: KeyFlag[] = [];
    const fate = lost.get(key.apiKey);
    if (fate !== undefined) flags.push({ kind: 'lost-secret', reason: LOST_SECRET_TEXT[fate] });
    if (key.ips.length === 0) flags.push({ kind: 'no-ip', reason: noIpReason(ageInDays(key.createdAt, now)) });
    const granted = (kind: FlagKind) => key.permissions.filter((p) => permissionKind(p) === kind);
    const write = granted('write');
    if (write.length > 0) flags.push({ kind: 'write', reason: `can change the account or trade: ${write.join(', ')}` });
    const withdraw = granted('withdraw');
    if (withdraw.length > 0) flags.push({ kind: 'withdraw', reason: `can withdraw funds: ${withdraw.join(', ')}` });
    const transfer = granted('transfer');
    if (transfer.length > 0) flags.push({ kind: 'transfer', reason: `can transfer between accounts: ${transfer.join(', ')}` });
    if (now - timeOrder(key.createdAt) > maxAgeMs) {
      flags.push({ kind: 'old', reason: `created ${ageInDays(key.createdAt, now)} days ago (older than ${formatSpan(maxAgeMs)})` });
    }
    const same = notes.get(noteIdentity(key.note)) ?? 0;
    if (same > 1) {
      const shown = key.note.trim() === '' ? 'a blank note' : `the note '${key.note.trim()}'`;
      flags.push({ kind: 'shared-note', reason: `${same} keys of this sub-account have ${shown}` });
    }
    return { key, flags };
  });
}

export function summarize(findings: readonly KeyFinding[]): AuditSummary {
  const byKind = Object.fromEntries(FLAG_KINDS.map((kind) => [kind, 0])) as Record<FlagKind, number>;
  let flagged = 0;
  for (const finding of findings) {
    if (finding.flags.length > 0) flagged += 1;
    for (const flag of finding.flags) byKind[flag.kind] += 1;
  }
  return { keys: findings.length, flagged, byKind };
}

/** "no-ip 2 · write 1 · old 3", or "nothing flagged". */
export function summaryText(summary: AuditSummary): string {
  const parts = FLAG_KINDS.filter((kind) => summary.byKind[kind] > 0).map((kind) => `${kind} ${summary.byKind[kind]}`);
  return parts.length === 0 ? 'nothing flagged' : parts.join(' · ');
}
