// `keys list --sub NAME [--format table|json|csv] [--json]`: the API keys of one sub-account, as a table, a JSON
// array or CSV. The JSON and CSV shapes are a contract (docs/commands.md "Output formats"; pinned by test/commands/formats.test.ts).
import type { ServiceTime, SubAccountKey } from '../api/types';
import { checkSubAccount } from '../api/validation';
import { sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';
import { type CommandContext, EXIT, type ExitCode, closeQuietly, connect, reportFailure, reportInvalid, reportUsage, stdoutIsTerminal } from './context';
import { type Column, OutputSink, chooseFormat, formatTable, tableWidth } from './output';
import { formatLocalTime } from '../api/timeInput';
import { csvDocument } from '../format/csv';
import { ipsText } from '../format/noIp';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { type CommandHost, examples, type OptionsOf } from './define';

/** `keys list`'s flags (its options' type is read from them: see OptionsOf). */
const keysListFlags = (command: Command) =>
  command
    .option('--sub <name>', 'sub-account name')
    .option('-o, --format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json');

type KeysListOptions = OptionsOf<typeof keysListFlags>;

/** One key as `--format json` prints it: these fields, in this order (createdAt: Unix ms). */
interface KeyJson {
  note: string;
  apiKey: string;
  permissions: string[];
  ips: string[];
  /** Unix ms; a time a Date cannot hold is its text, exactly as the service sent it. */
  createdAt: ServiceTime;
}

export function keyJson(k: SubAccountKey): KeyJson {
  return { note: k.note, apiKey: k.apiKey, permissions: [...k.permissions], ips: [...k.ips], createdAt: k.createdAt };
}

/** `--format csv`: these columns; permissions and ips comma-joined in one cell, createdAt in Unix ms. */
const KEY_CSV_COLUMNS = ['note', 'apiKey', 'permissions', 'ips', 'createdAt'] as const;

function keysCsv(keys: readonly SubAccountKey[], terminal: boolean): string {
  return csvDocument(
    KEY_CSV_COLUMNS,
    keys.map((k) => [k.note, k.apiKey, k.permissions.join(','), k.ips.join(','), String(k.createdAt)]),
    { terminal, numeric: ['createdAt'] },
  );
}

const COLUMNS: readonly Column[] = [
  { header: 'note', shrink: true },
  { header: 'apiKey' },
  { header: 'permissions', shrink: true },
  { header: 'ips', shrink: true },
  { header: 'created' },
];

/** The keys as a table for a terminal: every cell sanitised, columns aligned by display width, cut to `width` when given. */
function keysTable(keys: readonly SubAccountKey[], width: number | undefined): Promise<string> {
  return formatTable(
    COLUMNS,
    keys.map((k) => [k.note, k.apiKey, k.permissions.join(','), ipsText(k.ips, ','), formatLocalTime(k.createdAt)]),
    width,
  );
}

export async function runKeysList(options: KeysListOptions, ctx: CommandContext): Promise<ExitCode> {
  const sub = checkSubAccount(options.sub ?? '');
  if (!sub.ok) return reportInvalid(ctx, [sub.error]);
  const chosen = chooseFormat(options);
  if (!chosen.ok) return reportUsage(ctx, chosen.message);
  const api = await connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  try {
    const keys = await api.listSubAccountKeys(sub.value);
    // JSON and CSV keep the data exact (JSON escapes controls as \u); on a terminal they are sanitised like the table.
    const terminal = stdoutIsTerminal(ctx);
    if (chosen.format === 'json') {
      const records = keys.map(keyJson);
      await out.write(`${toJson(terminal ? sanitizeDeep(records) : records, 2)}\n`);
    } else if (chosen.format === 'csv') await out.write(keysCsv(keys, terminal));
    else if (keys.length === 0) await out.write(`no API keys for ${sanitize(sub.value)}\n`);
    else await out.write(await keysTable(keys, tableWidth(ctx.stdout, terminal)));
    return EXIT.ok;
  } catch (error) {
    return reportFailure(ctx, error);
  } finally {
    out.release();
    await closeQuietly(api);
  }
}

/** `keys list`, under `keys`. */
export function defineKeysList(keys: Command, host: CommandHost): CommandUnknownOpts {
  return keysListFlags(keys.command('list').description('list the API keys of a sub-account'))
    .addHelpText('after', examples('keys list --sub gridbot2901', 'keys list --sub gridbot2901 --format csv > keys.csv'))
    .action(async (options) => {
      host.exit(await runKeysList(options, host.context()));
    });
}
