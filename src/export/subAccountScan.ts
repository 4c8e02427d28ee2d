// The discover scan: none of the three operations lists sub-accounts, so the transfer history of the last N
// days is read for the accounts it names. The query needs both account types and names both ends (a blank end
// is the master, as the service's docs say), so the scan asks, in every pair of the documented account types (SPOT, FUTURES:
// master→sub SPOT→SPOT is the commonest move, and a type pair left out hides its transfers), for master→master
// (on a service that reads "both blank" as "from the master to anyone", that alone finds every destination) and
// for master→name and name→master of each name already known (recent, offered, discovered before), which gives
// each its last transfer. Transfers between two sub-accounts are not asked for (every pair of names would be).
// Pages go through the export's pager (transferPages.ts) with one tally for the whole scan, so a rate limit
// is met once and then respected; cancelling keeps what was found.
import { DAY_MS } from '../api/timeInput';
import type { BrokerApi } from '../api/contract';
import { isSubAccountRefused } from '../api/errors';
import { KNOWN_ACCOUNT_TYPES, MAX_PAGE_SIZE, type TransferQuery } from '../api/types';
import type { DiscoveredSubAccount, DiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import { RequestTally } from './requestTally';
import { AccountSightings } from './transferNames';
import { PagingStopped, forEachTransferPage } from './transferPages';

export const DEFAULT_SCAN_DAYS = 30;
/** The service's docs state no longest time range; a year bounds the work one scan asks of the service. */
export const MAX_SCAN_DAYS = 365;

/** `--days` and the console's field: the same rule, the same message ("days: …"). */
export function checkScanDays(raw: string): { ok: true; value: number } | { ok: false; message: string } {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > MAX_SCAN_DAYS) {
    return { ok: false, message: `days: a whole number from 1 to ${MAX_SCAN_DAYS} (got '${text.length > 20 ? `${text.slice(0, 20)}…` : text}')` };
  }
  return { ok: true, value: n };
}

export interface ScanProgress {
  /** Queries finished, of `queries`. */
  done: number;
  queries: number;
  pages: number;
  transfers: number;
  /** Sub-accounts found so far. */
  found: number;
  /** 429 answers met. */
  rateLimited: number;
  /** > 0 while the scan waits for the rate limit (ms it expects to wait). */
  waitingMs: number;
}

interface ScanResult {
  /** Most recently active first; never the master. */
  found: DiscoveredSubAccount[];
  progress: ScanProgress;
  /** Stopped by the caller: `found` holds what came before. */
  cancelled: boolean;
  /** Queries whose paging stopped early (a service repeating pages, or the page bound): their first pages counted. */
  stoppedEarly: number;
  /** Names the service refused (unknown, frozen): skipped, sorted. */
  refused: string[];
}

/** A scan that failed part way: `partial` holds what was found before, `cause` what went wrong. */
export class ScanFailed extends Error {
  override readonly name = 'ScanFailed';
  constructor(
    override readonly cause: Error,
    readonly partial: ScanResult,
  ) {
    super(cause.message);
  }
}

interface ScanOptions {
  days: number;
  /** The scan's end, Unix ms: the range is fixed, so newly arriving transfers do not shift the pages. */
  now: number;
  /** Names already known; each is asked for in both directions. */
  names: Iterable<string>;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
  /** Rows a page (default the most the service gives, 500). */
  pageSize?: number;
}

/** The queries of a scan, in the order sent: per type pair, master→master, then master→name and name→master. */
export function scanQueries(names: Iterable<string>, days: number, now: number, pageSize = MAX_PAGE_SIZE): TransferQuery[] {
  const unique = [...new Set([...names].map((n) => n.trim()).filter((n) => n !== ''))];
  const range = { startTime: now - days * DAY_MS, endTime: now, limit: pageSize };
  const queries: TransferQuery[] = [];
  for (const fromAccountType of KNOWN_ACCOUNT_TYPES) {
    for (const toAccountType of KNOWN_ACCOUNT_TYPES) {
      const types = { fromAccountType, toAccountType, ...range };
      queries.push(types);
      for (const name of unique) queries.push({ ...types, toAccount: name }, { ...types, fromAccount: name });
    }
  }
  return queries;
}

function namesAnAccount(query: TransferQuery): boolean {
  return query.fromAccount !== undefined || query.toAccount !== undefined;
}

export async function scanSubAccounts(api: BrokerApi, options: ScanOptions): Promise<ScanResult> {
  const queries = scanQueries(options.names, options.days, options.now, options.pageSize);
  const sightings = new AccountSightings();
  const progress: ScanProgress = { done: 0, queries: queries.length, pages: 0, transfers: 0, found: 0, rateLimited: 0, waitingMs: 0 };
  let stoppedEarly = 0;
  const tell = (changes: Partial<ScanProgress>): void => {
    Object.assign(progress, changes);
    options.onProgress?.({ ...progress });
  };
  // The tally hears every wait of the scan's requests, a 429's Retry-After included, and counts the 429s.
  const tally: RequestTally = new RequestTally({ onWait: (ms) => tell({ waitingMs: ms, rateLimited: tally.stats.rateLimited }) });
  const refused = new Set<string>();
  const result = (cancelled: boolean): ScanResult => ({
    found: sightings.subAccounts(),
    progress: { ...progress, waitingMs: 0 },
    cancelled,
    stoppedEarly,
    refused: [...refused].sort(),
  });
  tell({});
  for (const query of queries) {
    try {
      await forEachTransferPage(
        api,
        query,
        async ({ rows }) => {
          sightings.add(query, rows);
          tell({ pages: progress.pages + 1, transfers: progress.transfers + rows.length, found: sightings.count, waitingMs: 0 });
        },
        { tally, ...(options.signal ? { signal: options.signal } : {}) },
      );
    } catch (error) {
      if (options.signal?.aborted) return result(true);
      if (error instanceof PagingStopped) stoppedEarly += 1;
      // A name the service refuses (unknown, forbidden) has no history to read; the other names still do.
      else if (namesAnAccount(query) && error instanceof Error && isSubAccountRefused(error)) refused.add(query.fromAccount ?? query.toAccount ?? '');
      else throw new ScanFailed(error instanceof Error ? error : new Error(String(error)), result(false));
    }
    tell({ done: progress.done + 1 });
  }
  return result(false);
}

/**
 * A scan whose findings are remembered for the target, whatever its end: a whole scan notes its time, a
 * cancelled or failed one keeps what it found. `remembered` is false when the config folder could not be written.
 */
export async function discoverSubAccounts(api: BrokerApi, store: DiscoveredSubAccounts, options: ScanOptions): Promise<ScanResult & { remembered: boolean }> {
  const remember = async (result: ScanResult, scannedAt?: number): Promise<boolean> => {
    try {
      await store.note(result.found, scannedAt);
      return true;
    } catch {
      return false;
    }
  };
  try {
    const result = await scanSubAccounts(api, options);
    return { ...result, remembered: await remember(result, result.cancelled ? undefined : options.now) };
  } catch (error) {
    if (error instanceof ScanFailed) await remember(error.partial);
    throw error;
  }
}
