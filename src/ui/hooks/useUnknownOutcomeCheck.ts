// Before a new key is made after an attempt whose outcome stayed unknown: does a key matching that attempt exist
// now? The form says so first (a duplicate would leave the first key live, its secret never received).
import { useEffect, useState } from 'react';
import { MAX_RECV_WINDOW } from '../../api/signing';
import { type AuditEntry, stillSending } from '../../config/auditTrail';
import type { SubAccountKey } from '../../api/types';
import { ATTEMPTS_READ, madeBy, recordedKeys } from '../../audit/lostSecrets';
import { useServices } from '../services';

export type UnknownOutcomeCheck =
  | { status: 'none' }
  | { status: 'inProgress'; attempt: AuditEntry; pid: number }
  /** The request may still reach the service and be carried out until `until` (its recvWindow): a key list now proves nothing. */
  | { status: 'mayStillArrive'; attempt: AuditEntry; until: number }
  | { status: 'checking'; attempt: AuditEntry }
  | { status: 'checked'; attempt: AuditEntry; matching: SubAccountKey[] }
  | { status: 'failed'; attempt: AuditEntry; error: Error };

/**
 * Until when a request recorded at `time` may still be carried out: the service takes a request up to its
 * recvWindow after it was signed, and the attempt's recvWindow is not on record, so the largest the service
 * allows, with a second of clock slack and one for the way.
 */
export function mayArriveUntil(attempt: AuditEntry): number {
  return Date.parse(attempt.time) + MAX_RECV_WINDOW + 2000;
}

export function useUnknownOutcomeCheck(subAccount: string): UnknownOutcomeCheck {
  const { audit, api, now } = useServices();
  const [check, setCheck] = useState<UnknownOutcomeCheck>({ status: 'none' });
  useEffect(() => {
    if (!audit) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
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
        // A key already on record as created (another attempt's, with the same note) is not this attempt's.
        const onRecord = recordedKeys(await audit.recentFor(subAccount, ATTEMPTS_READ));
        const matchingNow = async () => (await api.listSubAccountKeys(subAccount)).filter((k) => madeBy(k, last) && !onRecord(k));
        let matching = await matchingNow();
        // None yet, but sent so recently that it may still arrive: the list is read again once it no longer can.
        const until = mayArriveUntil(last);
        const wait = until - now();
        if (matching.length === 0 && wait > 0) {
          if (!live) return;
          setCheck({ status: 'mayStillArrive', attempt: last, until });
          await new Promise((resolve) => {
            timer = setTimeout(resolve, wait);
          });
          if (!live) return;
          setCheck({ status: 'checking', attempt: last });
          matching = await matchingNow();
        }
        // What the list showed goes on record, as the same attempt (the form need not ask again): the one key it
        // made, its secret never received; or none, once it could no longer arrive.
        if (matching.length === 1) await audit.closeUnknown(last, matching[0]);
        else if (matching.length === 0 && mayArriveUntil(last) <= now()) await audit.closeUnknown(last);
        if (live) setCheck({ status: 'checked', attempt: last, matching });
      } catch (error) {
        if (live) setCheck({ status: 'failed', attempt: last, error: error instanceof Error ? error : new Error(String(error)) });
      }
    })();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [audit, api, subAccount, now]);
  return check;
}
