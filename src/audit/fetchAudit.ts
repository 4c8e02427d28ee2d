// Fetches the keys of several sub-accounts and audits each (keyAudit.ts), for `keys audit` and the console's
// audit screen alike. No React. A few requests at a time, paced by the signed client under the service's limit
// (api/pacing.ts) and counted by a RequestTally, on top of the client's own retries. A sub-account the service does not know or forbids is reported as
// such and the audit goes on; any other failure (signature, permission, network, 5xx after the client's retries)
// would fail every other sub-account the same way, so the ones not yet asked are reported as not audited.
import type { BrokerApi } from '../api/contract';
import { isSubAccountRefused, isUnknownSubAccount } from '../api/errors';
import { checkSubAccount } from '../api/validation';
import type { AuditEntry } from '../config/auditTrail';
import { RequestTally } from '../export/requestTally';
import { type AuditSummary, type KeyFinding, auditKeys, summarize } from './keyAudit';

/** Requests in flight at once: enough to hide latency, few enough to stay well inside a rate limit. */
const AUDIT_CONCURRENCY = 3;

export type SubAccountAudit =
  | { subAccount: string; status: 'audited'; findings: KeyFinding[]; summary: AuditSummary }
  /** unknown: the service said there is no such sub-account (code 140001). */
  | { subAccount: string; status: 'failed'; error: Error; unknown: boolean }
  /** Not asked: an earlier failure would have failed it the same way. */
  | { subAccount: string; status: 'skipped'; after: string };

interface AuditRunOptions {
  now: number;
  maxAgeMs: number;
  signal?: AbortSignal;
  concurrency?: number;
  /** The sub-account's create attempts from the audit trail (its lost secrets are flagged); none without it. */
  attemptsFor?: (subAccount: string) => Promise<readonly AuditEntry[]>;
  /** Each sub-account's result as it comes, by its index in the names given. */
  onResult?: (index: number, result: SubAccountAudit) => void;
}

/** The results in the order of `names`. Resolves early (with what it has) only when the signal aborts. */
export async function fetchAudit(api: Pick<BrokerApi, 'listSubAccountKeys'>, names: readonly string[], options: AuditRunOptions): Promise<SubAccountAudit[]> {
  const { now, maxAgeMs, signal } = options;
  const results: SubAccountAudit[] = [];
  const tally = new RequestTally();
  let next = 0;
  let stoppedAfter: string | undefined;

  const one = async (subAccount: string): Promise<SubAccountAudit | undefined> => {
    if (stoppedAfter !== undefined) return { subAccount, status: 'skipped', after: stoppedAfter };
    try {
      const keys = await tally.call((onExchange, onWait) => api.listSubAccountKeys(subAccount, { signal, onExchange, onWait }), signal);
      const attempts = (await options.attemptsFor?.(subAccount).catch(() => [])) ?? [];
      const findings = auditKeys(keys, now, maxAgeMs, attempts);
      return { subAccount, status: 'audited', findings, summary: summarize(findings) };
    } catch (error) {
      if (signal?.aborted) return undefined;
      const failure = error instanceof Error ? error : new Error(String(error));
      const unknown = isUnknownSubAccount(failure);
      // A refusal of this one sub-account (unknown, forbidden) says nothing of the others.
      if (!isSubAccountRefused(failure)) stoppedAfter ??= subAccount;
      return { subAccount, status: 'failed', error: failure, unknown };
    }
  };

  const worker = async (): Promise<void> => {
    while (!signal?.aborted && next < names.length) {
      const index = next++;
      const result = await one(names[index] as string);
      if (result === undefined) return;
      results[index] = result;
      options.onResult?.(index, result);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? AUDIT_CONCURRENCY, names.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results.filter((r): r is SubAccountAudit => r !== undefined);
}

/** The names to audit, as given and then from the stores, each once, in that order. */
export function auditTargets(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())];
}

/**
 * Stored names (recent, discovered: the latter came from the service's transfer records) worth asking for:
 * each once, checked as a typed name is; how many were not valid sub-account names.
 */
export function auditableNames(...lists: ReadonlyArray<readonly string[]>): { names: string[]; invalid: number } {
  const all = auditTargets(...lists);
  const names = all.flatMap((n) => {
    const checked = checkSubAccount(n);
    return checked.ok ? [checked.value] : [];
  });
  return { names: auditTargets(names), invalid: all.length - names.length };
}
