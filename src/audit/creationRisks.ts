// What the key audit would flag on a key about to be made, from its request alone: the one rule `keys create`
// and the console's review share.
import { type KeyFlag, NO_IP_AT_CREATION, auditKeys } from './keyAudit';

/** The audit's flags that hold at creation (age and shared notes need the other keys and time): in its order. */
export function creationRisks(permissions: readonly string[], ips: readonly string[]): KeyFlag[] {
  const [finding] = auditKeys([{ apiKey: '', note: '', permissions: [...permissions], ips: [...ips], createdAt: 0 }], 0);
  return (finding?.flags ?? [])
    .filter((f) => f.kind !== 'old' && f.kind !== 'shared-note')
    .map((f) => (f.kind === 'no-ip' ? { kind: f.kind, reason: NO_IP_AT_CREATION } : f));
}

/** The risks a LIVE create must be allowed explicitly: funds can leave (withdraw, transfer) or any address can use it. */
export const NEEDS_ALLOWING: ReadonlySet<KeyFlag['kind']> = new Set<KeyFlag['kind']>(['withdraw', 'transfer', 'no-ip']);

/** Whether a LIVE create of a key with these risks must be allowed (a flag, a typed confirmation). */
export function needsAllowing(risks: readonly KeyFlag[]): boolean {
  return risks.some((r) => NEEDS_ALLOWING.has(r.kind));
}
