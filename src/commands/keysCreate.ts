// `keys create --sub NAME --permissions P1,P2 [--ip A,B] --note TEXT [--json]`.
// The created key (secret included) goes to stdout, once; the "shown only once" warning goes to stderr,
// so stdout can be piped straight into a password manager or file of the operator's choosing.
import type { CreatedKey } from '../api/types';
import { validateNewKey } from '../api/validation';
import { sanitize, sanitizeDeep, toJson } from '../terminal/text';
import { type CommandContext, EXIT, type ExitCode, LINE_LIMIT, closeQuietly, connect, printLines, reportFailure, reportInvalid, stdoutIsTerminal } from './context';
import { OutputClosedError, OutputSink, formatLocalTime, pad } from './output';

export interface KeysCreateOptions {
  sub?: string;
  permissions?: string;
  ip?: string;
  note?: string;
  json?: boolean;
}

export const SECRET_WARNING = 'the secret key is shown only this once: store it now, it cannot be retrieved again';

/** One line per field, each value sanitised (what the service sent cannot drive the terminal or add a line). */
export function createdKeyText(key: CreatedKey): string {
  const rows: [string, string][] = [
    ['subAccount', key.subAccount],
    ['apiKey', key.apiKey],
    ['secretKey', key.secretKey],
    ['permissions', key.permissions.join(',')],
    ['ips', key.ips.length > 0 ? key.ips.join(',') : '-'],
    ['note', key.note],
    ['created', formatLocalTime(key.createdAt)],
  ];
  // The key and its secret are never cut (a copy from the screen must be whole); other fields are cut long.
  const whole = new Set(['apiKey', 'secretKey']);
  return rows.map(([name, value]) => `${pad(name, 13)}${sanitize(value, whole.has(name) ? LINE_LIMIT : undefined)}`).join('\n') + '\n';
}

export async function runKeysCreate(options: KeysCreateOptions, ctx: CommandContext): Promise<ExitCode> {
  const checked = validateNewKey({
    subAccount: options.sub ?? '',
    permissions: options.permissions ?? '',
    ip: options.ip ?? '',
    note: options.note ?? '',
  });
  if (!checked.ok) return reportInvalid(ctx, checked.errors);
  const api = await connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  let created: CreatedKey | undefined;
  try {
    const key = await api.createSubAccountKey(checked.value);
    created = key;
    await out.write(options.json ? `${toJson(stdoutIsTerminal(ctx) ? sanitizeDeep(key, LINE_LIMIT) : key)}\n` : createdKeyText(key));
    printLines(ctx.stderr, [`warning: ${SECRET_WARNING}`]);
    return EXIT.ok;
  } catch (error) {
    if (created && error instanceof OutputClosedError) {
      // Unlike a listing, a lost secret is a failure: the key exists and its secret cannot be fetched again.
      printLines(ctx.stderr, [
        `error: key ${created.apiKey} was created but its secret could not be written (${error.code ?? error.message}); delete it and create another`,
      ]);
      return EXIT.failure;
    }
    const code = reportFailure(ctx, error);
    if (code === EXIT.outcomeUnknown) {
      printLines(ctx.stderr, [
        `the key may exist: check with \`broker-console keys list --sub ${checked.value.subAccount}\` before creating it again`,
      ]);
    }
    return code;
  } finally {
    out.release();
    await closeQuietly(api);
  }
}
