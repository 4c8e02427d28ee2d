// `sub-accounts [--discover] [--days N] [--sub A,B] [--format table|json|csv] [--json]`: the sub-accounts
// remembered for the target (found in transfer history, src/config/discoveredSubAccounts.ts), most recently
// active first. With --discover the transfer history of the last N days is scanned first (src/export/
// subAccountScan.ts), for the names already known (recent, remembered) and those given with --sub; progress
// goes to stderr when it is a terminal. The JSON and CSV shapes are a contract (docs/commands.md; test/commands/subAccounts.test.ts).
import { NO_NAME_IN_LIST, checkSubAccount, type FieldError } from '../api/validation';
import { type DiscoveredSubAccount, type DiscoveredSubAccounts, memoryDiscoveredSubAccounts, openDiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import { openRecentSubAccounts } from '../config/recentSubAccounts';
import { DEFAULT_SCAN_DAYS, ScanFailed, type ScanProgress, checkScanDays, discoverSubAccounts } from '../export/subAccountScan';
import { grouped, plural, sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';
import {
  type CommandContext,
  EXIT,
  type ExitCode,
  closeQuietly,
  connectTarget,
  contextFolder,
  printLines,
  reportFailure,
  reportInvalid,
  reportUsage,
  stdoutIsTerminal,
} from './context';
import { type Column, OutputSink, chooseFormat, formatTable } from './output';
import { formatLocalTime } from '../api/timeInput';
import { csvDocument } from '../format/csv';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { type CommandHost, examples, prose, type OptionsOf } from './define';
import { DEMO_SEED } from './demoRun';
import { demoSubAccountNames } from '../sandbox/seedAccounts';

/** The command's flags (its options' type is read from them: see OptionsOf). */
const subAccountsFlags = (command: Command) =>
  command
    .option('--discover', 'scan the transfer history of the last --days days first (paced by the rate limit)')
    .option('--days <n>', 'with --discover: days back, 1..365 (default 30)')
    .option('--sub <names>', 'with --discover: comma-separated names to ask for, besides the recent and remembered ones')
    .option('-o, --format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json');

type SubAccountsOptions = OptionsOf<typeof subAccountsFlags>;

/** One sub-account as `--format json` prints it (lastTransferTime: Unix ms of the latest transfer seen). */
interface SubAccountJson {
  name: string;
  lastTransferTime: number;
}

export const SUB_ACCOUNT_CSV_COLUMNS = ['name', 'lastTransferTime'] as const;

const COLUMNS: readonly Column[] = [{ header: 'name' }, { header: 'last transfer' }];

/** Progress lines on a terminal: at most one a second, and each wait for the rate limit. */
const PROGRESS_EVERY_MS = 1000;

export async function runSubAccounts(options: SubAccountsOptions, ctx: CommandContext): Promise<ExitCode> {
  const chosen = chooseFormat(options);
  if (!chosen.ok) return reportUsage(ctx, chosen.message);
  if (!options.discover && (options.days !== undefined || options.sub !== undefined)) {
    return reportUsage(
      ctx,
      `${options.days !== undefined ? '--days' : '--sub'} goes with --discover (a scan); without it the remembered sub-accounts are listed`,
    );
  }
  const days = checkScanDays(options.days ?? String(DEFAULT_SCAN_DAYS));
  if (!days.ok) return reportUsage(ctx, `--${days.message}`);
  const given: string[] = [];
  const invalid: FieldError[] = [];
  // As keys audit reads --sub: blank pieces between commas are skipped, a list of none is named as such.
  const pieces = options.sub === undefined ? [] : options.sub.split(',').filter((p) => p.trim() !== '');
  if (options.sub !== undefined && pieces.length === 0) invalid.push({ field: 'subAccount', message: NO_NAME_IN_LIST });
  for (const raw of pieces) {
    const name = checkSubAccount(raw);
    if (name.ok) given.push(name.value);
    else invalid.push(name.error);
  }
  if (invalid.length > 0) return reportInvalid(ctx, invalid);

  const connected = await connectTarget(ctx);
  if (!connected) return EXIT.usage;
  const { api, baseUrl } = connected;
  const folder = contextFolder(ctx);
  const out = new OutputSink(ctx.stdout);
  // A signal stops the scan, which keeps what it found; the process ends once that is said and written.
  const interrupt = new AbortController();
  const scanDays = days.value;
  const format = chosen.format;
  let finished: (code: ExitCode) => void = () => undefined;
  const ended = new Promise<ExitCode>((resolve) => (finished = resolve));
  const stopSignals = options.discover ? ctx.onInterrupt?.(() => (interrupt.abort(), ended)) : undefined;
  let code: ExitCode = EXIT.failure;
  try {
    code = await listOrScan();
    return code;
  } finally {
    out.release();
    await closeQuietly(api);
    stopSignals?.();
    finished(code);
  }

  async function listOrScan(): Promise<ExitCode> {
    try {
      let store: DiscoveredSubAccounts;
      try {
        store = await openDiscoveredSubAccounts(folder, baseUrl);
      } catch {
        store = memoryDiscoveredSubAccounts();
      }
      if (options.discover) {
        const recent = await openRecentSubAccounts(folder, baseUrl).then(
          (r) => r.list(),
          () => [],
        );
        // The demo's names are known to it, as the console's picker lists them.
        const demo = ctx.demo === true ? demoSubAccountNames(DEMO_SEED) : [];
        const names = [...new Set([...given, ...recent, ...store.list().map((d) => d.name), ...demo])];
        const scanned = await scan(ctx, api, store, names, scanDays, interrupt);
        if (scanned !== EXIT.ok) return scanned;
      }
      await out.write(await render(store.list(), format, stdoutIsTerminal(ctx), options.discover === true));
      return EXIT.ok;
    } catch (error) {
      return reportFailure(ctx, error);
    }
  }
}

async function scan(
  ctx: CommandContext,
  api: Parameters<typeof discoverSubAccounts>[0],
  store: DiscoveredSubAccounts,
  names: string[],
  days: number,
  controller: AbortController,
): Promise<ExitCode> {
  let lastLine = 0;
  const onProgress = (p: ScanProgress): void => {
    if (!ctx.stderrIsTTY) return;
    const at = ctx.now();
    if (p.waitingMs > 0)
      return printLines(ctx.stderr, [
        `query ${grouped(Math.min(p.done + 1, p.queries))} of ${grouped(p.queries)}: waiting ${(p.waitingMs / 1000).toFixed(1)} s for the rate limit…`,
      ]);
    if (at - lastLine < PROGRESS_EVERY_MS) return;
    lastLine = at;
    printLines(ctx.stderr, [
      `query ${grouped(Math.min(p.done + 1, p.queries))} of ${grouped(p.queries)}: ${grouped(p.pages)} pages, ${grouped(p.transfers)} transfers, ${grouped(p.found)} sub-accounts found so far`,
    ]);
  };
  if (ctx.stderrIsTTY) printLines(ctx.stderr, [`scanning ${plural(days, 'day')} of transfers for master↔master and ${plural(names.length, 'known name')}…`]);
  // Ctrl-C stops the scan and keeps what it found (a second one ends the process at once). In-process, with no
  // onInterrupt, the scan listens for SIGINT itself.
  const interrupt = (): void => controller.abort();
  if (!ctx.onInterrupt) process.once('SIGINT', interrupt);
  try {
    const result = await discoverSubAccounts(api, store, { days, now: ctx.now(), names, onProgress, signal: controller.signal });
    if (result.cancelled) {
      const n = result.found.length;
      printLines(ctx.stderr, [
        `interrupted: ${plural(n, 'sub-account')} found so far ${result.remembered ? `${n === 1 ? 'was' : 'were'} remembered (\`sub-accounts\` lists them)` : 'could not be remembered'}`,
      ]);
      return EXIT.interrupted;
    }
    if (!result.remembered) printLines(ctx.stderr, ['warning: could not write the discovered sub-accounts to the config folder; listed, not remembered']);
    if (result.stoppedEarly > 0)
      printLines(ctx.stderr, [
        `warning: ${result.stoppedEarly} quer${result.stoppedEarly === 1 ? 'y' : 'ies'} stopped paging early (the service repeated a page, or there were too many); their first pages counted`,
      ]);
    if (result.refused.length > 0)
      printLines(ctx.stderr, [
        `note: the service refused ${plural(result.refused.length, 'name')} (unknown or frozen), skipped: ${result.refused.map((n) => sanitize(n)).join(', ')}`,
      ]);
    if (ctx.stderrIsTTY) printLines(ctx.stderr, [`found ${plural(result.found.length, 'sub-account')} in ${grouped(result.progress.pages)} pages`]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ScanFailed) {
      const code = reportFailure(ctx, error.cause);
      printLines(ctx.stderr, [`${plural(error.partial.found.length, 'sub-account')} found before the failure were remembered`]);
      return code;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}

async function render(list: readonly DiscoveredSubAccount[], format: 'table' | 'json' | 'csv', terminal: boolean, scanned: boolean): Promise<string> {
  if (format === 'json') {
    const records: SubAccountJson[] = list.map(({ name, lastTransferTime }) => ({ name, lastTransferTime }));
    return `${toJson(terminal ? sanitizeDeep(records) : records, 2)}\n`;
  }
  if (format === 'csv') {
    return csvDocument(
      SUB_ACCOUNT_CSV_COLUMNS,
      list.map((d) => [d.name, String(d.lastTransferTime)]),
      { terminal, numeric: ['lastTransferTime'] },
    );
  }
  if (list.length === 0) {
    return scanned
      ? 'no sub-accounts found: the service lists transfers only of the accounts asked for; give names with --sub\n'
      : 'no sub-accounts remembered yet: run `broker-console sub-accounts --discover`\n';
  }
  return formatTable(
    COLUMNS,
    list.map((d) => [d.name, formatLocalTime(d.lastTransferTime)]),
  );
}

export function defineSubAccounts(program: Command, host: CommandHost): CommandUnknownOpts {
  return subAccountsFlags(
    program.command('sub-accounts').description('sub-accounts found in transfer history (remembered per base URL); --discover scans for them first'),
  )
    .addHelpText(
      'after',
      prose(
        '\nThe operations this tool calls list no sub-accounts, and transfers only of the accounts a query names (blank:\n' +
          'the master). A scan asks, in each account-type pair, for master→master and for master↔each known name; names\n' +
          'in the answers are remembered with their last transfer. Progress goes to stderr when it is a terminal.',
      ),
    )
    .addHelpText('after', examples('sub-accounts', 'sub-accounts --discover --days 90'))
    .action(async (options) => {
      host.exit(await runSubAccounts(options, host.context()));
    });
}
