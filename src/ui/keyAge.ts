// A key's age in words, as the key detail shows it after its creation time.
import { timeMs } from '../api/serviceTime';
import type { ServiceTime } from '../api/types';
import { ageInDays } from '../audit/keyAudit';

/** " · 268 days ago", " · today"; nothing for a time a Date cannot hold or one ahead of this clock. */
export function keyAgeText(createdAt: ServiceTime, now: number): string {
  const ms = timeMs(createdAt);
  if (ms === undefined || ms > now) return '';
  const days = ageInDays(ms, now);
  return days === 0 ? ' · today' : ` · ${days} ${days === 1 ? 'day' : 'days'} ago`;
}
