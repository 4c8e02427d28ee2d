// Before a new key is made after an attempt whose outcome stayed unknown: does a key matching that attempt exist
// now? The form says so first (a duplicate would leave the first key live, its secret never received).
import { useEffect, useState } from 'react';
import { type AuditEntry, stillSending } from '../../config/auditTrail';
import type { SubAccountKey } from '../../api/types';
import { madeBy } from '../../audit/lostSecrets';
import { useServices } from '../services';

export type UnknownOutcomeCheck =
  | { status: 'none' }
  | { status: 'inProgress'; attempt: AuditEntry; pid: number }
  | { status: 'checking'; attempt: AuditEntry }
  | { status: 'checked'; attempt: AuditEntry; matching: SubAccountKey[] }
  | { status: 'failed'; attempt: AuditEntry; error: Error };

export function useUnknownOutcomeCheck(subAccount: string): UnknownOutcomeCheck {
  const { audit, api } = useServices();
  const [check, setCheck] = useState<UnknownOutcomeCheck>({ status: 'none' });
  useEffect(() => {
    if (!audit) return undefined;
    let live = true;
    void (async () => {
      const [last] = await audit.recentFor(subAccount, 1);
      if (!live || last?.outcome !== 'unknown') return;
      // Another console or command still waits for its answer: not unknown yet, and the key list cannot tell.
      const sender = stillSending(last);
      if (sender !== undefined) {
        setCheck({ status: 'inProgress', attempt: last, pid: sender });
        return;
      }
      setCheck({ status: 'checking', attempt: last });
      try {
        const keys = await api.listSubAccountKeys(subAccount);
        if (live) setCheck({ status: 'checked', attempt: last, matching: keys.filter((k) => madeBy(k, last)) });
      } catch (error) {
        if (live) setCheck({ status: 'failed', attempt: last, error: error instanceof Error ? error : new Error(String(error)) });
      }
    })();
    return () => {
      live = false;
    };
  }, [audit, api, subAccount]);
  return check;
}
