// `transfers --from-type T --to-type T [filters] [--page N] [--limit N] [--all] [--format table|json|csv]`.
// Rows are streamed as each page arrives: nothing holds more than one page, and writes await 'drain'.
import Big from 'big.js';
import { DEFAULT_PAGE_SIZE, type Transfer, type TransferQuery } from '../api/types';
import { validateTransferQuery } from '../api/validation';
import {
  type CommandContext,
  EXIT,
  type ExitCode,
  closeQuietly,
  connect,
  printLines,
  reportFailure,
  reportInvalid,
  reportUsage,
} from './context';
import { type Column, OutputSink, csvRecord, formatLocalTime, pad, tableLine } from './output';

export type TransferFormat = 'table' | 'json' | 'csv';
export const TRANSFER_FORMATS: readonly TransferFormat[] = ['table', 'json', 'csv'];

export interface TransfersOptions {
  fromType?: string;
  toType?: string;
  fromAccount?: string;
  toAccount?: string;
  start?: string;
  end?: string;
  clientTranId?: string;
  page?: string;
  limit?: string;
  all?: boolean;
  format?: string;
}

/** CSV columns: every field of the domain record, in its order; amounts exactly as the service sent them. */
export const CSV_FIELDS = [
  'tranId',
  'fromAccount',
  'toAccount',
  'clientTranId',
  'asset',
  'amount',
  'fromAccountType',
  'toAccountType',
  'fromSymbol',
  'toSymbol',
  'status',
  'timestamp',
] as const satisfies readonly (keyof Transfer)[];

/** Fixed widths so the table can be printed page by page; a longer value pushes its row, never gets cut. */
export const TABLE_COLUMNS: readonly Column[] = [
  { header: 'time', width: 19 },
  { header: 'tranId', width: 20 },
  { header: 'from', width: 7 },
  { header: 'fromAccount', width: 14 },
  { header: 'to', width: 7 },
  { header: 'toAccount', width: 14 },
  { header: 'asset', width: 6 },
  { header: 'amount', width: 20, align: 'right' },
  { header: 'status', width: 10 },
  { header: 'clientTranId', width: 0 },
];
const TABLE_WIDTHS = TABLE_COLUMNS.map((c) => c.width ?? 0);

export function transferTableLine(t: Transfer): string {
  return tableLine(
    TABLE_COLUMNS,
    [
      formatLocalTime(t.timestamp, true),
      t.tranId,
      t.fromAccountType,
      t.fromAccount || '-',
      t.toAccountType,
      t.toAccount || '-',
      t.asset,
      t.amount,
      t.status,
      t.clientTranId || '-',
    ],
    TABLE_WIDTHS,
  );
}

/** Decimal-exact sums per asset (big.js); amounts that are not decimals are counted, not summed. */
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

interface RowWriter {
  row(t: Transfer): Promise<void>;
  /** Called once after the last page that arrived (not after a failure). */
  end(summary: { pages: number; rows: number; lastPage: number; short: boolean; all: boolean }): Promise<void>;
}

function csvWriter(out: OutputSink): RowWriter {
  let started = false;
  const header = async (): Promise<void> => {
    if (!started) await out.write(csvRecord(CSV_FIELDS));
    started = true;
  };
  return {
    async row(t) {
      await header();
      await out.write(csvRecord(CSV_FIELDS.map((f) => String(t[f]))));
    },
    async end() {
      await header();
    },
  };
}

function jsonWriter(out: OutputSink): RowWriter {
  let count = 0;
  return {
    async row(t) {
      await out.write(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(t)}`);
      count += 1;
    },
    async end() {
      await out.write(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

function tableWriter(out: OutputSink): RowWriter {
  let count = 0;
  const totals = new AssetTotals();
  return {
    async row(t) {
      if (count === 0) await out.write(`${tableLine(TABLE_COLUMNS, TABLE_COLUMNS.map((c) => c.header), TABLE_WIDTHS)}\n`);
      await out.write(`${transferTableLine(t)}\n`);
      totals.add(t);
      count += 1;
    },
    async end({ pages, lastPage, short, all }) {
      if (count === 0) {
        await out.write(all || lastPage === 1 ? 'no transfers match\n' : `no transfers on page ${lastPage}\n`);
        return;
      }
      const lines = ['', all ? `totals (${count} rows, ${pages} pages):` : `totals of page ${lastPage} (${count} rows):`];
      const entries = totals.entries();
      const width = Math.max(...entries.map(([asset]) => asset.length));
      for (const [asset, sum] of entries) lines.push(`  ${pad(asset, width)}  ${sum}`);
      if (totals.unparsable > 0) lines.push(`  (${totals.unparsable} amounts were not decimals and are left out)`);
      if (!all) lines.push(short ? 'no more pages' : `more pages: --page ${lastPage + 1}, or --all for every page`);
      await out.write(`${lines.join('\n')}\n`);
    },
  };
}

export async function runTransfers(options: TransfersOptions, ctx: CommandContext): Promise<ExitCode> {
  const format = (options.format ?? 'table').trim().toLowerCase();
  if (!(TRANSFER_FORMATS as readonly string[]).includes(format)) {
    return reportUsage(ctx, `--format: must be table, json or csv (got '${options.format ?? ''}')`);
  }
  const checked = validateTransferQuery(
    {
      fromAccountType: options.fromType ?? '',
      toAccountType: options.toType ?? '',
      fromAccount: options.fromAccount,
      toAccount: options.toAccount,
      start: options.start,
      end: options.end,
      clientTranId: options.clientTranId,
      page: options.page,
      limit: options.limit,
    },
    ctx.now(),
  );
  if (!checked.ok) return reportInvalid(ctx, checked.errors);

  const api = connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  const writer = format === 'csv' ? csvWriter(out) : format === 'json' ? jsonWriter(out) : tableWriter(out);
  const all = options.all === true;
  const limit = checked.value.limit ?? DEFAULT_PAGE_SIZE;
  const firstPage = checked.value.page ?? 1;
  // --all always sends the limit, so "a page shorter than the limit" reliably means the last page.
  const base: TransferQuery = all ? { ...checked.value, limit } : checked.value;
  let page = firstPage;
  let pages = 0;
  let rows = 0;
  try {
    for (;;) {
      const batch = await api.listUniversalTransfers(all ? { ...base, page } : base);
      pages += 1;
      rows += batch.length;
      if (ctx.stderrIsTTY) printLines(ctx.stderr, [`page ${page}: ${batch.length} rows`]);
      for (const transfer of batch) await writer.row(transfer);
      const short = batch.length < limit;
      if (!all || short) {
        await writer.end({ pages, rows, lastPage: page, short, all });
        return EXIT.ok;
      }
      page += 1;
    }
  } catch (error) {
    const context = pages > 0 ? ` (after ${pages} page${pages === 1 ? '' : 's'}, ${rows} rows written)` : '';
    return reportFailure(ctx, error, context);
  } finally {
    out.release();
    await closeQuietly(api);
  }
}
