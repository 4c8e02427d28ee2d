// Every page of a transfer query into a summary (summary.ts): the paging, repeat check, page bound and pacing
// of an export (transferPages.ts, requestTally.ts), with progress after each page. The rows visited before a stop
// (a cancel, a failure, the page bound) stay in the builder the caller passed: a partial summary.
import type { BrokerApi } from '../api/contract';
import type { Transfer, TransferQuery } from '../api/types';
import { timeFraction } from './fileExporter';
import { RequestTally } from './requestTally';
import { SummaryBuilder } from './summary';
import { forEachTransferPage } from './transferPages';

interface SummaryProgress {
  /** Pages visited, and the transfers on them (before `keep`). */
  pages: number;
  rows: number;
  /** 0..1 when the range's start bounds it (newest first: how far back the pages reached), else undefined. */
  fraction?: number;
}

interface SummaryPagesOptions {
  signal?: AbortSignal;
  /** Pages fetched at most (default: transferPages' bound for the page size). */
  maxPages?: number;
  /** Only the transfers it keeps are summed (the console's `/` text); default every one. */
  keep?: (t: Transfer) => boolean;
  /** The end of a range with no end time (the console's or the command's "now"). */
  now?: () => number;
  onPage?: (progress: SummaryProgress) => void;
}

/**
 * Adds every page of `query` (from query.page, at query.limit a page) to `builder`, paced; resolves with the
 * pages and rows read. Throws what paging throws (PagingStopped, a BrokerError, the signal's abort) with the
 * pages visited so far already in the builder.
 */
export async function summarizePages(
  api: BrokerApi,
  query: TransferQuery,
  builder: SummaryBuilder,
  options: SummaryPagesOptions = {},
): Promise<SummaryProgress> {
  const { signal, maxPages, keep, now = Date.now, onPage } = options;
  let rows = 0;
  let pages = 0;
  await forEachTransferPage(
    api,
    query,
    async ({ rows: batch, last }) => {
      if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
      builder.add(keep ? batch.filter(keep) : batch);
      rows += batch.length;
      pages += 1;
      onPage?.({ pages, rows, fraction: last ? 1 : timeFraction(query.startTime, query.endTime ?? now(), batch) });
    },
    { signal, maxPages, tally: new RequestTally() },
  );
  return { pages, rows, fraction: 1 };
}
