// `keys list --sub NAME [--json]`: the API keys of one sub-account, as a table or a JSON array.
import type { SubAccountKey } from '../api/types';
import { checkSubAccount } from '../api/validation';
import { sanitize, sanitizeDeep, toJson } from '../terminal/text';
import { type CommandContext, EXIT, type ExitCode, closeQuietly, connect, reportFailure, reportInvalid, stdoutIsTerminal } from './context';
import { type Column, OutputSink, formatLocalTime, formatTable } from './output';

export interface KeysListOptions {
  sub?: string;
  json?: boolean;
}

const COLUMNS: readonly Column[] = [
  { header: 'note' },
  { header: 'apiKey' },
  { header: 'permissions' },
  { header: 'ips' },
  { header: 'created' },
];

/** The keys as a table for a terminal: every cell sanitised, columns aligned by display width. */
export function keysTable(keys: readonly SubAccountKey[]): string {
  return formatTable(
    COLUMNS,
    keys.map((k) => [k.note, k.apiKey, k.permissions.join(','), k.ips.length > 0 ? k.ips.join(',') : '-', formatLocalTime(k.createdAt)]),
  );
}

export async function runKeysList(options: KeysListOptions, ctx: CommandContext): Promise<ExitCode> {
  const sub = checkSubAccount(options.sub ?? '');
  if (!sub.ok) return reportInvalid(ctx, [sub.error]);
  const api = await connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  try {
    const keys = await api.listSubAccountKeys(sub.value);
    // JSON keeps the data exact (controls escaped as \u); on a terminal it is sanitised like the table.
    if (options.json) await out.write(`${toJson(stdoutIsTerminal(ctx) ? sanitizeDeep(keys) : keys, 2)}\n`);
    else if (keys.length === 0) await out.write(`no API keys for ${sanitize(sub.value)}\n`);
    else await out.write(keysTable(keys));
    return EXIT.ok;
  } catch (error) {
    return reportFailure(ctx, error);
  } finally {
    out.release();
    await closeQuietly(api);
  }
}
