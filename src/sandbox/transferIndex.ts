// Per-filter index over the (static) transfer table: a page query is a lookup and two binary searches.
import type { WireTransfer } from './model';
import { TYPE_PAIRS, type TransferTable } from './seedTransfers';

interface TransferFilter {
  fromAccount: string;
  toAccount: string;
  fromAccountType: string;
  toAccountType: string;
  /** Inclusive. */
  startTime?: number;
  /** Inclusive. */
  endTime?: number;
  clientTranId?: string;
  page: number;
  limit: number;
}

export interface TransferIndex {
  /** How many records match the filter, before paging. */
  count(filter: Omit<TransferFilter, 'page' | 'limit'>): number;
  /** One page of the matching records, newest first. */
  page(filter: TransferFilter): WireTransfer[];
}

const EMPTY: readonly number[] = [];

export function buildTransferIndex(table: TransferTable): TransferIndex {
  const accountIds = new Map(table.accounts.map((name, id) => [name, id]));
  const pairIds = new Map(TYPE_PAIRS.map(([a, b], id) => [`${a}\u0000${b}`, id]));
  const keyOf = (from: number, to: number, pair: number): number => (from * 256 + to) * 4 + pair;
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < table.count; i++) {
    const key = keyOf(table.from[i] as number, table.to[i] as number, table.pair[i] as number);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = []));
    bucket.push(i); // table order: newest first
  }

  /** Positions (into the table) of the matching records, newest first. */
  const matching = (f: Omit<TransferFilter, 'page' | 'limit'>): readonly number[] => {
    const from = accountIds.get(f.fromAccount);
    const to = accountIds.get(f.toAccount);
    const pair = pairIds.get(`${f.fromAccountType}\u0000${f.toAccountType}`);
    if (from === undefined || to === undefined || pair === undefined) return EMPTY;
    const bucket = buckets.get(keyOf(from, to, pair)) ?? EMPTY;
    const ts = (i: number): number => table.timestamps[bucket[i] as number] as number;
    const lo = f.endTime === undefined ? 0 : firstIndex(bucket.length, (i) => ts(i) <= (f.endTime as number));
    const hi = f.startTime === undefined ? bucket.length : firstIndex(bucket.length, (i) => ts(i) < (f.startTime as number));
    const inRange = lo === 0 && hi === bucket.length ? bucket : bucket.slice(lo, Math.max(lo, hi));
    return f.clientTranId === undefined ? inRange : inRange.filter((i) => table.at(i).clientTranId === f.clientTranId);
  };

  return {
    count: (f) => matching(f).length,
    page: (f) => {
      const start = (f.page - 1) * f.limit;
      return matching(f)
        .slice(start, start + f.limit)
        .map((i) => table.at(i));
    },
  };
}

/** First index in [0, length) where `pred` holds, given it is false then true along the range. */
function firstIndex(length: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
