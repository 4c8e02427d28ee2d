// Decimal-exact sums per asset (big.js): amounts are decimal strings and never become floats.
import Big from 'big.js';
import type { Transfer } from '../api/types';

export class AssetTotals {
  private readonly sums = new Map<string, Big>();
  unparsable = 0;

  add(t: Transfer): void {
    let amount: Big;
    try {
      amount = new Big(t.amount);
    } catch {
      this.unparsable += 1;
      return;
    }
    this.sums.set(t.asset, (this.sums.get(t.asset) ?? new Big(0)).plus(amount));
  }

  /** [asset, sum in plain decimal notation], assets sorted. */
  entries(): [string, string][] {
    return [...this.sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([asset, sum]) => [asset, sum.toFixed()]);
  }
}

export function totalsOf(rows: readonly Transfer[]): AssetTotals {
  const totals = new AssetTotals();
  for (const row of rows) totals.add(row);
  return totals;
}
