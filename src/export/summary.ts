// The summary of a set of transfers: per asset, per status and per day, the same for the
// console's chart and `transfers --summary`. Pure: rows go in a page at a time, a plain object comes out.
// Sums are big.js decimals written as plain decimal strings; an amount never becomes a float. Volume counts
// SUCCESS only (as the page totals do: a failed transfer moved nothing); counts are of every status. Days are
// local calendar days (the console shows local times, and `--start 2026-11-01` is local midnight): the
// time zone is part of the summary.
import { DAY_MS } from '../api/timeInput';
import Big from 'big.js';
import { decimalForBig } from '../api/decimal';
import { timeMs } from '../api/serviceTime';
import type { ServiceTime, Transfer } from '../api/types';
import { COUNTED_STATUS } from './totals';

/** One status: how many transfers, and the sum of their amounts that are decimals. */
interface StatusSum {
  status: string;
  count: number;
  sum: string;
}

interface AssetSummary {
  asset: string;
  /** Transfers of this asset, every status. */
  count: number;
  /** Sum of the SUCCESS amounts. */
  volume: string;
  /** Per status (as sent), most transfers first. */
  statuses: StatusSum[];
}

interface DayAsset {
  asset: string;
  /** Transfers of this asset that day, every status. */
  count: number;
  /** Sum of its SUCCESS amounts that day. */
  volume: string;
}

interface DaySummary {
  /** Local calendar day, YYYY-MM-DD. */
  day: string;
  /** Transfers that day, every status (0: a day of the range with none). */
  count: number;
  /** The assets moved that day, sorted by name (empty on a day with none). */
  assets: DayAsset[];
}

export interface TransferSummary {
  /** The time zone the days are in (IANA name, e.g. Europe/Paris; UTC when TZ=UTC). */
  timeZone: string;
  /** The status whose amounts make the volume. */
  volumeStatus: string;
  /** Transfers summed. */
  rows: number;
  /** Transfers whose amount is not a decimal: counted, but in no sum. */
  unparsable: number;
  /** Sorted by asset name. */
  assets: AssetSummary[];
  /** Every status, most transfers first. */
  statuses: Array<{ status: string; count: number }>;
  /** Every day of the range, oldest first, days without transfers included. */
  days: DaySummary[];
}

/** When the range asked for holds more days than this, the days begin at the first transfer instead. */
export const MAX_EMPTY_RANGE_DAYS = 3660;

const isCounted = (status: string): boolean => status.toUpperCase() === COUNTED_STATUS;

/** The local calendar day of a time, YYYY-MM-DD (the process's time zone). */
export function localDay(time: ServiceTime): string {
  const d = new Date(timeMs(time) ?? Number.NaN);
  if (Number.isNaN(d.getTime())) return '????-??-??';
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${String(d.getFullYear()).padStart(4, '0')}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The time zone local days are in. */
function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local';
}

/**
 * Calendar days from `first` to `last` (YYYY-MM-DD, both included), counted in UTC so no day is lost to DST;
 * undefined when there are more than `max`.
 */
export function daysFrom(first: string, last: string, max = MAX_EMPTY_RANGE_DAYS): string[] | undefined {
  const at = (day: string): number => Date.parse(`${day}T00:00:00Z`);
  const start = at(first);
  const end = at(last);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return [];
  if ((end - start) / DAY_MS + 1 > max) return undefined;
  const days: string[] = [];
  for (let t = start; t <= end; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

interface Cell {
  count: number;
  volume: Big;
}

/** Adds pages of transfers; `result` gives the summary so far at any point (the chart draws it as pages come). */
export class SummaryBuilder {
  private rows = 0;
  private unparsable = 0;
  private oldest = Infinity;
  private newest = -Infinity;
  private readonly assets = new Map<string, { count: number; volume: Big; statuses: Map<string, { count: number; sum: Big }> }>();
  private readonly statuses = new Map<string, number>();
  /** day → asset → cell. */
  private readonly byDay = new Map<string, Map<string, Cell>>();

  add(rows: readonly Transfer[]): void {
    for (const t of rows) this.addOne(t);
  }

  private addOne(t: Transfer): void {
    this.rows += 1;
    const readable = decimalForBig(String(t.amount));
    if (readable === undefined) this.unparsable += 1;
    const amount = readable === undefined ? undefined : new Big(readable);
    const counted = amount !== undefined && isCounted(t.status);
    const asset = this.assets.get(t.asset) ?? { count: 0, volume: new Big(0), statuses: new Map() };
    this.assets.set(t.asset, asset);
    asset.count += 1;
    if (counted) asset.volume = asset.volume.plus(amount);
    const status = asset.statuses.get(t.status) ?? { count: 0, sum: new Big(0) };
    asset.statuses.set(t.status, status);
    status.count += 1;
    if (amount !== undefined) status.sum = status.sum.plus(amount);
    this.statuses.set(t.status, (this.statuses.get(t.status) ?? 0) + 1);
    const ms = timeMs(t.timestamp);
    if (ms !== undefined) {
      this.oldest = Math.min(this.oldest, ms);
      this.newest = Math.max(this.newest, ms);
    }
    const day = localDay(t.timestamp);
    const cells = this.byDay.get(day) ?? new Map<string, Cell>();
    this.byDay.set(day, cells);
    const cell = cells.get(t.asset) ?? { count: 0, volume: new Big(0) };
    cells.set(t.asset, cell);
    cell.count += 1;
    if (counted) cell.volume = cell.volume.plus(amount);
  }

  /**
   * The summary so far. The days run from the range's start (else the oldest transfer) to its end (else
   * `now`), widened to every transfer seen; a range of more than MAX_EMPTY_RANGE_DAYS begins at the oldest transfer.
   */
  result(range: { startTime?: number; endTime?: number; now: number }): TransferSummary {
    const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    const assets: AssetSummary[] = [...this.assets.entries()]
      .sort(([a], [b]) => byName(a, b))
      .map(([asset, s]) => ({
        asset,
        count: s.count,
        volume: s.volume.toFixed(),
        statuses: [...s.statuses.entries()]
          .sort(([a, x], [b, y]) => y.count - x.count || byName(a, b))
          .map(([status, v]) => ({ status, count: v.count, sum: v.sum.toFixed() })),
      }));
    const statuses = [...this.statuses.entries()].sort(([a, x], [b, y]) => y - x || byName(a, b)).map(([status, count]) => ({ status, count }));
    return {
      timeZone: localTimeZone(),
      volumeStatus: COUNTED_STATUS,
      rows: this.rows,
      unparsable: this.unparsable,
      assets,
      statuses,
      days: this.dayList(range),
    };
  }

  private dayList(range: { startTime?: number; endTime?: number; now: number }): DaySummary[] {
    const seen = [...this.byDay.keys()].filter((d) => !d.startsWith('?')).sort();
    // No day after today is listed: an end in the future (`--end 2030-01-01`) would add years of empty days.
    const end = range.endTime !== undefined ? Math.min(range.endTime, range.now) : range.now;
    let first = range.startTime !== undefined ? localDay(range.startTime) : seen[0];
    // An end at a local midnight (`--end 2026-11-25`) takes in one instant of that day: the day before is the last.
    const lastInstant = range.endTime !== undefined && Number.isFinite(end) && localDay(end - 1) !== localDay(end) ? end - 1 : end;
    let last = Number.isFinite(lastInstant) ? localDay(lastInstant) : seen.at(-1);
    if (seen.length > 0) {
      if (first === undefined || seen[0]! < first) first = seen[0];
      if (last === undefined || seen.at(-1)! > last) last = seen.at(-1);
    }
    if (first === undefined || last === undefined) return [];
    const days = daysFrom(first, last) ?? (seen.length > 0 ? daysFrom(seen[0]!, last) : undefined) ?? seen;
    const unknown = [...this.byDay.keys()].filter((d) => d.startsWith('?'));
    return [...days, ...unknown].map((day) => {
      const cells = this.byDay.get(day);
      if (!cells) return { day, count: 0, assets: [] };
      const list = [...cells.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([asset, c]) => ({ asset, count: c.count, volume: c.volume.toFixed() }));
      return { day, count: list.reduce((n, a) => n + a.count, 0), assets: list };
    });
  }
}

/** The summary of a list of transfers (all at once). */
export function summarize(rows: readonly Transfer[], range: { startTime?: number; endTime?: number; now: number }): TransferSummary {
  const builder = new SummaryBuilder();
  builder.add(rows);
  return builder.result(range);
}
