// Every page of a transfer query, in order, one page in memory at a time.
import type { BrokerApi } from '../api/contract';
import { DEFAULT_PAGE_SIZE, type Transfer, type TransferQuery } from '../api/types';

export interface PageVisit {
  page: number;
  rows: readonly Transfer[];
  /** A page shorter than the limit is the last one. */
  last: boolean;
}

/** Fetches pages from query.page (default 1) until one comes back short; `visit` runs before the next fetch. */
export async function forEachTransferPage(
  api: BrokerApi,
  query: TransferQuery,
  visit: (visit: PageVisit) => Promise<void>,
  signal?: AbortSignal,
): Promise<{ pages: number; rows: number }> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let page = query.page ?? 1;
  let pages = 0;
  let rows = 0;
  for (;;) {
    // The limit is always sent, so "shorter than the limit" reliably means the last page.
    const batch = await api.listUniversalTransfers({ ...query, page, limit }, signal ? { signal } : undefined);
    pages += 1;
    rows += batch.length;
    const last = batch.length < limit;
    await visit({ page, rows: batch, last });
    if (last) return { pages, rows };
    page += 1;
  }
}
