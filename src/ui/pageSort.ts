// The sort of one transfers page (`o` the next column, `O` the other way) and how the page as shown is named:
// the rows are the service's page, sorted here only, so the words always say "this page".
import Big from 'big.js';
import { decimalForBig } from '../api/decimal';
import type { Transfer } from '../api/types';
import { displayWidth, fit, grouped, sanitize } from '../terminal/text';
import type { TableColumn } from './components/WindowedTable';

/** The sorts `o` cycles through, of the current page only: time is the order the service sent (newest first). */
const TRANSFER_SORTS = ['time', 'amount', 'asset', 'status'] as const;
type TransferSort = (typeof TRANSFER_SORTS)[number];
/** A sort of the page: its column, and whether `O` turned it the other way. */
export interface PageSort {
  by: TransferSort;
  reversed: boolean;
}
export const SERVED_ORDER: PageSort = { by: 'time', reversed: false };
const SORT_COLUMN: Record<TransferSort, string> = { time: 'TIME', amount: 'AMOUNT', asset: 'ASSET', status: 'STATUS' };
// Each column's first direction: amounts largest first, names A to Z; time as served (newest first, no arrow).
const SORT_ARROW: Record<TransferSort, string> = { time: '', amount: '↓', asset: '↑', status: '↑' };

/** The arrow of a sort: the column's own, flipped when reversed (time reversed is oldest first, ↑). */
export function sortArrow(sort: PageSort): string {
  const arrow = SORT_ARROW[sort.by];
  if (!sort.reversed) return arrow;
  return arrow === '↓' ? '↑' : arrow === '↑' ? '↓' : '↑';
}

/** The sort in words for the page line and the export: "amount ↓", "time ↑ (oldest first)"; empty as served. */
export function sortText(sort: PageSort): string {
  if (sort.by === 'time') return sort.reversed ? 'time ↑ (oldest first)' : '';
  return `${sort.by} ${sortArrow(sort)}`;
}

/** `o`: the next column, in its first direction. */
export function nextSortColumn(sort: PageSort): PageSort {
  return { by: TRANSFER_SORTS[(TRANSFER_SORTS.indexOf(sort.by) + 1) % TRANSFER_SORTS.length]!, reversed: false };
}

/**
 * The page in a sort: time keeps the service's order (reversed: the other way); amount is by decimal value,
 * largest first (reversed: smallest first), the amounts that are not numbers last either way (in the order
 * sent); asset and status are alphabetical (reversed: Z to A). Stable.
 */
export function sortTransfers(rows: readonly Transfer[], { by, reversed }: PageSort): readonly Transfer[] {
  const sign = reversed ? -1 : 1;
  if (by === 'time') return reversed ? [...rows].reverse() : rows;
  if (by === 'amount') {
    const keyed = rows.map((row, i) => {
      const text = decimalForBig(row.amount);
      return { row, i, value: text === undefined ? undefined : new Big(text) };
    });
    keyed.sort((a, b) => {
      if (a.value === undefined || b.value === undefined) return a.value === b.value ? a.i - b.i : a.value === undefined ? 1 : -1;
      return sign * b.value.cmp(a.value) || a.i - b.i;
    });
    return keyed.map((k) => k.row);
  }
  const field = by === 'asset' ? (t: Transfer) => t.asset : (t: Transfer) => t.status;
  return [...rows].sort((a, b) => sign * (field(a) < field(b) ? -1 : field(a) > field(b) ? 1 : 0));
}

/** The columns with the sort shown in the sorted column's title (e.g. `AMOUNT ↓`). */
export function sortedColumns(columns: TableColumn<Transfer>[], sort: PageSort): TableColumn<Transfer>[] {
  const arrow = sortArrow(sort);
  if (arrow === '') return columns;
  // The arrow is the one sign of the direction at 40 columns (the page line is cut there): the title gives way, not it.
  const titled = (title: string, width: number) =>
    displayWidth(`${title} ${arrow}`) <= width
      ? `${title} ${arrow}`
      : displayWidth(`${title}${arrow}`) <= width
        ? `${title}${arrow}`
        : `${fit(title, Math.max(1, width - 1)).trimEnd()}${arrow}`;
  return columns.map((c) => (c.title === SORT_COLUMN[sort.by] ? { ...c, title: titled(c.title, c.width) } : c));
}

/**
 * "this page" as the export panel names it: `this page (50 rows)` as served, else
 * `this page as shown (9 of 50 rows, searched "USDT", by amount ↓)`.
 */
export function pageAsShown(shown: number, rows: number, searched: string, sort: PageSort): string {
  const sorted = sortText(sort);
  if (searched === '' && sorted === '') return `this page (${rows} ${rows === 1 ? 'row' : 'rows'})`;
  const parts = [searched === '' ? `${grouped(shown)} ${shown === 1 ? 'row' : 'rows'}` : `${grouped(shown)} of ${grouped(rows)} rows`];
  if (searched !== '') parts.push(`searched "${sanitize(searched, 40)}"`);
  if (sorted !== '') parts.push(`by ${sorted}`);
  return `this page as shown (${parts.join(', ')})`;
}
