// Every page of a transfer query, in order, and always ending: at the first page shorter than the page size,
// at a page that brings a transfer already seen on ANY earlier page (a service that ignores `page`, or
// alternates two pages), or after a bounded number of pages. The next page is fetched while the current one
// is visited (written): at most two pages in memory, one being written and one arriving. Requests are paced
// by the signed client, under the service's limit (api/pacing.ts; requestTally.ts counts what it did).
import type { BrokerApi } from '../api/contract';
import { DEFAULT_PAGE_SIZE, type Transfer, type TransferQuery } from '../api/types';
import { RequestTally } from './requestTally';
import { plural } from '../terminal/sanitize';

export interface PageVisit {
  page: number;
  rows: readonly Transfer[];
  /** A page shorter than the limit is the last one. */
  last: boolean;
}

/**
 * The most transfers one export is expected to hold: one transfer every 5 minutes, day and night, for 9.5
 * years (~1,000,000). The service's docs state no maximum; this one sets the default page bound (MAX_TRANSFERS / page
 * size: 2,000 pages at 500) and what the repeat check remembers in full.
 */
export const MAX_TRANSFERS = 1_000_000;

/** The default --max-pages for a page size: enough pages for MAX_TRANSFERS transfers (2,000 at 500). */
export function defaultMaxPages(limit: number = DEFAULT_PAGE_SIZE): number {
  return Math.ceil(MAX_TRANSFERS / Math.max(1, Math.floor(limit)));
}

/** The largest --max-pages accepted (a request bound, whatever the page size). */
export const MAX_MAX_PAGES = 1_000_000;

type PagingStopReason = 'repeated' | 'max-pages';

/** Paging stopped on purpose: the service repeated transfers, or there were more pages than allowed. */
export class PagingStopped extends Error {
  override readonly name = 'PagingStopped';
  constructor(
    readonly reason: PagingStopReason,
    message: string,
    /** Pages visited (written) before the stop, and their rows. */
    readonly pages: number,
    readonly rows: number,
    /** The page bound in force. */
    readonly maxPages: number,
  ) {
    super(message);
  }
}

interface PagingOptions {
  signal?: AbortSignal;
  /** Pages fetched at most (from query.page on); default defaultMaxPages(limit). */
  maxPages?: number;
  /** Paces the requests (one per export); default a new one for this call. */
  tally?: RequestTally;
  /** Fetch the next page while the current one is visited (default true). */
  prefetch?: boolean;
}

/**
 * Fetches pages from query.page (default 1) until one comes back short, visiting them in order. A page is
 * checked against every earlier page before it is visited, so repeated rows are never written. While a page
 * is visited the next one is already being fetched (never past a short page or the page bound, so no more
 * requests are sent than without it); a visit that fails cancels that fetch, and a fetch that fails is
 * reported only after the page before it was visited whole.
 * Throws PagingStopped for a repeat, or when `maxPages` full pages came and there may be more.
 */
export async function forEachTransferPage(
  api: BrokerApi,
  query: TransferQuery,
  visit: (visit: PageVisit) => Promise<void>,
  options: PagingOptions | AbortSignal = {},
): Promise<{ pages: number; rows: number }> {
  const {
    signal,
    maxPages: asked,
    tally = new RequestTally(),
    prefetch = true,
  }: PagingOptions = options instanceof AbortSignal ? { signal: options } : options;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const maxPages = asked ?? defaultMaxPages(limit);
  const seen = new SeenTransfers();
  // The fetch ahead is cancelled with the caller's signal, and when a visit fails.
  const ahead = new AbortController();
  const follow = (): void => ahead.abort(signal?.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener('abort', follow, { once: true });
  const fetchPage = (page: number): Promise<Transfer[]> => {
    const fetched = tally.call(
      (onExchange, onWait) => api.listUniversalTransfers({ ...query, page, limit }, { signal: ahead.signal, onExchange, onWait }),
      ahead.signal,
    );
    // Awaited after the visit; until then a failure must not count as unhandled.
    fetched.catch(() => undefined);
    return fetched;
  };
  let page = query.page ?? 1;
  let pages = 0;
  let rows = 0;
  try {
    // The limit is always sent, so "shorter than the limit" reliably means the last page.
    let next = fetchPage(page);
    for (;;) {
      const batch = await next;
      const { repeat, skip } = seen.checkPage(batch, page, limit);
      if (repeat) {
        const plainId = repeat.tranId.length > 40 ? `${repeat.tranId.slice(0, 40)}…` : repeat.tranId;
        throw new PagingStopped(
          'repeated',
          `page ${page} repeats page ${repeat.page} (transfer ${plainId} came on both; the service may ignore the page parameter); stopped`,
          pages,
          rows,
          maxPages,
        );
      }
      pages += 1;
      const fresh = skip === 0 ? batch : batch.slice(skip);
      rows += fresh.length;
      const last = batch.length < limit;
      const more = !last && pages < maxPages;
      if (more && prefetch) {
        next = fetchPage(page + 1);
        await requestSent();
      }
      await visit({ page, rows: fresh, last });
      if (last) return { pages, rows };
      if (!more) {
        throw new PagingStopped(
          'max-pages',
          `stopped after ${plural(pages, 'page')}, the most allowed: every page was full, so there may be more`,
          pages,
          rows,
          maxPages,
        );
      }
      if (!prefetch) next = fetchPage(page + 1);
      page += 1;
    }
  } catch (error) {
    ahead.abort();
    throw error;
  } finally {
    signal?.removeEventListener('abort', follow);
  }
}

/**
 * Lets a request just started go out before the visit's work begins: the client reaches undici a microtask
 * later, and undici writes on a reused keep-alive socket only from an Immediate of its own (it first checks
 * the idle socket for unsolicited bytes), so one turn of the loop is not enough; a visit that formats a page
 * without yielding would otherwise hold the request back until it ends.
 */
function requestSent(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * The tranIds of the pages so far, as 64-bit hashes in an open-addressing table (typed arrays, no strings
 * kept): 12 bytes a slot (8 hash + 4 page), grown by doubling up to SEEN_SLOTS_MAX, kept at most half full.
 * Memory bound: 24 MiB (2^21 slots), reached at 1,048,576 remembered transfers (more than MAX_TRANSFERS);
 * past that, new pages are still checked against everything remembered but are no longer added, and the
 * page bound is what ends the export. A false "seen" needs a 64-bit collision: about 3e-8 at a million rows.
 */
export const SEEN_SLOTS_MAX = 1 << 21;
const SEEN_SLOTS_MIN = 1 << 10;

export class SeenTransfers {
  private hashes = new Uint32Array(SEEN_SLOTS_MIN * 2);
  /** Page where each slot's transfer came (0: empty slot). */
  private pages = new Uint32Array(SEEN_SLOTS_MIN);
  private count = 0;
  /** The hashes of the page being checked (reused). */
  private scratch = new Uint32Array(0);

  /** How many transfers are remembered. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.hashes.byteLength + this.pages.byteLength;
  }

  /**
   * Reads a page against the pages before it, hashing each tranId once. Rows at its top that the page before
   * brought are skipped (`skip`): transfers that arrived during the export pushed them down a page. Any other
   * transfer seen on an earlier page, or a page that is all the page before, is a repeat (a service that ignores
   * `page`, or cycles): the first such transfer and its page. A short page (the last) may be all pushed-down rows:
   * a service ignoring `page` would have answered a full one. Without a repeat the page's new rows are remembered.
   */
  checkPage(batch: readonly Transfer[], page: number, limit: number): { repeat?: { tranId: string; page: number }; skip: number } {
    const n = batch.length;
    if (this.scratch.length < n * 2) this.scratch = new Uint32Array(n * 2);
    const scratch = this.scratch;
    let skip = 0;
    for (let i = 0; i < n; i += 1) {
      hashInto(String((batch[i] as Transfer).tranId), scratch, i * 2);
      const a = scratch[i * 2] as number;
      const b = scratch[i * 2 + 1] as number;
      const seenOn = this.pages[this.find(a, b)] ?? 0;
      if (seenOn === 0) continue;
      if (seenOn === page - 1 && i === skip && (skip + 1 < n || n < limit)) {
        skip += 1;
        continue;
      }
      // After a skipped run, the page repeats the page before from its top: named by its first row.
      const first = skip > 0 ? 0 : i;
      return { repeat: { tranId: String((batch[first] as Transfer).tranId), page: skip > 0 ? page - 1 : seenOn }, skip: 0 };
    }
    for (let i = skip; i < n; i += 1) this.insert(scratch[i * 2] as number, scratch[i * 2 + 1] as number, page);
    return { skip };
  }

  /** Remembers (a, b) as seen on `page` unless already there; false once the table is full (at its cap). */
  private insert(a: number, b: number, page: number): boolean {
    if (this.count + 1 > this.pages.length / 2) {
      if (this.pages.length >= SEEN_SLOTS_MAX) return false;
      this.grow();
    }
    const slot = this.find(a, b);
    if (this.pages[slot] !== 0) return true;
    this.hashes[slot * 2] = a;
    this.hashes[slot * 2 + 1] = b;
    this.pages[slot] = Math.max(1, page);
    this.count += 1;
    return true;
  }

  /** The slot holding (a, b), or the empty slot where it would go (linear probing). */
  private find(a: number, b: number): number {
    const mask = this.pages.length - 1;
    let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    for (;;) {
      if (this.pages[slot] === 0) return slot;
      if (this.hashes[slot * 2] === a && this.hashes[slot * 2 + 1] === b) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const { hashes, pages } = this;
    this.hashes = new Uint32Array(hashes.length * 2);
    this.pages = new Uint32Array(pages.length * 2);
    for (let i = 0; i < pages.length; i += 1) {
      const page = pages[i] ?? 0;
      if (page === 0) continue;
      const a = hashes[i * 2] ?? 0;
      const b = hashes[i * 2 + 1] ?? 0;
      const slot = this.find(a, b);
      this.hashes[slot * 2] = a;
      this.hashes[slot * 2 + 1] = b;
      this.pages[slot] = page;
    }
  }
}

/**
 * Two independent 32-bit hashes of the UTF-16 code units (FNV-1a and a murmur3-style mix), 64 bits, written to
 * out[at] and out[at + 1] (no array made per row).
 */
function hashInto(text: string, out: Uint32Array, at: number): void {
  let a = 0x811c9dc5;
  let b = 0x2545f491 ^ text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 13;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  out[at] = a >>> 0;
  out[at + 1] = b >>> 0;
}
