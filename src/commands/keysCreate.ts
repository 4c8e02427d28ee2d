// `keys create --sub NAME --permissions P1,P2 [--ip A,B] --note TEXT [--format table|json|csv] [--json]`.
// The created key (secret included) goes to stdout, once; the "shown only once" warning goes to stderr,
// so stdout can be piped straight into a password manager or file of the operator's choosing.
import type { CreatedKey, ServiceTime } from '../api/types';
import { validateNewKey } from '../api/validation';
import { type AuditTarget, type CreateResult, createAuditRecorder } from '../config/auditTrail';
import { loadProfiles } from '../credentials/profiles';
import { ENV, envValue } from '../credentials/fromEnvironment';
import { sanitize, sanitizeDeep, toJson } from '../terminal/text';
import { type CommandContext, EXIT, type ExitCode, LINE_LIMIT, closeQuietly, connect, contextFolder, printLines, reportFailure, reportInvalid, reportUsage, stdoutIsTerminal } from './context';
import { OutputClosedError, OutputSink, chooseFormat, csvRecord, formatLocalTime, neutraliseCsvCell, pad } from './output';

export interface KeysCreateOptions {
  sub?: string;
  permissions?: string;
  ip?: string;
  note?: string;
  /** table (default: one line per field), json or csv. */
  format?: string;
  /** Short for --format json. */
  json?: boolean;
}

/** The created key as `--format json` prints it (one line): these fields, in this order (createdAt: Unix ms). */
export interface CreatedKeyJson {
  subAccount: string;
  note: string;
  apiKey: string;
  secretKey: string;
  permissions: string[];
  ips: string[];
  /** Unix ms; a time a Date cannot hold is its text, exactly as the service sent it. */
  createdAt: ServiceTime;
}

export function createdKeyJson(key: CreatedKey): CreatedKeyJson {
  return {
    subAccount: key.subAccount,
    note: key.note,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    permissions: [...key.permissions],
    ips: [...key.ips],
    createdAt: key.createdAt,
  };
}

/** `--format csv`: a header and one record with these columns (permissions and ips comma-joined in one cell). */
export const CREATED_KEY_CSV_COLUMNS = ['subAccount', 'note', 'apiKey', 'secretKey', 'permissions', 'ips', 'createdAt'] as const;

/** The key and its secret are never cut, not even for a terminal (a copy must be whole); other cells are. */
export function createdKeyCsv(key: CreatedKey, terminal: boolean): string {
  const whole = new Set<string>(['apiKey', 'secretKey']);
  const values = [key.subAccount, key.note, key.apiKey, key.secretKey, key.permissions.join(','), key.ips.join(','), String(key.createdAt)];
  const cells = values.map((value, i) => {
    const column = CREATED_KEY_CSV_COLUMNS[i] ?? '';
    const safe = neutraliseCsvCell(value, column === 'createdAt');
    return terminal ? sanitize(safe, whole.has(column) ? LINE_LIMIT : undefined) : safe;
  });
  return csvRecord(CREATED_KEY_CSV_COLUMNS) + csvRecord(cells);
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
  const chosen = chooseFormat(options);
  if (!chosen.ok) return reportUsage(ctx, chosen.message);
  // The client's base URL, seen as connect() builds it (for the audit trail's host).
  let baseUrl: string | undefined;
  const api = await connect({
    ...ctx,
    createApi: (config) => {
      baseUrl = config.baseUrl;
      return ctx.createApi(config);
    },
  });
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  let created: CreatedKey | undefined;
  const audit = async (result: CreateResult): Promise<void> => {
    const target: AuditTarget = { profile: await profileLabel(ctx), host: hostOf(baseUrl) };
    const written = await createAuditRecorder(contextFolder(ctx), target)(checked.value, result);
    if (!written) printLines(ctx.stderr, [`warning: the audit trail (${contextFolder(ctx)}/audit.jsonl) could not be written: this attempt is not in it`]);
  };
  try {
    let key: CreatedKey;
    try {
      key = await api.createSubAccountKey(checked.value);
    } catch (error) {
      await audit({ error });
      throw error;
    }
    created = key;
    await audit({ created: key });
    const terminal = stdoutIsTerminal(ctx);
    const record = createdKeyJson(key);
    await out.write(
      chosen.format === 'json'
        ? `${toJson(terminal ? sanitizeDeep(record, LINE_LIMIT) : record)}\n`
        : chosen.format === 'csv'
          ? createdKeyCsv(key, terminal)
          : createdKeyText(key),
    );
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

/** The audit trail's name for where the credentials came from: "environment", else the profile's name. */
async function profileLabel(ctx: CommandContext): Promise<string> {
  if (envValue(ctx.env, ENV.apiKey) !== undefined && envValue(ctx.env, ENV.secret) !== undefined) return 'environment';
  const named = ctx.globals.profile?.trim() || envValue(ctx.env, ENV.profile);
  if (named) return named;
  try {
    return (await loadProfiles(contextFolder(ctx))).defaultProfile ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function hostOf(baseUrl: string | undefined): string {
  try {
    return baseUrl === undefined ? 'unknown' : new URL(baseUrl).host;
  } catch {
    return 'unknown';
  }
}
