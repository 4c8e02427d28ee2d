// The transfers table's text, without React: its columns for a width, the filter and the page totals in words,
// and what `/` searches. Everything from the service is sanitised here.
import type { Transfer, TransferQuery } from '../api/types';
import { formatLocalTime as localTime } from '../api/timeInput';
import { COUNTED_STATUS, type AssetTotals } from '../export/totals';
import { grouped, sanitize } from '../terminal/text';
import type { TableColumn } from './components/WindowedTable';

/** The filter in one line; account names and the client id were typed (or came back) and are sanitised. */
export function describeFilter(query: TransferQuery): string {
  // A sub-account's side alone when the other is the master: the name stays in view at 40 columns.
  const sides = [query.fromAccount ? `from ${sanitize(query.fromAccount, 80)}` : '', query.toAccount ? `to ${sanitize(query.toAccount, 80)}` : ''].filter(
    (side) => side !== '',
  );
  const parts = [`${sanitize(query.fromAccountType, 40)} → ${sanitize(query.toAccountType, 40)}`, ...(sides.length > 0 ? sides : ['from master', 'to master'])];
  if (query.startTime !== undefined) parts.push(`since ${localTime(query.startTime)}`);
  if (query.endTime !== undefined) parts.push(`until ${localTime(query.endTime)}`);
  if (query.clientTranId) parts.push(`client id ${sanitize(query.clientTranId, 40)}`);
  return parts.join(' · ');
}

/** A transfer's text as the table shows it, every column whole and sanitised: what `/` searches. */
export function transferSearchText(t: Transfer): string {
  return [localTime(t.timestamp), routeText(t), typesText(t), t.asset, t.amount, t.status].map((v) => sanitize(v)).join('\n');
}

/** The route cell ("master → desk-1"), as the table shows it and `/` searches it. */
const routeText = (t: Transfer): string => `${t.fromAccount || 'master'} → ${t.toAccount || 'master'}`;
/** The types cell ("SPOT→FUTURE"). */
const typesText = (t: Transfer): string => `${t.fromAccountType}→${t.toAccountType}`;

/**
 * Column widths from the terminal width alone (stable bounds, not the page's content), so they do not jump from
 * page to page. An amount or status longer than its column is cut with "…"; the detail (enter) shows it whole.
 */
export function transferColumns(width: number): TableColumn<Transfer>[] {
  type Spec = TableColumn<Transfer> & { flexible?: boolean };
  const time: Spec = { title: 'TIME', width: 16, cell: (t) => localTime(t.timestamp) };
  const shortTime: Spec = { title: 'TIME', width: 11, cell: (t) => localTime(t.timestamp).slice(5) };
  const route: Spec = { title: 'FROM → TO', width: 0, flexible: true, cell: routeText };
  const types: Spec = { title: 'TYPES', width: 11, cell: typesText };
  const asset = (w: number): Spec => ({ title: 'ASSET', width: w, cell: (t) => t.asset });
  const amount = (w: number): Spec => ({ title: 'AMOUNT', width: w, align: 'right', cell: (t) => t.amount });
  const status = (w: number): Spec => ({ title: 'STATUS', width: w, cell: (t) => t.status });
  const specs: Spec[] =
    width >= 100
      ? [time, route, types, asset(8), amount(20), status(11)]
      : width >= 80
        ? [time, route, types, asset(6), amount(16), status(10)]
        : // Below 80 columns the types go (the filter line names them).
          width >= 60
          ? [time, route, asset(6), amount(14), status(10)]
          : [shortTime, route, asset(5), amount(Math.max(6, Math.min(12, width - 28))), status(7)];
  // The row: a 2-cell marker, the cells, one space between cells.
  const fixed = specs.reduce((sum, c) => sum + (c.flexible ? 0 : c.width), 0);
  const spare = width - 2 - fixed - (specs.length - 1);
  // The accounts take what is left (within bounds); with too little room they go (the filter line names
  // them, the detail shows them) and the amount gets the room instead.
  const columns =
    spare >= 12
      ? specs.map((c) => (c.flexible ? { ...c, width: Math.min(64, spare) } : c))
      : specs.filter((c) => !c.flexible).map((c) => (c.title === 'AMOUNT' && spare > 0 ? { ...c, width: Math.min(24, c.width + spare + 1) } : c));
  return columns.map(({ flexible: _, ...c }) => c);
}

/** The rows a `/` search left of the page: the text searched and the page's row count. */
interface SearchedSubset {
  text: string;
  of: number;
}

/** The page totals in words: which rows (a search's subset says so), which status they count and what they leave out. */
export function totalsText(totals: AssetTotals, rows: number, searched?: SearchedSubset): string {
  const sums = totals.entries().map(([asset, sum]) => `${sanitize(asset, 24)} ${sanitize(sum, 40)}`);
  const subset = searched ? ` of the rows searched "${sanitize(searched.text, 40)}" (${grouped(rows)} of ${grouped(searched.of)})` : '';
  const head = `Page totals${subset}, ${COUNTED_STATUS} only (${grouped(totals.counted)} of ${grouped(rows)} rows): ${sums.length > 0 ? sums.join(' · ') : 'nothing'}`;
  const left = totals.notCounted();
  const skipped = totals.notCountedRows;
  const named = left.slice(0, 3).map(([status, n]) => `${n} ${sanitize(status, 24)}`);
  const more = left.length > 3 ? `, ${left.length - 3} more statuses` : '';
  const notCounted = skipped > 0 ? ` · not counted: ${named.join(', ')}${more}` : '';
  const unparsable = totals.unparsable > 0 ? ` · ${totals.unparsable} amounts not decimal, left out` : '';
  return head + notCounted + unparsable;
}
