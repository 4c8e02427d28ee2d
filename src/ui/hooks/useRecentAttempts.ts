// The last create attempts the audit trail holds for a sub-account (newest first), read again after each
// line the console's recorder appends: the keys screen shows them without touching files itself.
import { useEffect, useState } from 'react';
import type { AuditEntry } from '../../config/auditTrail';
import { useServices } from '../services';

export function useRecentAttempts(subAccount: string, count: number): AuditEntry[] {
  const { audit } = useServices();
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  useEffect(() => {
    if (!audit) return undefined;
    let live = true;
    // Reads are numbered: an older read that finishes last never replaces a newer one.
    let asked = 0;
    const load = () => {
      const mine = ++asked;
      void audit.recentFor(subAccount, count).then((found) => {
        if (live && mine === asked) setEntries(found);
      });
    };
    load();
    const stop = audit.subscribe(load);
    return () => {
      live = false;
      stop();
    };
  }, [audit, subAccount, count]);
  return entries;
}
