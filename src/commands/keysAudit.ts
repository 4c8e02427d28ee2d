// `keys audit [--sub A,B | --recent | --discovered] [--max-age 90d] [--fail-on any|none|KINDS] [--format table|json|csv]`:
// every key of those sub-accounts flagged for what an operator must look at (src/audit/keyAudit.ts), with a
// summary per sub-account. Exit 4 when a key is flagged (so it can fail a CI job), 1 when a sub-account could
// not be audited (1 wins over 4: an incomplete audit must not pass for a complete one). The JSON shape is a
// contract (docs/commands.md "Output formats", pinned by test/commands/keysAudit.test.ts).
import { likelyTypo } from '../api/didYouMean';
import { BrokerError } from '../api/errors';
import { NO_IP_LIFETIME_DAYS, type ServiceTime } from '../api/types';
import { formatLocalTime, parseSpan } from '../api/timeInput';
import { NO_NAME_IN_LIST, checkSubAccount, type FieldError } from '../api/validation';
import { auditTargets, auditableNames, fetchAudit, type SubAccountAudit } from '../audit/fetchAudit';
import { DEFAULT_MAX_AGE_MS, FLAG_KINDS, type FlagKind, type KeyFinding, ageInDays, formatSpan, summaryText } from '../audit/keyAudit';
import { openDiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import { openRecentSubAccounts } from '../config/recentSubAccounts';
import { grouped, plural, sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';
import {
  type CommandContext,
  EXIT,
  type ExitCode,
  closeQuietly,
  connect,
  contextFolder,
  printLines,
  reportFailure,
  reportInvalid,
  reportUsage,
  stdoutIsTerminal,
  trailHost,
} from './context';
import { type Column, OutputSink, chooseFormat, formatTable, tableWidth } from './output';
import { readAuditTrail, recentOf } from '../config/auditTrail';
import { ATTEMPTS_READ } from '../audit/lostSecrets';
import { csvDocument } from '../format/csv';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { type CommandHost, examples, prose, type OptionsOf } from './define';

/** The command's flags (its options' type is read from them: see OptionsOf). */
const keysAuditFlags = (command: Command) =>
  command
    .option('--sub <list>', 'comma-separated sub-account names')
    .option('--recent', 'the sub-accounts recently opened in the console (for this base URL)')
    .option('--discovered', 'the sub-accounts found in transfer history (for this base URL)')
    .option('--max-age <span>', 'a key older than this is flagged old: 90d, 12w, 2160h… (default 90d)')
    .option('--fail-on <which>', 'any (default), none, or flags, e.g. withdraw,no-ip: which flags make the exit code 4')
    .option('-o, --format <format>', 'table, json (one object) or csv (default: table)')
    .option('--json', 'short for --format json');

type KeysAuditOptions = OptionsOf<typeof keysAuditFlags>;

/** Which flags make the exit code 4: any flag, none, or only these kinds. */
type FailOn = 'any' | 'none' | readonly FlagKind[];

export function parseFailOn(raw: string | undefined): { ok: true; value: FailOn } | { ok: false; message: string } {
  const text = (raw ?? 'any').trim().toLowerCase();
  if (text === 'any' || text === 'none') return { ok: true, value: text };
  const kinds = text
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const unknown = kinds.find((k) => !(FLAG_KINDS as readonly string[]).includes(k));
  // A near miss names the flag meant; any and none only as the whole value.
  const meant = unknown === undefined ? undefined : likelyTypo(unknown, kinds.length === 1 ? ['any', 'none', ...FLAG_KINDS] : FLAG_KINDS);
  if (meant !== undefined) return { ok: false, message: `--fail-on: '${sanitize(unknown ?? '', 40)}' is not a known flag: did you mean ${meant}?` };
  if (kinds.length === 0 || unknown !== undefined) {
    return { ok: false, message: `--fail-on: must be any, none or flags from ${FLAG_KINDS.join(', ')} (got '${sanitize(unknown ?? raw ?? '', 40)}')` };
  }
  return { ok: true, value: kinds as FlagKind[] };
}

function fails(failOn: FailOn, results: readonly SubAccountAudit[]): boolean {
  if (failOn === 'none') return false;
  return results.some((r) => r.status === 'audited' && r.findings.some((f) => f.flags.some((flag) => failOn === 'any' || failOn.includes(flag.kind))));
}

/** One key as the JSON lists it: the key's fields (as `keys list --json`), its age, its flags. */
interface AuditKeyJson {
  note: string;
  apiKey: string;
  permissions: string[];
  ips: string[];
  /** Unix ms; a time a Date cannot hold is its text, exactly as the service sent it. */
  createdAt: ServiceTime;
  ageDays: number;
  flags: Array<{ kind: FlagKind; reason: string }>;
}

/** One sub-account: summary null unless audited, error null when audited. */
interface AuditSubAccountJson {
  subAccount: string;
  status: 'audited' | 'failed' | 'not-audited';
  error: string | null;
  summary: { keys: number; flagged: number; flags: Record<FlagKind, number> } | null;
  keys: AuditKeyJson[];
}

export interface AuditJson {
  auditedAt: number;
  maxAgeMs: number;
  totals: { subAccounts: number; audited: number; failed: number; keys: number; flagged: number };
  subAccounts: AuditSubAccountJson[];
}

function failureLine(result: SubAccountAudit): string {
  if (result.status === 'skipped') return `not audited: stopped after ${result.after} failed`;
  if (result.status !== 'failed') return '';
  return result.error instanceof BrokerError ? result.error.toLine() : (result.error.message.split('\n')[0] ?? 'failed');
}

function keyJson(finding: KeyFinding, now: number): AuditKeyJson {
  const k = finding.key;
  return {
    note: k.note,
    apiKey: k.apiKey,
    permissions: [...k.permissions],
    ips: [...k.ips],
    createdAt: k.createdAt,
    ageDays: ageInDays(k.createdAt, now),
    flags: finding.flags.map((f) => ({ kind: f.kind, reason: f.reason })),
  };
}

export function auditJson(results: readonly SubAccountAudit[], now: number, maxAgeMs: number): AuditJson {
  const subAccounts = results.map((r): AuditSubAccountJson => ({
    subAccount: r.subAccount,
    status: r.status === 'skipped' ? 'not-audited' : r.status,
    error: r.status === 'audited' ? null : failureLine(r),
    summary: r.status === 'audited' ? { keys: r.summary.keys, flagged: r.summary.flagged, flags: { ...r.summary.byKind } } : null,
    keys: r.status === 'audited' ? r.findings.map((f) => keyJson(f, now)) : [],
  }));
  const audited = results.flatMap((r) => (r.status === 'audited' ? [r] : []));
  return {
    auditedAt: now,
    maxAgeMs,
    totals: {
      subAccounts: results.length,
      audited: audited.length,
      failed: results.length - audited.length,
      keys: audited.reduce((n, r) => n + r.summary.keys, 0),
      flagged: audited.reduce((n, r) => n + r.summary.flagged, 0),
    },
    subAccounts,
  };
}

/** `--format csv`: one record per key (a sub-account not audited: one record with its status and error). */
export const AUDIT_CSV_COLUMNS = ['subAccount', 'status', 'apiKey', 'note', 'permissions', 'ips', 'createdAt', 'ageDays', 'flags', 'reasons', 'error'] as const;

export function auditCsv(json: AuditJson, terminal: boolean): string {
  const rows = json.subAccounts.flatMap((s) =>
    s.status !== 'audited'
      ? [[s.subAccount, s.status, '', '', '', '', '', '', '', '', s.error ?? '']]
      : s.keys.map((k) => [
          s.subAccount,
          s.status,
          k.apiKey,
          k.note,
          k.permissions.join(','),
          k.ips.join(','),
          String(k.createdAt),
          String(k.ageDays),
          k.flags.map((f) => f.kind).join(','),
          k.flags.map((f) => f.reason).join('; '),
          '',
        ]),
  );
  return csvDocument(AUDIT_CSV_COLUMNS, rows, { terminal, numeric: ['createdAt', 'ageDays'] });
}

const SUMMARY_COLUMNS: readonly Column[] = [
  { header: 'subAccount' },
  { header: 'keys', align: 'right' },
  { header: 'flagged', align: 'right' },
  { header: 'flags', shrink: true },
];
const FINDING_COLUMNS: readonly Column[] = [
  { header: 'subAccount' },
  { header: 'apiKey' },
  { header: 'note', shrink: true },
  { header: 'created' },
  { header: 'flag' },
  { header: 'why', shrink: true },
];

/** Two tables for a person: a summary line per sub-account, then one line per flag of each flagged key; cut to `width` when given. */
export async function auditTable(results: readonly SubAccountAudit[], now: number, maxAgeMs: number, width?: number): Promise<string> {
  const json = auditJson(results, now, maxAgeMs);
  const t = json.totals;
  // Failed (its keys could not be listed) apart from not asked (an earlier failure would have failed it too).
  const failed = results.filter((r) => r.status === 'failed').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  const notAudited = `${failed > 0 ? ` · ${grouped(failed)} failed` : ''}${skipped > 0 ? ` · ${grouped(skipped)} not audited` : ''}`;
  const head = `${plural(t.subAccounts, 'sub-account', 'sub-accounts')} · ${plural(t.keys, 'key', 'keys')} · ${grouped(t.flagged)} flagged${notAudited} · old: older than ${formatSpan(maxAgeMs)}\n\n`;
  const summary = await formatTable(
    SUMMARY_COLUMNS,
    results.map((r) =>
      r.status === 'audited'
        ? [r.subAccount, grouped(r.summary.keys), grouped(r.summary.flagged), summaryText(r.summary)]
        : [r.subAccount, '-', '-', failureLine(r)],
    ),
    width,
  );
  const rows = results.flatMap((r) =>
    r.status !== 'audited'
      ? []
      : r.findings.flatMap((f) =>
          f.flags.map((flag, i) =>
            i === 0
              ? [r.subAccount, f.key.apiKey, f.key.note, formatLocalTime(f.key.createdAt), flag.kind, flag.reason]
              : ['', '', '', '', flag.kind, flag.reason],
          ),
        ),
  );
  // "no key flagged" only of keys that were audited: with none audited it would read as a clean audit.
  const none = t.audited === 0 ? 'no key audited\n' : 'no key flagged\n';
  return `${head}${summary}\n${rows.length === 0 ? none : await formatTable(FINDING_COLUMNS, rows, width)}`;
}

/** Names from --sub, each checked as the other commands check a sub-account. */
function subList(raw: string): { ok: true; names: string[] } | { ok: false; errors: FieldError[] } {
  const parts = raw.split(',').filter((p) => p.trim() !== '');
  if (parts.length === 0) return { ok: false, errors: [{ field: 'subAccount', message: NO_NAME_IN_LIST }] };
  const checked = parts.map((p) => checkSubAccount(p));
  const errors = checked.flatMap((c) => (c.ok ? [] : [c.error]));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, names: auditTargets(checked.flatMap((c) => (c.ok ? [c.value] : []))) };
}

export async function runKeysAudit(options: KeysAuditOptions, ctx: CommandContext): Promise<ExitCode> {
  // Every flag is checked before anything is read or sent.
  const chosen = chooseFormat(options);
  if (!chosen.ok) return reportUsage(ctx, chosen.message);
  const maxAge = options.maxAge === undefined ? { ok: true as const, ms: DEFAULT_MAX_AGE_MS } : parseSpan(options.maxAge);
  if (!maxAge.ok) return reportUsage(ctx, `--max-age: ${maxAge.reason}`);
  const failOn = parseFailOn(options.failOn);
  if (!failOn.ok) return reportUsage(ctx, failOn.message);
  const fromStores = options.recent === true || options.discovered === true;
  if (options.sub !== undefined && fromStores) return reportUsage(ctx, '--sub names the sub-accounts itself: it cannot go with --recent or --discovered');
  if (options.sub === undefined && !fromStores) return reportUsage(ctx, 'say which sub-accounts to audit: --sub A,B, --recent or --discovered');
  const given = options.sub === undefined ? undefined : subList(options.sub);
  if (given && !given.ok) return reportInvalid(ctx, given.errors);

  const api = await connect(ctx);
  if (!api) return EXIT.usage;
  const out = new OutputSink(ctx.stdout);
  try {
    let names = given?.ok ? given.names : [];
    if (fromStores) {
      const found = await storedNames(ctx, api.baseUrl, options);
      if (found.names.length === 0) {
        const which = [options.recent ? 'recent' : '', options.discovered ? 'discovered' : ''].filter((w) => w !== '').join(' or ');
        return reportUsage(
          ctx,
          `no ${which} sub-accounts for ${api.baseUrl} yet (recent: keys listed in the console; discovered: a discover scan of the transfers); name them with --sub A,B`,
        );
      }
      if (found.invalid > 0)
        printLines(ctx.stderr, [`note: ${found.invalid} stored ${found.invalid === 1 ? 'name is' : 'names are'} not a valid sub-account name: left out`]);
      names = found.names;
    }
    const now = ctx.now();
    const progress = ctx.stderrIsTTY && names.length > 1;
    let done = 0;
    // The trail's attempts on this host mark the keys whose secret was lost: read once, for every sub-account.
    const host = trailHost(ctx, api.baseUrl);
    const trail = readAuditTrail(contextFolder(ctx)).then(
      ({ entries }) => entries.filter((e) => e.host === host),
      () => [],
    );
    const results = await fetchAudit(api, names, {
      now,
      maxAgeMs: maxAge.ms,
      attemptsFor: async (subAccount) => recentOf(await trail, subAccount, ATTEMPTS_READ),
      onResult: (_, result) => {
        done += 1;
        if (progress) printLines(ctx.stderr, [`audited ${done}/${names.length}: ${result.subAccount}`]);
      },
    });
    const terminal = stdoutIsTerminal(ctx);
    if (chosen.format === 'json') {
      const json = auditJson(results, now, maxAge.ms);
      await out.write(`${toJson(terminal ? sanitizeDeep(json) : json, 2)}\n`);
    } else if (chosen.format === 'csv') await out.write(auditCsv(auditJson(results, now, maxAge.ms), terminal));
    else await out.write(await auditTable(results, now, maxAge.ms, tableWidth(ctx.stdout, terminal)));
    const unaudited = results.filter((r) => r.status !== 'audited');
    for (const r of unaudited.filter((u) => u.status === 'failed')) printLines(ctx.stderr, [`error: ${r.subAccount}: ${failureLine(r)}`]);
    const skipped = unaudited.filter((u) => u.status === 'skipped').length;
    if (skipped > 0)
      printLines(ctx.stderr, [`error: ${skipped} ${skipped === 1 ? 'sub-account' : 'sub-accounts'} not audited: the failure above would fail them too`]);
    if (unaudited.length > 0) return EXIT.failure;
    return fails(failOn.value, results) ? EXIT.flagged : EXIT.ok;
  } catch (error) {
    return reportFailure(ctx, error);
  } finally {
    out.release();
    await closeQuietly(api);
  }
}

/** The recent and/or discovered names of this base URL, each once, checked; how many stored names were not valid. */
async function storedNames(ctx: CommandContext, baseUrl: string, options: KeysAuditOptions): Promise<{ names: string[]; invalid: number }> {
  const folder = contextFolder(ctx);
  const recent = options.recent ? (await openRecentSubAccounts(folder, baseUrl)).list() : [];
  const discovered = options.discovered ? (await openDiscoveredSubAccounts(folder, baseUrl)).list().map((d) => d.name) : [];
  return auditableNames(recent, discovered);
}

/** `keys audit`, under `keys`. */
export function defineKeysAudit(keys: Command, host: CommandHost): CommandUnknownOpts {
  return keysAuditFlags(
    keys
      .command('audit')
      .description('flag keys an operator must look at: a secret lost, no linked IP, write/withdraw/transfer permissions, old, a shared note'),
  )
    .addHelpText(
      'after',
      prose(
        '\nFlags: lost-secret (the audit trail of this folder says its secret was not delivered, never confirmed\n' +
          'stored, or never received),\n' +
          `no-ip (any address can use the key; the service ends it after ${NO_IP_LIFETIME_DAYS} days),\n` +
          'write (a *_WRITE permission other than withdraw/transfer), withdraw (SPOT_WITHDRAW_WRITE),\n' +
          'transfer (SPOT_TRANSFER_WRITE), old (created longer ago than --max-age),\n' +
          'shared-note (the same note, case and spaces aside, on several keys of the sub-account).\n' +
          '--recent and --discovered can go together. Exit 4 when a key is flagged (--fail-on none: 0), so a CI job\n' +
          'fails; exit 1 when a sub-account could not be audited (the rest is still printed; 1 wins over 4).',
      ),
    )
    .addHelpText('after', examples('keys audit --recent --max-age 90d', 'keys audit --sub gridbot2901,mmbot5143 --fail-on withdraw,no-ip --json'))
    .action(async (options) => {
      host.exit(await runKeysAudit(options, host.context()));
    });
}
