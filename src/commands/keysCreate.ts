// `keys create --sub NAME --permissions P1,P2 [--ip A,B] --note TEXT [--format table|json|csv] [--json]`.
// The created key (secret included) goes to stdout, once; the "shown only once" warning goes to stderr,
// so stdout can be piped straight into a password manager or file of the operator's choosing.
import { BrokerError } from '../api/errors';
import { checkBeforeCreatingAgain, keyListCommand } from '../api/serviceCodes';
import type { CreatedKey, ServiceTime } from '../api/types';
import { readOnlySource } from '../api/readOnly';
import { validateNewKey } from '../api/validation';
import { NEEDS_ALLOWING, creationRisks } from '../audit/creationRisks';
import { ipsText } from '../format/noIp';
import { type AuditTarget, type CreateResult, auditPath, createAuditRecorder } from '../config/auditTrail';
import { loadProfiles } from '../credentials/profiles';
import { ENV, envValue } from '../credentials/fromEnvironment';
import { LINE_LIMIT, sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';
import { secretUnreadable } from '../format/secretText';
import { shellWord } from '../terminal/shell';
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
import { OutputClosedError, type OutputFormat, OutputSink, chooseFormat, discardsOutput, losesEveryWrite } from './output';
import { formatLocalTime } from '../api/timeInput';
import { csvField, csvQuoted, neutraliseCsvCell } from '../format/csv';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CommandHost, examples, prose, type OptionsOf } from './define';

/** The command's flags (its options' type is read from them: see OptionsOf). */
const keysCreateFlags = (command: Command) =>
  command
    .option('--sub <name>', 'sub-account name')
    .option('--permissions <list>', 'comma-separated, e.g. SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE')
    .option('--ip <list>', 'up to 4 comma-separated IPv4/IPv6 addresses')
    .option('--note <text>', 'note for the key (required)')
    .option('-o, --format <format>', 'table, json (one object, secretKey included) or csv (default: table)')
    .option('--json', 'short for --format json')
    .option(ALLOW_RISKY_FLAG, 'make a key that can withdraw or transfer funds, or that has no --ip (refused without it, exit 2)');

type KeysCreateOptions = OptionsOf<typeof keysCreateFlags>;

/** The created key as `--format json` prints it (one line): these fields, in this order (createdAt: Unix ms). */
interface CreatedKeyJson {
  subAccount: string;
  note: string;
  apiKey: string;
  secretKey: string;
  permissions: string[];
  ips: string[];
  /** Unix ms; a time a Date cannot hold is its text, exactly as the service sent it. */
  createdAt: ServiceTime;
}

function createdKeyJson(key: CreatedKey): CreatedKeyJson {
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
const CREATED_KEY_CSV_COLUMNS = ['subAccount', 'note', 'apiKey', 'secretKey', 'permissions', 'ips', 'createdAt'] as const;

/** The key or its secret for a terminal: marked where it must be, never cut (a copy must be whole). */
const uncut = (value: string): string => sanitize(value, Math.max(LINE_LIMIT, value.length));

/**
 * The key and its secret are quoted and never altered (no formula quote, never cut: a copy must be exact); the
 * other cells are neutralised, and for a terminal sanitised and cut.
 */
function createdKeyCsv(key: CreatedKey, terminal: boolean): string {
  const exact = new Set<string>(['apiKey', 'secretKey']);
  const values = [key.subAccount, key.note, key.apiKey, key.secretKey, key.permissions.join(','), key.ips.join(','), String(key.createdAt)];
  const cells = values.map((value, i) => {
    const column = CREATED_KEY_CSV_COLUMNS[i] ?? '';
    if (exact.has(column)) return csvQuoted(terminal ? uncut(value) : value);
    const safe = neutraliseCsvCell(value, column === 'createdAt');
    return csvField(terminal ? sanitize(safe) : safe);
  });
  return `${CREATED_KEY_CSV_COLUMNS.join(',')}\r\n${cells.join(',')}\r\n`;
}

export const SECRET_WARNING = 'the secret key is shown only this once: store it now, it cannot be retrieved again';

/** One line per field, each value sanitised (what the service sent cannot drive the terminal or add a line). */
function createdKeyText(key: CreatedKey): string {
  const rows: [string, string][] = [
    ['subAccount', key.subAccount],
    ['apiKey', key.apiKey],
    ['secretKey', key.secretKey],
    ['permissions', key.permissions.join(',')],
    ['ips', ipsText(key.ips, ',')],
    ['note', key.note],
    ['created', formatLocalTime(key.createdAt)],
  ];
  // The key and its secret are never cut (a copy from the screen must be whole); other fields are cut long.
  const whole = new Set(['apiKey', 'secretKey']);
  return rows.map(([name, value]) => `${name.padEnd(13)}${whole.has(name) ? uncut(value) : sanitize(value)}`).join('\n') + '\n';
}

const ALLOW_RISKY_FLAG = '--allow-risky';

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
  // A secret written where it can never be read is a key nobody can use: known now, nothing is sent.
  const lost = losesEveryWrite(ctx.stdout);
  if (lost !== undefined)
    return reportUsage(ctx, `${lost}: the new key's secret would be lost — nothing was sent (send stdout to a file, a pipe or a terminal)`);
  // What the key audit would flag, named before anything is sent; every target but the demo is LIVE (as the console's header says).
  const risks = creationRisks(checked.value.permissions, checked.value.ips ?? []);
  const unallowed = risks.filter((r) => NEEDS_ALLOWING.has(r.kind));
  // A read-only run refuses every create with its own reason, as before.
  const readOnly = readOnlySource(ctx.globals.readOnly, ctx.env) !== undefined;
  if (unallowed.length > 0 && options.allowRisky !== true && !readOnly && ctx.demo !== true) {
    // The audit's reasons are phrases; the one for no-ip needs a verb to read after "this key".
    return reportUsage(
      ctx,
      `this key ${unallowed.map((r) => (r.kind === 'no-ip' ? `has ${r.reason}` : r.reason)).join('; ')}: against a LIVE target add ${ALLOW_RISKY_FLAG} to make it — nothing was sent`,
    );
  }
  if (risks.length > 0 && ctx.stderrIsTTY)
    printLines(
      ctx.stderr,
      risks.map((r) => `risk: ${r.kind}: ${r.reason}`),
    );
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
  // Refused before anything is recorded: an attempt that cannot leave is no attempt.
  if (api.readOnly !== undefined) {
    await api.close();
    return reportUsage(ctx, `create key was not sent: ${api.readOnly}`);
  }
  const request = checked.value;
  // Who sent it, read once: for the audit trail and for the advice after an unknown outcome (the keys list that
  // reaches this service with these credentials).
  const label = profileLabel(ctx);
  const target = listCommand(ctx, baseUrl, await label);
  const out = new OutputSink(ctx.stdout, { ownErrors: true });
  const folder = contextFolder(ctx);
  const recorder = createAuditRecorder(folder, (async (): Promise<AuditTarget> => ({ profile: await label, host: trailHost(ctx, baseUrl) }))());
  let warned = false;
  const auditFailed = (): void => {
    const why = recorder.problem();
    if (!warned)
      printLines(ctx.stderr, [
        `warning: the audit trail (${auditPath(folder)}) could not be written${why === undefined ? '' : ` (${sanitize(why, 200)})`}: this attempt is not (wholly) in it`,
      ]);
    warned = true;
  };
  let created: CreatedKey | undefined;
  /** stdout has taken the secret: from then on a signal changes nothing about it. */
  let delivered = false;
  /** The secret's write to stdout, while it is under way. */
  let writing: Promise<void> | undefined;
  let sending = false;
  /** The command's exit code, once it has said how it went; `finished` settles then. */
  let exitCode: number | undefined;
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  /** Said on stderr once each, whoever says it first: the command, a signal's handler, or a second signal. */
  const said = new Set<string>();
  const sayOnce = (what: 'lost' | 'signalled', line: string): void => {
    if (!said.has(what)) printLines(ctx.stderr, [line]);
    said.add(what);
  };
  const stop = new AbortController();
  // Recorded (and synced) before it is sent: a process killed mid-request still leaves the attempt on record.
  const ahead = recorder.ahead(request);
  /** How the attempt ended, on the line recorded ahead (or, when that one could not be written, a line of its own). */
  const record = async (result: CreateResult): Promise<void> => {
    const outcome = await ahead;
    if (!(await (outcome ?? ((r: CreateResult) => recorder(request, r)))(result))) auditFailed();
  };
  /** What a signal means at this moment: the line to say (if any) and the exit code. */
  const signalled = (signal: NodeJS.Signals): { line?: string; code: number } => {
    if (created && delivered) return { code: EXIT.ok };
    if (created) return { line: notDeliveredLine(created, `${signal} before it was written`), code: EXIT.secretNotDelivered };
    if (!sending) return { line: `error: ${signal} before the create request was sent: nothing was sent, no key was created`, code: EXIT.interrupted };
    return {
      line: `error: ${signal} while the create request was in flight: ${checkBeforeCreatingAgain(request.subAccount, target)} (the attempt is on record as unknown)`,
      code: EXIT.outcomeUnknown,
    };
  };
  // A second signal leaves at once, still saying what became of the key (the trail already says it: the line
  // written before the secret's write keeps it as not delivered).
  const onAnother = (signal: NodeJS.Signals): number => {
    const { line, code } = signalled(signal);
    if (line !== undefined) sayOnce(created ? 'lost' : 'signalled', line);
    return code;
  };
  const stopSignals = ctx.onInterrupt?.(async (signal) => {
    // The secret's write under way: it may finish (or fail) on its own in a moment; the command then says how it went.
    if (created && !delivered && writing) await Promise.race([finished, sleep(DELIVERY_GRACE_MS)]);
    if (exitCode !== undefined) return exitCode;
    if (created && delivered) {
      // The secret is out: the trail is made to say so, and the exit is the success it was.
      await record({ created });
      await api.cutShort();
      return EXIT.ok;
    }
    if (created) {
      // Created, its secret still waiting to be taken by stdout (a reader that does not read): not delivered.
      const why = `${signal} before it was written`;
      await record({ created, secret: 'not-delivered', reason: why });
      sayOnce('lost', notDeliveredLine(created, why));
      await api.cutShort();
      return EXIT.secretNotDelivered;
    }
    if (!sending) {
      // No byte of the create left this process, and none will (aborted in the same turn): the attempt recorded
      // ahead is closed as not sent.
      stop.abort();
      await (
        await ahead
      )?.({ error: new BrokerError({ kind: 'aborted', operation: 'create key' }) });
      sayOnce('signalled', signalled(signal).line!);
      await api.cutShort();
      return EXIT.interrupted;
    }
    // Its answer is not waited for: the line recorded ahead keeps the attempt as unknown.
    sayOnce('signalled', signalled(signal).line!);
    await api.cutShort();
    return EXIT.outcomeUnknown;
  }, onAnother);
  try {
    if (!(await ahead)) auditFailed();
    let key: CreatedKey;
    try {
      key = await api.createSubAccountKey(request, { signal: stop.signal, onSending: () => void (sending = true) });
    } catch (error) {
      // Aborted by a signal before it was sent: the signal's handler closes the attempt in the trail.
      if (!stop.signal.aborted) await record({ error });
      throw error;
    }
    created = key;
    const terminal = stdoutIsTerminal(ctx);
    const unreadable = secretNotOutput(key, chosen.format, terminal);
    if (unreadable) {
      await record({ created: key, secret: 'unreadable', reason: `the secret ${unreadable}` });
      printLines(ctx.stderr, [
        `error: key ${key.apiKey} was created but its secret ${unreadable}: it cannot be output as the service sent it, so it was not written; ${DELETE_ADVICE}`,
      ]);
      return (exitCode = EXIT.secretNotDelivered);
    }
    const json = createdKeyJson(key);
    const text =
      chosen.format === 'json'
        ? `${toJson(terminal ? { ...sanitizeDeep(json, LINE_LIMIT), apiKey: uncut(key.apiKey), secretKey: uncut(key.secretKey) } : json)}\n`
        : chosen.format === 'csv'
          ? createdKeyCsv(key, terminal)
          : createdKeyText(key);
    // On record as not delivered until stdout has taken it: a process killed while its reader does not read
    // (SIGKILL, the machine going down) leaves the key marked, not a plain "created".
    await record({ created: key, secret: 'not-delivered', reason: PENDING_REASON });
    try {
      if (discardsOutput(ctx.stdout))
        throw new OutputClosedError(
          Object.assign(new Error('stdout is closed or a device that keeps nothing'), { code: 'stdout is closed or a device that keeps nothing' }),
        );
      // Not done until the stream handed the text on: a failure a tick later must still be this command's.
      writing = out.writeFlushed(text);
      await writing;
      delivered = true;
    } catch (error) {
      if (!(error instanceof OutputClosedError)) throw error;
      const why = error.code ?? error.message;
      await record({ created: key, secret: 'not-delivered', reason: `stdout: ${why}` });
      sayOnce('lost', notDeliveredLine(key, why));
      return (exitCode = EXIT.secretNotDelivered);
    }
    await record({ created: key });
    printLines(ctx.stderr, [`warning: ${SECRET_WARNING}`]);
    return (exitCode = EXIT.ok);
  } catch (error) {
    // Aborted by a signal before it was sent: the signal's handler says so, once.
    if (stop.signal.aborted) return (exitCode = EXIT.interrupted);
    const code = reportFailure(ctx, error);
    if (code === EXIT.outcomeUnknown) printLines(ctx.stderr, [checkBeforeCreatingAgain(request.subAccount, target)]);
    return (exitCode = code);
  } finally {
    finish();
    out.release();
    await closeQuietly(api);
    // The outcome is settled and said: a signal from here until the process ends does not change its exit code.
    stopSignals?.(exitCode);
  }
}

/** How long a signal lets the secret's write under way finish (or fail) on its own before it is called lost. */
const DELIVERY_GRACE_MS = 1000;

const DELETE_ADVICE = "nobody has its secret: delete this key in the service's web console, then create another";

/** The trail's reason while the secret is being written: what stays if the process ends before stdout took it. */
const PENDING_REASON = 'the command ended before its secret was written to stdout';

function notDeliveredLine(key: CreatedKey, why: string): string {
  return `error: key ${key.apiKey} was created but its secret could not be written (${why}); ${DELETE_ADVICE}`;
}

/**
 * Why the secret cannot be output exactly as the service sent it, or undefined: bytes that were not UTF-8, or,
 * for a terminal or the text table, characters it would have to show as marks.
 */
export function secretNotOutput(key: CreatedKey, format: OutputFormat, terminal: boolean): string | undefined {
  if (key.secretUnreadable) return secretUnreadable(key.secretKey, true);
  return terminal || format === 'table' ? secretUnreadable(key.secretKey, false) : undefined;
}

/** The audit trail's name for where the credentials came from: "environment", else the profile's name. */
async function profileLabel(ctx: CommandContext): Promise<string> {
  if (ctx.demo === true) return 'demo';
  if (envValue(ctx.env, ENV.apiKey) !== undefined && envValue(ctx.env, ENV.secret) !== undefined) return 'environment';
  const named = ctx.globals.profile?.trim() || envValue(ctx.env, ENV.profile);
  if (named) return named;
  try {
    return (await loadProfiles(contextFolder(ctx))).defaultProfile ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * keys list on the service of this run with its credentials: the profile's (with the base URL when --base-url or
 * BROKER_BASE_URL gave another), or the base URL environment credentials went to; none for the demo, whose
 * sandbox ends with the run.
 */
function listCommand(ctx: CommandContext, baseUrl: string | undefined, label: string): string | undefined {
  if (label === 'demo') return undefined;
  const url = baseUrl === undefined ? '' : `--base-url ${shellWord(baseUrl)}`;
  if (label === 'environment' || label === 'unknown') return keyListCommand(url);
  const otherUrl = ctx.globals.baseUrl !== undefined || envValue(ctx.env, ENV.baseUrl) !== undefined;
  return keyListCommand(`--profile ${shellWord(label)}${otherUrl && url !== '' ? ` ${url}` : ''}`);
}

/** `keys create`, under `keys`. */
export function defineKeysCreate(keys: Command, host: CommandHost): CommandUnknownOpts {
  return keysCreateFlags(keys.command('create').description('create an API key for a sub-account (its secret is shown once)'))
    .addHelpText(
      'after',
      prose(
        '\nThe key, its secret included, goes to stdout once; the reminder that the secret cannot be shown again\n' +
          'goes to stderr, so stdout can be piped straight into a password manager. Exit 3: the request was sent but\n' +
          'its answer did not come or could not be read, so the key may exist; check with `keys list` before creating\n' +
          'it again (also on Ctrl-C, SIGTERM or SIGHUP while the request is in flight). Exit 5: the key was created but\n' +
          'its secret could not be written (reader gone, disk full, stdout closed) or is not valid text; delete that key\n' +
          "in the service's web console. The command exits only once the key and secret are written. Its signature\n" +
          'covers the query alone (or what this base URL last accepted); refused for its signature (700002), it is sent\n' +
          'once more signed by the other rule (query + body), and the rule that worked is kept for the next run. Pin one\n' +
          'rule with profile add --post-signature or BROKER_POST_SIGNATURE (auto, query or body).',
      ),
    )
    .addHelpText('after', examples('keys create --sub gridbot2901 --permissions SPOT_ACCOUNT_READ --ip 203.0.113.7 --note "bot 7"'))
    .action(async (options) => {
      host.exit(await runKeysCreate(options, host.context()));
    });
}
