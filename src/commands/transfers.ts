// `transfers --from-type T --to-type T [filters] [--page N] [--limit N] [--all] [--format table|json|csv]`.
// Rows are streamed as each page arrives, a page written in blocks (one write per page or per 64 KiB, each
// awaiting 'drain') while the next page is fetched: nothing holds more than two pages.
import { DEFAULT_PAGE_SIZE, type Transfer } from '../api/types';
import { validateTransferQuery } from '../api/validation';
import { AssetTotals, COUNTED_STATUS } from '../export/totals';
import { MAX_MAX_PAGES, MAX_TRANSFERS, type PageVisit, PagingStopped, defaultMaxPages, forEachTransferPage } from '../export/transferPages';
import { RequestTally } from '../export/requestTally';
import { type RowWriter, type TextSink, csvWriter, jsonWriter, writeInBlocks } from '../export/transferWriters';
import { grouped, plural, sanitize } from '../terminal/sanitize';
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
  stdoutIsTerminal,
} from './context';
import { signalExitCode } from '../terminal/signals';
import { type Column, OutputClosedError, OutputSink, chooseFormat, measureFor, pad, tableLine } from './output';
import { formatLocalTime } from '../api/timeInput';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { runTransferSummary } from './transferSummary';
import { type CommandHost, examples, prose, type OptionsOf } from './define';

type TransferFormat = 'table' | 'json' | 'csv';
const TRANSFER_FORMATS: readonly TransferFormat[] = ['table', 'json', 'csv'];

/** The command's flags (its options' type is read from them: see OptionsOf). */
const transfersFlags = (command: Command) =>
  command
    .option('--from-type <type>', 'source account type, e.g. SPOT')
    .option('--to-type <type>', 'destination account type, e.g. FUTURES')
    .option('--from-account <account>', 'source account (default: the master account)')
    .option('--to-account <account>', 'destination account (default: the master account)')
    .option('--start <time>', 'from: 2026-11-01, 2026-11-01T12:00, epoch ms, now, 7d (ago)…')
    .option('--end <time>', 'until (same forms as --start)')
    .option('--client-tran-id <id>', '32 letters and digits')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'rows per page, 1..500 (default 500)')
    .option('--all', 'every page from --page on, streamed as each arrives')
    .option('--summary', 'every page from --page on (--limit a page), summed per asset, status and day')
    .option(
      '--max-pages <n>',
      `with --all or --summary: fetch at most N pages (default ${defaultMaxPages()} at 500 a page: room for ${grouped(MAX_TRANSFERS)} transfers)`,
    )
    .option('-o, --format <format>', 'table, json or csv (default: table)')
    .option('--json', 'short for --format json');

type TransfersOptions = OptionsOf<typeof transfersFlags>;

/**
 * Fixed widths (terminal cells) so the table can be printed page by page; a longer value pushes its row,
 * never gets cut (short of the sanitiser's field limit). Every cell is sanitised by tableLine.
 */
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

export function transferTableLine(t: Transfer): Promise<string> {
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

interface Summary {
  pages: number;
  lastPage: number;
  /** The last page that arrived was shorter than the limit: there are no more. */
  short: boolean;
  all: boolean;
}

/** How rows reach stdout, a page at a time; end runs once after the last page that arrived (never after a failure). */
interface TransferOutput {
  rows(batch: readonly Transfer[]): Promise<void>;
  end(summary: Summary): Promise<void>;
}

export function tableWriter(write: TextSink): TransferOutput {
  let count = 0;
  // Only SUCCESS moved money: the totals count it alone, and say so (as the console's page totals do).
  const totals = new AssetTotals(COUNTED_STATUS);
  const line = async (t: Transfer): Promise<string> => {
    totals.add(t);
    count += 1;
    return `${await transferTableLine(t)}\n`;
  };
  return {
    async rows(batch) {
      const header =
        count === 0 && batch.length > 0
          ? `${await tableLine(
              TABLE_COLUMNS,
              TABLE_COLUMNS.map((c) => c.header),
              TABLE_WIDTHS,
            )}\n`
          : '';
      await writeInBlocks(write, await Promise.all(batch.map(line)), (text) => text, header);
    },
    async end({ pages, lastPage, short, all }) {
      if (count === 0) {
        await write(all || lastPage === 1 ? 'no transfers match\n' : `no transfers on page ${lastPage}\n`);
        return;
      }
      const counted = `${COUNTED_STATUS} only, ${grouped(totals.counted)} of ${grouped(count)} rows`;
      const lines = ['', all ? `totals, ${counted} (${grouped(pages)} pages):` : `totals of page ${lastPage}, ${counted}:`];
      const entries = totals.entries();
      const assets = entries.map(([asset, sum]) => [sanitize(asset), sum] as const);
      const measure = await measureFor(assets.map(([asset]) => asset));
      const width = Math.max(0, ...assets.map(([asset]) => measure(asset)));
      for (const [asset, sum] of assets) lines.push(`  ${await pad(asset, width)}  ${sum}`);
      if (entries.length === 0) lines.push('  nothing');
      const left = totals.notCounted();
      if (left.length > 0) lines.push(`  not counted: ${left.map(([status, n]) => `${grouped(n)} ${sanitize(status, 40)}`).join(', ')}`);
      if (totals.unparsable > 0) lines.push(`  (${grouped(totals.unparsable)} amounts were not decimals and are left out)`);
      if (!all) lines.push(short ? 'no more pages' : `more pages: --page ${lastPage + 1}, or --all for every page`);
      await write(`${lines.join('\n')}\n`);
    },
  };
}

function plain(writer: RowWriter): TransferOutput {
  return { rows: (batch) => writer.rows(batch), end: () => writer.end() };
}

/** How long a signal waits for the JSON's closing to be taken by a stdout that may take nothing. */
const CLOSING_WAIT_MS = 1000;

export async function runTransfers(given: TransfersOptions, ctx: CommandContext): Promise<ExitCode> {
  // --json is short for --format json (the same rule as the other commands: not with another --format).
  const chosen = given.json === true ? chooseFormat({ format: given.format, json: true }) : undefined;
  if (chosen && !chosen.ok) return reportUsage(ctx, chosen.message);
  const options = chosen?.ok ? { ...given, format: chosen.format } : given;
  const format = (options.format ?? 'table').trim().toLowerCase();
  const badFormat = !(TRANSFER_FORMATS as readonly string[]).includes(format);
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
  if (!checked.ok) reportInvalid(ctx, checked.errors);
  if (badFormat) reportUsage(ctx, `--format: must be table, json or csv (got '${sanitize(options.format ?? '', 40)}')`);
  const maxPages = checkMaxPages(options);
  if (!maxPages.ok) reportUsage(ctx, maxPages.message);
  const both = options.summary === true && options.all === true;
  if (both) reportUsage(ctx, '--summary reads every page from --page on by itself; --all streams the rows: give one of them');
  if (!checked.ok || badFormat || !maxPages.ok || both) return EXIT.usage;
  if (options.summary === true) return runTransferSummary(checked.value, { format: format as TransferFormat, maxPages: maxPages.value }, ctx);

  const api = await connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  // Sealed once a signal has closed the document: a block still on its way after that is dropped.
  let sealed = false;
  const write: TextSink = (text) => (sealed ? Promise.resolve() : out.write(text));
  // CSV and JSON keep the data exact for a file or a pipe; on a terminal they are sanitised like the table.
  const terminal = { terminal: stdoutIsTerminal(ctx) };
  const output: TransferOutput = format === 'table' ? tableWriter(write) : plain(format === 'csv' ? csvWriter(write, terminal) : jsonWriter(write, terminal));
  const all = options.all === true;
  const query = checked.value;
  const summary: Summary = { pages: 0, lastPage: query.page ?? 1, short: false, all };
  let rows = 0;
  const written = (): string => ` (after ${plural(summary.pages, 'page')}, ${grouped(rows)} rows written)`;
  // Stopped by a signal mid-stream: what came is said, so a partial file is not taken for the whole history.
  const stopSignals = all
    ? ctx.onInterrupt?.(async (signal) => {
        printLines(ctx.stderr, [`error: ${signal}: stopped${written()}; the output is incomplete`]);
        // What was written stays a JSON document (the array closed), unless stdout will not take even that.
        if (format === 'json') {
          const closing = output.end(summary).catch(() => undefined);
          sealed = true;
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([closing, new Promise((resolve) => (timer = setTimeout(resolve, CLOSING_WAIT_MS)))]);
          clearTimeout(timer);
        }
        await api.cutShort();
        // 128 + the signal's number, as the console and the shell say it: 130 for SIGINT, 143 for SIGTERM.
        return signalExitCode(signal);
      })
    : undefined;
  const visit = async ({ page, rows: batch, last }: PageVisit): Promise<void> => {
    if (ctx.stderrIsTTY) printLines(ctx.stderr, [`page ${page}: ${grouped(batch.length)} rows`]);
    await output.rows(batch);
    summary.pages += 1;
    summary.lastPage = page;
    summary.short = last;
    rows += batch.length;
  };
  try {
    if (all) {
      // Ends at a short page, at a page repeating any earlier one, or after --max-pages (PagingStopped).
      // A wait of a second or more for the service's budget is said on a terminal: the page lines stand still meanwhile.
      const tally = new RequestTally({
        onWait: (ms) => {
          if (ctx.stderrIsTTY && ms >= 1000) printLines(ctx.stderr, [`waiting for the rate limit (${(ms / 1000).toFixed(1)} s)…`]);
        },
      });
      await forEachTransferPage(api, query, visit, { maxPages: maxPages.value, tally });
    } else {
      // One page: send only what was given (the service defaults page 1, limit 500).
      const batch = await api.listUniversalTransfers(query);
      await visit({ page: query.page ?? 1, rows: batch, last: batch.length < (query.limit ?? DEFAULT_PAGE_SIZE) });
    }
    await output.end(summary);
    return EXIT.ok;
  } catch (error) {
    const { pages } = summary;
    const context = pages > 0 ? written() : '';
    // Stopped between pages: a JSON document is closed, so what was written reads as the array it is.
    if (format === 'json' && pages > 0 && !(error instanceof OutputClosedError)) await output.end(summary).catch(() => undefined);
    if (error instanceof PagingStopped && error.reason === 'max-pages') {
      const hint = `stopped after ${grouped(error.pages)} pages (--max-pages ${error.maxPages}): every page was full, so there may be more; narrow --start/--end or raise --max-pages`;
      return reportFailure(ctx, new Error(hint), context);
    }
    return reportFailure(ctx, error, context);
  } finally {
    stopSignals?.();
    out.release();
    await closeQuietly(api);
  }
}

/** --max-pages N: a whole number from 1 to MAX_MAX_PAGES, only with --all; undefined: the default. */
function checkMaxPages(options: TransfersOptions): { ok: true; value: number | undefined } | { ok: false; message: string } {
  const raw = options.maxPages;
  if (raw === undefined) return { ok: true, value: undefined };
  const text = raw.trim();
  const value = Number(text);
  if (!/^\d{1,7}$/.test(text) || value < 1 || value > MAX_MAX_PAGES) {
    return { ok: false, message: `--max-pages: must be a whole number from 1 to ${MAX_MAX_PAGES} (got '${sanitize(raw, 40)}')` };
  }
  if (options.all !== true && options.summary !== true) return { ok: false, message: '--max-pages applies to --all and --summary only' };
  return { ok: true, value };
}

export function defineTransfers(program: Command, host: CommandHost): CommandUnknownOpts {
  return transfersFlags(program.command('transfers').description('universal transfer history'))
    .addHelpText(
      'after',
      prose(
        '\nTimes: 2026-11-01 (local midnight), 2026-11-01T12:00 or "2026-11-01 12:00[:ss]" (local unless Z/+hh:mm),\n' +
          'epoch milliseconds, now, or 30m / 24h / 7d / 2w before now.\n' +
          'Rows are streamed page by page: csv (RFC 4180, header once, amounts exactly as sent), json (one array),\n' +
          'table (with per-asset totals). Progress goes to stderr when it is a terminal.\n' +
          '--all ends at the first page shorter than --limit. It stops with exit 1 when a page repeats transfers of any\n' +
          'earlier page (rows that transfers arriving meanwhile pushed down a page are skipped, not a repeat),\n' +
          `or after --max-pages full pages (default ${grouped(MAX_TRANSFERS)} / limit: ${defaultMaxPages()} pages of 500,\n` +
          `${defaultMaxPages(100)} of 100); rows already written stay written and the error says how many.\n` +
          '--summary prints, once the last page came, per asset (transfers, SUCCESS volume), per status and per local day\n' +
          '(days without transfers included); it fails with nothing on stdout when a page fails.',
      ),
    )
    .addHelpText(
      'after',
      examples(
        'transfers --from-type SPOT --to-type FUTURES --start 7d --all --format csv > week.csv',
        'transfers --from-type SPOT --to-type FUTURES --start 30d --summary',
      ),
    )
    .action(async (options) => {
      host.exit(await runTransfers(options, host.context()));
    });
}
