// Decimal-exact sums per asset (big.js): amounts are decimal strings and never become floats.
import Big from 'big.js';
import { decimalForBig } from '../api/decimal';
import type { Transfer } from '../api/types';

/** The status whose amounts moved money: what page totals count when they count one status only. */
export const COUNTED_STATUS = 'SUCCESS';

export class AssetTotals {
  private readonly sums = new Map<string, Big>();
  /** Rows left out for their status, by status (only when a status is given). */
  private readonly skipped = new Map<string, number>();
  unparsable = 0;
  /** Rows whose amount is in the sums. */
  counted = 0;

  /** `onlyStatus`: count only rows of that status (case-insensitive); without it every row counts. */
  constructor(readonly onlyStatus?: string) {}

  add(t: Transfer): void {
    if (this.onlyStatus !== undefined && t.status.toUpperCase() !== this.onlyStatus.toUpperCase()) {
      this.skipped.set(t.status, (this.skipped.get(t.status) ?? 0) + 1);
      return;
    }
    // Every decimal form the service might write (1e-7, +3., .5); anything else is shown as sent and counted apart.
    const readable = decimalForBig(t.amount);
    if (readable === undefined) {
      this.unparsable += 1;
      return;
    }
    const amount = new Big(readable);
    this.counted += 1;
    this.sums.set(t.asset, (this.sums.get(t.asset) ?? new Big(0)).plus(amount));
  }

  /** [asset, sum in plain decimal notation], assets sorted. */
  entries(): [string, string][] {
    return [...this.sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([asset, sum]) => [asset, sum.toFixed()]);
  }

  /** Rows left out for their status: [status, rows], most rows first. */
  notCounted(): [string, number][] {
    return [...this.skipped.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  }

  /** How many rows were left out for their status. */
  get notCountedRows(): number {
    let rows = 0;
    for (const n of this.skipped.values()) rows += n;
    return rows;
  }
}

/** Totals of a page; by default only SUCCESS rows count (a failed transfer moved nothing). */
export function totalsOf(rows: readonly Transfer[], onlyStatus: string | undefined = COUNTED_STATUS): AssetTotals {
  const totals = new AssetTotals(onlyStatus);
  for (const row of rows) totals.add(row);
  return totals;
}
