// Every page of a transfer query, in order, one page in memory at a time, and always ending: at the first
// page shorter than the page size, at a page that brings a transfer already seen on ANY earlier page (a
// service that ignores `page`, or alternates two pages), or after a bounded number of pages.
import type { BrokerApi } from '../api/contract';
import { DEFAULT_PAGE_SIZE, type Transfer, type TransferQuery } from '../api/types';

export interface PageVisit {
  page: number;
  rows: readonly Transfer[];
  /** A page shorter than the limit is the last one. */
  last: boolean;
}

/**
 * The most transfers one export is expected to hold: one transfer every 5 minutes, day and night, for 9.5
 * years (~1,000,000). The spec states no maximum; this one sets the default page bound (MAX_TRANSFERS / page
 * size: 2,000 pages at 500) and what the repeat check remembers in full.
 */
export const MAX_TRANSFERS = 1_000_000;

/** The default --max-pages for a page size: enough pages for MAX_TRANSFERS transfers (2,000 at 500). */
export function defaultMaxPages(limit: number = DEFAULT_PAGE_SIZE): number {
  return Math.ceil(MAX_TRANSFERS / Math.max(1, Math.floor(limit)));
}

/** The largest --max-pages accepted (a request bound, whatever the page size). */
export const MAX_MAX_PAGES = 1_000_000;

export type PagingStopReason = 'repeated' | 'max-pages';

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

export interface PagingOptions {
  signal?: AbortSignal;
  /** Pages fetched at most (from query.page on); default defaultMaxPages(limit). */
  maxPages?: number;
}

/**
 * Fetches pages from query.page (default 1) until one comes back short; `visit` runs before the next fetch.
 * A page is checked against every earlier page before it is visited, so repeated rows are never written.
 * Throws PagingStopped for a repeat, or when `maxPages` full pages came and there may be more.
 */
export async function forEachTransferPage(
  api: BrokerApi,
  query: TransferQuery,
  visit: (visit: PageVisit) => Promise<void>,
  options: PagingOptions | AbortSignal = {},
): Promise<{ pages: number; rows: number }> {
  const { signal, maxPages: asked } = options instanceof AbortSignal ? { signal: options, maxPages: undefined } : options;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const maxPages = asked ?? defaultMaxPages(limit);
  const seen = new SeenTransfers();
  let page = query.page ?? 1;
  let pages = 0;
  let rows = 0;
  for (;;) {
    // The limit is always sent, so "shorter than the limit" reliably means the last page.
    const batch = await api.listUniversalTransfers({ ...query, page, limit }, signal ? { signal } : undefined);
    const repeat = seen.firstRepeat(batch);
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
    seen.addPage(batch, page);
    pages += 1;
    rows += batch.length;
    const last = batch.length < limit;
    await visit({ page, rows: batch, last });
    if (last) return { pages, rows };
    if (pages >= maxPages) {
      throw new PagingStopped(
        'max-pages',
        `stopped after ${pages} page${pages === 1 ? '' : 's'}, the most allowed: every page was full, so there may be more`,
        pages,
        rows,
        maxPages,
      );
    }
    page += 1;
  }
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

  /** How many transfers are remembered. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.hashes.byteLength + this.pages.byteLength;
  }

  /** The first transfer of the batch already seen on an earlier page, and that page. */
  firstRepeat(batch: readonly Transfer[]): { tranId: string; page: number } | undefined {
    for (const row of batch) {
      const [a, b] = hash64(String(row.tranId));
      const slot = this.find(a, b);
      const page = this.pages[slot] ?? 0;
      if (page !== 0) return { tranId: String(row.tranId), page };
    }
    return undefined;
  }

  /** Remembers the batch's transfers as seen on `page` (a repeat within one page is not a repeat of a page). */
  addPage(batch: readonly Transfer[], page: number): void {
    for (const row of batch) {
      if (this.count + 1 > this.pages.length / 2) {
        if (this.pages.length >= SEEN_SLOTS_MAX) return;
        this.grow();
      }
      const [a, b] = hash64(String(row.tranId));
      const slot = this.find(a, b);
      if (this.pages[slot] !== 0) continue;
      this.hashes[slot * 2] = a;
      this.hashes[slot * 2 + 1] = b;
      this.pages[slot] = Math.max(1, page);
      this.count += 1;
    }
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

/** Two independent 32-bit hashes of the UTF-16 code units (FNV-1a and a murmur3-style mix): 64 bits. */
export function hash64(text: string): [number, number] {
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
  return [a >>> 0, b >>> 0];
}
