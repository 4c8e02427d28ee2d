// `transfers --summary`: every page of the filter from --page on (--limit a page, paced as --all is), summed per
// asset, per status and per day (src/export/summary.ts), printed once the last page came, as a table, JSON
// or CSV. A failure prints nothing on stdout: a summary of some pages would read as the whole.
import type { TransferQuery } from '../api/types';
import { SummaryBuilder, type TransferSummary } from '../export/summary';
import { summarizePages } from '../export/summaryPages';
import { PagingStopped } from '../export/transferPages';
import { grouped, plural, sanitizeDeep, toJson } from '../terminal/sanitize';
import { type CommandContext, EXIT, type ExitCode, closeQuietly, connect, printLines, reportFailure, stdoutIsTerminal } from './context';
import { type Column, OutputSink, formatTable } from './output';
import { csvDocument } from '../format/csv';

type SummaryFormat = 'table' | 'json' | 'csv';

/** The JSON document: the pages read, then the summary (docs/commands.md, "transfers --summary"). */
export interface SummaryDocument extends TransferSummary {
  pages: number;
}

/** The CSV columns: one table of rows of four kinds (asset, asset-status, status, day). */
export const SUMMARY_CSV_HEADER = ['kind', 'day', 'asset', 'status', 'count', 'sum'] as const;

export async function runTransferSummary(query: TransferQuery, options: { format: SummaryFormat; maxPages?: number }, ctx: CommandContext): Promise<ExitCode> {
  const api = await connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  const builder = new SummaryBuilder();
  const firstPage = query.page ?? 1;
  let read = { pages: 0, rows: 0 };
  try {
    const done = await summarizePages(api, query, builder, {
      maxPages: options.maxPages,
      now: ctx.now,
      onPage: (progress) => {
        read = progress;
        if (ctx.stderrIsTTY) printLines(ctx.stderr, [`page ${firstPage + progress.pages - 1}: ${grouped(progress.rows)} rows so far`]);
      },
    });
    const document: SummaryDocument = { pages: done.pages, ...builder.result({ startTime: query.startTime, endTime: query.endTime, now: ctx.now() }) };
    const terminal = stdoutIsTerminal(ctx);
    await out.write(
      options.format === 'json'
        ? `${toJson(terminal ? sanitizeDeep(document) : document, 2)}\n`
        : options.format === 'csv'
          ? summaryCsv(document, terminal)
          : await summaryTable(document),
    );
    return EXIT.ok;
  } catch (error) {
    const context = read.pages > 0 ? ` (after ${plural(read.pages, 'page')}, ${grouped(read.rows)} rows read; nothing printed)` : '';
    if (error instanceof PagingStopped && error.reason === 'max-pages') {
      return reportFailure(
        ctx,
        new Error(
          `stopped after ${grouped(error.pages)} pages (--max-pages ${error.maxPages}): every page was full, so there may be more; narrow --start/--end or raise --max-pages`,
        ),
        context,
      );
    }
    return reportFailure(ctx, error, context);
  } finally {
    out.release();
    await closeQuietly(api);
  }
}

/** Three tables (per asset, per status, per day), every cell sanitised by formatTable. */
export async function summaryTable(s: SummaryDocument): Promise<string> {
  const head = `summary of ${plural(s.rows, 'transfer')} (${plural(s.pages, 'page')}) · volume: ${s.volumeStatus} only · days in ${s.timeZone}\n`;
  if (s.rows === 0 && s.days.length === 0) return `${head}no transfers match\n`;
  const assetColumns: Column[] = [
    { header: 'asset' },
    { header: 'transfers', align: 'right' },
    { header: `volume (${s.volumeStatus})`, align: 'right' },
    { header: 'by status' },
  ];
  const assets = s.assets.map((a) => [a.asset, grouped(a.count), a.volume, a.statuses.map((x) => `${grouped(x.count)} ${x.status}`).join(', ')]);
  const statusColumns: Column[] = [{ header: 'status' }, { header: 'transfers', align: 'right' }];
  const statuses = s.statuses.map((x) => [x.status, grouped(x.count)]);
  const dayColumns: Column[] = [
    { header: 'day' },
    { header: 'asset' },
    { header: 'transfers', align: 'right' },
    { header: `volume (${s.volumeStatus})`, align: 'right' },
  ];
  // A day with several assets takes a line for each, the day written on the first; a day without transfers shows 0.
  const days = s.days.flatMap((d) =>
    d.assets.length === 0 ? [[d.day, '-', '0', '']] : d.assets.map((a, i) => [i === 0 ? d.day : '', a.asset, grouped(a.count), a.volume]),
  );
  const parts = [head];
  if (s.assets.length > 0) parts.push('\n', await formatTable(assetColumns, assets), '\n', await formatTable(statusColumns, statuses));
  parts.push('\n', await formatTable(dayColumns, days));
  if (s.unparsable > 0) parts.push(`\n${plural(s.unparsable, 'amount')} were not decimals: counted, but in no sum\n`);
  return parts.join('');
}

/** One CSV table: `asset` rows (count, SUCCESS volume), `asset-status` rows (count, sum of that status), `status` rows (count), `day` rows (per asset: count, SUCCESS volume; a day without transfers: one row, count 0). */
function summaryCsv(s: SummaryDocument, terminal = false): string {
  const rows: string[][] = [];
  for (const a of s.assets) {
    rows.push(['asset', '', a.asset, '', String(a.count), a.volume]);
    for (const x of a.statuses) rows.push(['asset-status', '', a.asset, x.status, String(x.count), x.sum]);
  }
  for (const x of s.statuses) rows.push(['status', '', '', x.status, String(x.count), '']);
  for (const d of s.days) {
    if (d.assets.length === 0) rows.push(['day', d.day, '', '', '0', '']);
    for (const a of d.assets) rows.push(['day', d.day, a.asset, '', String(a.count), a.volume]);
  }
  return csvDocument(SUMMARY_CSV_HEADER, rows, { terminal, numeric: ['count', 'sum'] });
}
