// `audit [--format table|json|csv] [--json] [--sub NAME] [--limit N]`: the audit trail (audit.jsonl in the
// config folder: every create-key attempt that was sent), newest first. Sends nothing. The JSON shape is a
// contract (pinned by test/commands/audit.test.ts); the table is sanitised, as is everything on a terminal.
import { type AuditEntry, auditPath, readAuditTrail, stillSending, stillSendingReason } from '../config/auditTrail';
import { plural, sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';
import { ipsText } from '../format/noIp';
import { type CommandContext, EXIT, type ExitCode, contextFolder, printLines, reportFailure, reportUsage, stdoutIsTerminal } from './context';
import { type Column, OutputSink, chooseFormat, formatTable } from './output';
import { formatLocalTime } from '../api/timeInput';
import { csvDocument } from '../format/csv';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { type CommandHost, examples, type OptionsOf } from './define';

/** The command's flags (its options' type is read from them: see OptionsOf). */
const auditFlags = (command: Command) =>
  command
    .option('--sub <name>', 'only this sub-account')
    .option('--limit <n>', 'at most this many entries (default 50)')
    .option('-o, --format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json');

type AuditOptions = OptionsOf<typeof auditFlags>;

const DEFAULT_AUDIT_LIMIT = 50;
const MAX_AUDIT_LIMIT = 10_000;

/** One entry as `--format json` prints it: every field, in this order (null when it does not apply). */
interface AuditEntryJson {
  time: string;
  profile: string;
  host: string;
  subAccount: string;
  apiKey: string | null;
  permissions: string[];
  ips: string[];
  note: string;
  outcome: 'created' | 'refused' | 'unknown' | 'not-created';
  code: number | string | null;
  message: string | null;
  reason: string | null;
}

function auditEntryJson(e: AuditEntry): AuditEntryJson {
  return {
    time: e.time,
    profile: e.profile,
    host: e.host,
    subAccount: e.subAccount,
    apiKey: e.apiKey ?? null,
    permissions: [...e.permissions],
    ips: [...e.ips],
    note: e.note,
    // Attempts never sent are left out when the trail is read.
    outcome: e.outcome === 'not-sent' ? 'unknown' : e.outcome,
    code: e.code ?? null,
    message: e.message ?? null,
    reason: stillSendingReasonOf(e) ?? e.reason ?? null,
  };
}

function stillSendingReasonOf(e: AuditEntry): string | undefined {
  const pid = stillSending(e);
  return pid === undefined ? undefined : stillSendingReason(pid);
}

export const AUDIT_CSV_COLUMNS = [
  'time',
  'profile',
  'host',
  'subAccount',
  'apiKey',
  'permissions',
  'ips',
  'note',
  'outcome',
  'code',
  'message',
  'reason',
] as const;

/** What happened, in a few words: the outcome and the service's code and message or the reason. */
function detail(e: AuditEntry): string {
  if (e.outcome === 'refused') return [e.code !== undefined ? String(e.code) : '', e.message ?? ''].filter((p) => p !== '').join(' ');
  return e.reason ?? '';
}

const COLUMNS: readonly Column[] = [
  { header: 'time' },
  { header: 'profile' },
  { header: 'host' },
  { header: 'subAccount' },
  { header: 'apiKey' },
  { header: 'permissions' },
  { header: 'ips' },
  { header: 'note' },
  { header: 'outcome' },
  { header: 'detail' },
];

/** An entry's time in the table: local, as every other table shows time (an unreadable time as written). */
function localTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? formatLocalTime(ms, true) : iso;
}

export function auditTable(entries: readonly AuditEntry[]): Promise<string> {
  return formatTable(
    COLUMNS,
    entries.map((e) => [
      localTime(e.time),
      e.profile,
      e.host,
      e.subAccount,
      e.apiKey ?? '-',
      e.permissions.join(','),
      ipsText(e.ips, ','),
      e.note,
      e.outcome,
      detail(e) || '-',
    ]),
  );
}

export function auditCsv(entries: readonly AuditEntry[], terminal: boolean): string {
  return csvDocument(
    AUDIT_CSV_COLUMNS,
    entries.map((e) => [
      e.time,
      e.profile,
      e.host,
      e.subAccount,
      e.apiKey ?? '',
      e.permissions.join(','),
      e.ips.join(','),
      e.note,
      e.outcome,
      e.code !== undefined ? String(e.code) : '',
      e.message ?? '',
      e.reason ?? '',
    ]),
    { terminal, numeric: ['code'] },
  );
}

export async function runAudit(options: AuditOptions, ctx: CommandContext): Promise<ExitCode> {
  const chosen = chooseFormat(options);
  if (!chosen.ok) return reportUsage(ctx, chosen.message);
  let limit = DEFAULT_AUDIT_LIMIT;
  if (options.limit !== undefined) {
    const raw = options.limit.trim();
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_AUDIT_LIMIT) {
      return reportUsage(ctx, `--limit: a whole number from 1 to ${MAX_AUDIT_LIMIT} (got '${options.limit}')`);
    }
    limit = Number(raw);
  }
  const sub = options.sub?.trim();
  if (options.sub !== undefined && !sub) return reportUsage(ctx, '--sub: a sub-account name');
  const folder = contextFolder(ctx);
  const out = new OutputSink(ctx.stdout);
  try {
    let read;
    try {
      read = await readAuditTrail(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      printLines(ctx.stderr, [`error: cannot read ${auditPath(folder)} (${code})`]);
      return EXIT.failure;
    }
    if (read.skipped > 0) printLines(ctx.stderr, [`warning: ${plural(read.skipped, 'damaged line')} of ${auditPath(folder)} skipped`]);
    if (read.truncated) printLines(ctx.stderr, [`note: ${auditPath(folder)} is large: only its most recent entries were read`]);
    const entries = read.entries
      .filter((e) => sub === undefined || e.subAccount === sub)
      .reverse()
      .slice(0, limit);
    const terminal = stdoutIsTerminal(ctx);
    if (chosen.format === 'json') {
      const records = entries.map(auditEntryJson);
      await out.write(`${toJson(terminal ? sanitizeDeep(records) : records, 2)}\n`);
    } else if (chosen.format === 'csv') await out.write(auditCsv(entries, terminal));
    else if (entries.length === 0)
      await out.write(sub === undefined ? 'no create attempts recorded yet\n' : `no create attempts recorded for ${sanitize(sub)}\n`);
    else await out.write(await auditTable(entries));
    return EXIT.ok;
  } catch (error) {
    return reportFailure(ctx, error);
  } finally {
    out.release();
  }
}

export function defineAudit(program: Command, host: CommandHost): CommandUnknownOpts {
  return auditFlags(
    program.command('audit').description('the audit trail: every create-key attempt sent (created, refused, unknown), newest first; never a secret'),
  )
    .addHelpText('after', examples('audit --sub gridbot2901 --limit 20'))
    .action(async (options) => {
      host.exit(await runAudit(options, host.context()));
    });
}
