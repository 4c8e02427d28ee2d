// `profile add|list|remove|use`: saved targets. The non-secret settings go to profiles.json in the config
// folder; the master API key and secret go to the keychain only (service broker-console, account = name@folder).
// No secret is ever printed, and no secret is ever accepted as a flag (it would show in `ps`).
import { firstLineOf } from '../api/errors';
import { apiKeyProblem, headerNameProblem } from '../api/headers';
import { showProxyUrl } from '../api/proxy';
import { DEFAULT_RECV_WINDOW, POST_SIGNATURES, type PostSignature, parsePostSignature } from '../api/signing';
import { shortenApiKey } from '../api/redact';
import { checkCredentials } from '../credentials/checkCredentials';
import { ENV, checkBaseUrl, envValue } from '../credentials/fromEnvironment';
import {
  type FolderKeychain,
  KEYCHAIN_SERVICE,
  KeychainError,
  type KeychainProblem,
  type KeychainProblemKind,
  type StoredCredentials,
  type UnownedEntry,
  folderKeychain,
  keychainAccount,
  openKeychain,
  problem,
} from '../credentials/keychain';
import {
  PROFILE_COLORS,
  PROFILE_DEFAULTS,
  type Profile,
  type ProfileConfig,
  type SavedProfile,
  SecretNotStoredError,
  checkApiKeyHeader,
  checkNewProfileName,
  checkProfileName,
  findProfile,
  meantProfile,
  loadProfiles,
  profilesPath,
  removeProfile,
  saveProfile,
  secretProblem,
  setDefaultProfile,
  clientConfigOf,
} from '../credentials/profiles';
import { readOnlyFromEnvironment } from '../api/readOnly';
import { sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';
import { shellWord } from '../terminal/shell';
import { systemErrorWords } from '../terminal/systemError';
import { type CommandContext, EXIT, type ExitCode, contextFolder, printLines, proxyFor, reportUsage, stdoutIsTerminal } from './context';
import { signalExitCode } from '../terminal/signals';
import { chooseFormat, formatTable } from './output';
import { csvDocument } from '../format/csv';
import { type TerminalIn, readHiddenLine, readLines } from './terminalInput';
import { type Command, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { type CommandHost, examples, prose, oneOf, type OptionsOf } from './define';

/** `profile add`'s flags (its options' type is read from them: see OptionsOf). */
const profileAddFlags = (command: Command) =>
  command
    .option('--api-key-header <header>', 'header carrying the API key (default X-MEXC-APIKEY)')
    .option(
      '--post-signature <rule>',
      "what a create's signature covers: auto (default: query only, then query + body once on a 700002), query or body",
      oneOf(POST_SIGNATURES),
    )
    // The older spelling of --post-signature query, kept working for scripts.
    .addOption(new Option('--no-sign-body').hideHelp())
    .option('--color <name>', `colour of its name in the console's header: ${PROFILE_COLORS.join(', ')} (default: the LIVE badge's red)`, oneOf(PROFILE_COLORS))
    .option('--default', 'make it the default profile (the first profile always is)')
    .option('--no-check', 'save without first checking the credentials against the service (offline setup)');

/** As parsed; a run from the tests may leave any out (a negated flag's default is true). */
type ProfileAddOptions = Partial<OptionsOf<typeof profileAddFlags>>;

/** How long a signal during a profile's save waits for the keychain and the settings to be written. */
const SAVE_GRACE_MS = 5000;

/** The keychain as this config folder sees it: its own entries (account = name@folder). */
function keychainOf(ctx: CommandContext): () => Promise<FolderKeychain> {
  const open = ctx.keychain ?? (() => openKeychain());
  return async () => folderKeychain(await open(), contextFolder(ctx));
}

function asProblem(error: unknown): KeychainProblem {
  if (error instanceof KeychainError) return error.problem;
  return problem('failed', error instanceof Error ? error.message : String(error));
}

/** Why a profile file could not be written, in words (a system error's, or the first line of another). */
function fileProblem(error: unknown): string {
  return systemErrorWords(error) ?? firstLineOf(error);
}

/** "error: <first line>" then the line saying what to do. */
function reportProblem(ctx: CommandContext, found: KeychainProblem, prefix = ''): void {
  const [first = '', ...rest] = found.message.split('\n');
  printLines(ctx.stderr, [`error: ${prefix}${first}`, ...rest]);
}

async function loadOrReport(ctx: CommandContext): Promise<ProfileConfig | undefined> {
  try {
    return await loadProfiles(contextFolder(ctx));
  } catch (error) {
    printLines(ctx.stderr, [`error: ${firstLineOf(error)}`]);
    return undefined;
  }
}

/** The API key and secret: hidden prompts on a terminal, else the first two lines of stdin. */
async function readCredentials(
  ctx: CommandContext,
): Promise<{ ok: true; apiKey: string; secretKey: string } | { ok: false; code: ExitCode; message?: string }> {
  const stdin: TerminalIn = ctx.stdin ?? process.stdin;
  if (stdin.isTTY === true && typeof stdin.setRawMode === 'function') {
    const key = await readHiddenLine(stdin, ctx.stderr, 'API key (not shown): ');
    if (!key.ok) return key.reason === 'interrupted' ? { ok: false, code: EXIT.interrupted } : { ok: false, code: EXIT.usage, message: 'no API key entered' };
    const secret = await readHiddenLine(stdin, ctx.stderr, 'Secret key (not shown): ');
    if (!secret.ok)
      return secret.reason === 'interrupted' ? { ok: false, code: EXIT.interrupted } : { ok: false, code: EXIT.usage, message: 'no secret entered' };
    return { ok: true, apiKey: key.value.trim(), secretKey: secret.value.trim() };
  }
  const lines = await readLines(stdin, 2);
  if (lines.length < 2) {
    return {
      ok: false,
      code: EXIT.usage,
      message: 'stdin is not a terminal: give the API key on its first line and the secret on its second (e.g. from a password manager)',
    };
  }
  return { ok: true, apiKey: (lines[0] ?? '').trim(), secretKey: (lines[1] ?? '').trim() };
}

export async function runProfileAdd(rawName: string, options: ProfileAddOptions, ctx: CommandContext): Promise<ExitCode> {
  const name = checkProfileName(rawName);
  if (!name.ok) return reportUsage(ctx, name.message);
  if (ctx.globals.baseUrl === undefined || ctx.globals.baseUrl.trim() === '') {
    return reportUsage(ctx, `--base-url URL is required: broker-console profile add ${name.value} --base-url https://api.example.com`);
  }
  const base = checkBaseUrl(ctx.globals.baseUrl);
  if (!base.ok) return reportUsage(ctx, `--base-url: ${base.reason}`);
  const header = checkApiKeyHeader(options.apiKeyHeader ?? PROFILE_DEFAULTS.apiKeyHeader);
  if (!header.ok) return reportUsage(ctx, `--api-key-header: ${headerNameProblem(options.apiKeyHeader ?? '') ?? header.message}`);
  if (options.signBody === false && options.postSignature !== undefined && options.postSignature !== 'query') {
    return reportUsage(ctx, `--post-signature: ${options.postSignature} contradicts --no-sign-body (which means query)`);
  }
  const profile: Profile = {
    name: name.value,
    baseUrl: base.url,
    apiKeyHeader: header.value,
    recvWindow: ctx.globals.recvWindow ?? DEFAULT_RECV_WINDOW,
    postSignature: options.postSignature ?? (options.signBody === false ? 'query' : PROFILE_DEFAULTS.postSignature),
    // The global --read-only (or BROKER_READ_ONLY, which its help calls the same), given to `profile add`, saves
    // the profile read-only (as --base-url gives its URL).
    ...(ctx.globals.readOnly === true || readOnlyFromEnvironment(ctx.env) ? { readOnly: true } : {}),
    // So does the global --proxy: the profile's requests go through it.
    ...(ctx.globals.proxy !== undefined ? { proxy: ctx.globals.proxy.trim() } : {}),
    ...(options.color !== undefined ? { color: options.color } : {}),
  };
  const proxied = proxyFor(ctx, profile.baseUrl, profile);
  if (!proxied.ok) return EXIT.usage;

  const config = await loadOrReport(ctx);
  if (!config) return EXIT.usage;
  const fresh = checkNewProfileName(name.value, config);
  if (!fresh.ok) return reportUsage(ctx, fresh.message);
  // A re-add replaces every setting: read-only, the one that keeps keys from being made, is never dropped unsaid.
  if (findProfile(config, profile.name)?.readOnly === true && profile.readOnly !== true) {
    return reportUsage(
      ctx,
      `profile ${profile.name} is read-only: add --read-only to keep it so (a re-add replaces every setting), or \`broker-console profile remove ${shellWord(profile.name)}\` first to add it with full access; nothing was saved`,
    );
  }

  // Reach the keychain before asking for anything: a missing Secret Service is said before a secret is typed.
  let keychain: FolderKeychain;
  try {
    keychain = await keychainOf(ctx)();
  } catch (error) {
    reportProblem(ctx, asProblem(error));
    return EXIT.usage;
  }
  try {
    await keychain.get(name.value);
  } catch (error) {
    const found = asProblem(error);
    // An old entry that cannot be read is replaced below; a keychain that cannot be reached stops here.
    if (found.kind !== 'failed') {
      reportProblem(ctx, found);
      return EXIT.usage;
    }
  }

  const read = await readCredentials(ctx);
  if (!read.ok) {
    if (read.code === EXIT.interrupted) printLines(ctx.stderr, ['interrupted: nothing was saved']);
    else if (read.message) printLines(ctx.stderr, [`error: ${read.message}`]);
    return read.code;
  }
  // The rules of the client and the environment (api/headers.ts) and of the console's form.
  const invalid = apiKeyProblem(read.apiKey) ?? secretProblem(read.secretKey);
  if (invalid) return reportUsage(ctx, `${invalid}; nothing was saved`);

  // The same signed request the console's add-profile form sends: wrong credentials are never stored.
  if (options.check !== false) {
    if (ctx.stderrIsTTY) printLines(ctx.stderr, [`checking the API key and secret against ${profile.baseUrl}…`]);
    const checked = await checkCredentials(
      { ...clientConfigOf(profile, read.apiKey, read.secretKey), ...(proxied.proxy ? { proxy: proxied.proxy } : {}) },
      { ...(ctx.globals.timeoutMs !== undefined ? { timeoutMs: ctx.globals.timeoutMs } : {}), createApi: ctx.createApi },
    );
    if (!checked.ok) {
      printLines(ctx.stderr, [
        `error: ${checked.message}`,
        `nothing was saved${checked.reason === 'unreachable' || checked.reason === 'unverified' ? ' (to save it without checking, for offline setup: --no-check)' : ''}`,
      ]);
      return EXIT.failure;
    }
    if (checked.notice) printLines(ctx.stderr, [`note: ${checked.notice}`]);
  }

  // The secret first, under the settings' lock: if the keychain refuses, nothing is left behind. Whether an entry
  // was there is asked under the lock too: a remove of the same name may have run since the check above.
  let previous = false;
  let old: StoredCredentials | undefined;
  /** The keychain is being written (a signal then waits for the save to end). */
  let secretTouched = false;
  let settingsWritten = false;
  const secret = {
    store: async () => {
      try {
        old = await keychain.get(profile.name);
        previous = old !== undefined;
      } catch {
        // An entry that cannot be read counts as one: an undo then leaves the new one (the old cannot be put back).
        previous = true;
      }
      secretTouched = true;
      await keychain.set(profile.name, { apiKey: read.apiKey, secretKey: read.secretKey });
    },
    written: () => {
      settingsWritten = true;
    },
    // The settings could not be written: the keychain goes back to what it held, so the old settings keep their secret.
    undo: async () => (old !== undefined ? keychain.set(profile.name, old) : previous ? false : keychain.remove(profile.name)),
  };
  let saved: SavedProfile;
  // A signal while the keychain or the settings are being written: both are let finish (the save puts the keychain
  // back itself if the settings fail), so the secret and the settings never part; only a keychain that does not
  // answer is left, and said.
  let saving: Promise<unknown> = Promise.resolve();
  const stopSignals = ctx.onInterrupt?.(async (signal) => {
    const settled = await Promise.race([
      saving.then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), SAVE_GRACE_MS)),
    ]);
    if (settled && settingsWritten) return EXIT.ok;
    if (settled) return EXIT.failure;
    if (secretTouched)
      printLines(ctx.stderr, [
        `interrupted (${signal}) while the keychain was being written: profile ${profile.name}'s entry may hold the new secret beside the old settings; check with \`broker-console profile list\` and add the profile again`,
      ]);
    else printLines(ctx.stderr, [`interrupted (${signal}): nothing was saved`]);
    return signalExitCode(signal);
  });
  try {
    const save = saveProfile(contextFolder(ctx), profile, { makeDefault: options.default === true, secret });
    saving = save;
    saved = await save;
  } catch (error) {
    stopSignals?.();
    if (error instanceof SecretNotStoredError) {
      reportProblem(ctx, asProblem(error.cause));
      printLines(ctx.stderr, ['nothing was saved']);
      return EXIT.usage;
    }
    printLines(ctx.stderr, [`error: the profile could not be saved to ${profilesPath(contextFolder(ctx))}: ${fileProblem(error)}`, 'nothing was saved']);
    return EXIT.failure;
  }
  stopSignals?.();
  // What the locked save saw, not the profiles read before the check: another add may have run meanwhile.
  const marks = [
    ...(saved.isDefault ? ['default'] : []),
    ...(profile.readOnly === true ? ['read-only'] : []),
    ...(profile.color !== undefined ? [`shown ${profile.color}`] : []),
  ];
  printLines(ctx.stdout, [
    `${previous || saved.replaced ? 'updated' : 'added'} profile ${profile.name}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}: ${profile.baseUrl}${profile.proxy !== undefined ? ` through the proxy ${showProxyUrl(profile.proxy)}` : ''}, ` +
      `API key ${shortenApiKey(read.apiKey)}; the secret is in the keychain (service ${KEYCHAIN_SERVICE}, account ${keychainAccount(profile.name, contextFolder(ctx))})`,
  ]);
  if (envValue(ctx.env, ENV.apiKey) !== undefined || envValue(ctx.env, ENV.secret) !== undefined) {
    printLines(ctx.stderr, [`note: ${ENV.apiKey}/${ENV.secret} are set and take precedence over any profile`]);
  }
  return EXIT.ok;
}

type SecretSource = 'keychain' | 'keychain-missing' | 'keychain-unavailable' | 'environment';

interface ListedProfile {
  name: string;
  default: boolean;
  baseUrl: string;
  apiKeyHeader: string;
  recvWindow: number;
  /** auto, query or body: what a create's signature covers. */
  postSignature: PostSignature;
  /** Creating keys is refused through this profile (`profile add --read-only`). */
  readOnly: boolean;
  /** Shortened (mx0v…a1b2), never whole. */
  apiKey: string | null;
  secret: SecretSource;
  /** What the secret column shows. */
  secretNote: string;
  /** The profile's proxy (`profile add --proxy`), without a password; empty when it has none. Last: added after the shape was documented. */
  proxy: string;
  /** Its colour in the console's header (`profile add --color`); empty when it has none (the LIVE badge's red). */
  color: string;
}

const SHORT_PROBLEM: Record<KeychainProblemKind, string> = {
  'not-built': 'keychain module not installed',
  'no-dbus': 'no D-Bus session',
  'no-secret-service': 'no Secret Service',
  'no-keyring': 'no login keyring',
  locked: 'locked',
  'missing-entry': 'entry missing',
  failed: 'failed',
};

/** `profile list --format csv`: these columns (the JSON objects have the same fields, in this order). */
const PROFILE_CSV_COLUMNS = [
  'name',
  'default',
  'baseUrl',
  'apiKeyHeader',
  'recvWindow',
  'postSignature',
  'readOnly',
  'apiKey',
  'secret',
  'secretNote',
  'proxy',
  'color',
] as const;

/** `profile list`'s flags. */
const profileListFlags = (command: Command) =>
  command.option('-o, --format <format>', 'table, json (an array) or csv (default: table)').option('--json', 'short for --format json');

type ProfileListOptions = OptionsOf<typeof profileListFlags>;

export async function runProfileList(options: ProfileListOptions, ctx: CommandContext): Promise<ExitCode> {
  const chosen = chooseFormat(options);
  if (!chosen.ok) return reportUsage(ctx, chosen.message);
  const config = await loadOrReport(ctx);
  if (!config) return EXIT.usage;
  const envKey = envValue(ctx.env, ENV.apiKey);
  const fromEnv = envKey !== undefined && envValue(ctx.env, ENV.secret) !== undefined;
  // What a run would use: BROKER_POST_SIGNATURE overrides each profile's setting (an unreadable value is not shown).
  const envPostSignature = parsePostSignature(envValue(ctx.env, ENV.postSignature) ?? '');
  let keychain: FolderKeychain | undefined;
  let unavailable: KeychainProblem | undefined;
  // Listing the keychain's accounts waits for a read that proved the keyring open (a locked one is not asked).
  let readOne = false;
  const listed: ListedProfile[] = [];
  for (const p of config.profiles) {
    const row: ListedProfile = {
      name: p.name,
      default: p.name === config.defaultProfile,
      baseUrl: p.baseUrl,
      apiKeyHeader: p.apiKeyHeader,
      recvWindow: p.recvWindow,
      postSignature: envPostSignature ?? p.postSignature,
      readOnly: p.readOnly === true,
      apiKey: null,
      secret: 'keychain',
      secretNote: 'keychain',
      proxy: p.proxy === undefined ? '' : showProxyUrl(p.proxy),
      color: p.color ?? '',
    };
    if (fromEnv) {
      row.secret = 'environment';
      row.secretNote = `environment (${ENV.apiKey}/SECRET set)`;
      row.apiKey = shortenApiKey(envKey);
    } else if (!unavailable) {
      try {
        keychain ??= await keychainOf(ctx)();
        const stored = await keychain.get(p.name);
        if (stored) {
          row.apiKey = shortenApiKey(stored.apiKey);
          readOne = true;
        } else {
          row.secret = 'keychain-missing';
          row.secretNote = 'keychain: entry missing';
        }
      } catch (error) {
        const found = asProblem(error);
        if (found.kind === 'failed' && keychain) {
          row.secret = 'keychain-unavailable';
          row.secretNote = 'keychain: entry unreadable';
        } else unavailable = found;
      }
    }
    if (unavailable) {
      row.secret = 'keychain-unavailable';
      row.secretNote = `keychain unavailable: ${SHORT_PROBLEM[unavailable.kind]}`;
    }
    listed.push(row);
  }
  let unowned: UnownedEntry[] = [];
  let unlisted: string | undefined;
  if (keychain && readOne && !unavailable) {
    try {
      unowned = (await keychain.unowned(config.profiles.map((p) => p.name))) ?? [];
    } catch (error) {
      unlisted = asProblem(error).message.split('\n')[0] ?? '';
    }
  }
  if (chosen.format === 'json') {
    // Names and URLs come from a file: exact (escaped) in JSON, sanitised when stdout is a terminal.
    ctx.stdout.write(`${toJson(stdoutIsTerminal(ctx) ? sanitizeDeep(listed) : listed, 2)}\n`);
  } else if (chosen.format === 'csv') {
    const rows = listed.map((r) => [
      r.name,
      String(r.default),
      r.baseUrl,
      r.apiKeyHeader,
      String(r.recvWindow),
      r.postSignature,
      String(r.readOnly),
      r.apiKey ?? '',
      r.secret,
      r.secretNote,
      r.proxy,
      r.color,
    ]);
    ctx.stdout.write(csvDocument(PROFILE_CSV_COLUMNS, rows, { terminal: stdoutIsTerminal(ctx), numeric: ['recvWindow'] }));
  } else if (listed.length === 0) {
    printLines(ctx.stdout, [`no profiles: add one with \`broker-console profile add NAME --base-url URL\``]);
  } else {
    // formatTable sanitises every cell (profiles.json is outside text).
    ctx.stdout.write(
      await formatTable(
        [
          { header: ' ' },
          { header: 'name' },
          { header: 'access' },
          { header: 'base URL' },
          { header: 'POST signing' },
          { header: 'API key' },
          { header: 'secret' },
        ],
        listed.map((r) => [
          r.default ? '*' : ' ',
          r.name,
          r.readOnly ? 'read-only' : 'full',
          r.proxy === '' ? r.baseUrl : `${r.baseUrl} via ${r.proxy}`,
          r.postSignature,
          r.apiKey ?? '-',
          r.secretNote,
        ]),
      ),
    );
  }
  if (unowned.length > 0) {
    // Not part of the JSON or CSV document (its shape stays the same): said beside it.
    const out = chosen.format === 'table' ? ctx.stdout : ctx.stderr;
    printLines(out, [
      `${chosen.format === 'table' ? '' : 'note: '}keychain entries no profile owns (remove with \`broker-console profile remove NAME\`):`,
      ...unowned.map(
        (e) =>
          `  ${sanitize(e.profile, 64)}  ${e.old ? 'old entry, of no folder (from before entries named their config folder)' : `account ${sanitize(e.account, 200)}`}`,
      ),
    ]);
  }
  if (unlisted !== undefined) {
    printLines(ctx.stderr, [`note: keychain entries no profile owns cannot be shown: ${sanitize(unlisted, 200)}`]);
  }
  if (unavailable) {
    const [first = '', ...rest] = unavailable.message.split('\n');
    printLines(ctx.stderr, [`note: ${first}`, ...rest]);
  }
  return EXIT.ok;
}

/**
 * Settings first, keychain entry after, both under the settings' lock: a failed settings write (a full disk)
 * leaves both parts as they were, so the profile still works; a keychain entry that cannot be removed after the
 * settings are gone is said, naming where it is (an orphan secret is recoverable, a profile without its secret is not).
 */
export async function runProfileRemove(rawName: string, ctx: CommandContext): Promise<ExitCode> {
  const name = checkProfileName(rawName);
  if (!name.ok) return reportUsage(ctx, name.message);
  if (!(await loadOrReport(ctx))) return EXIT.usage;

  // Reached before the lock is taken: loading the keychain is slow, and a keychain that cannot be reached still
  // lets the settings go (said below).
  let keychain: FolderKeychain | undefined;
  let keychainProblem: KeychainProblem | undefined;
  try {
    keychain = await keychainOf(ctx)();
  } catch (error) {
    keychainProblem = asProblem(error);
  }
  // What the lock found: another process may have added or removed the profile since it was read above.
  let saved = false;
  let config: ProfileConfig = { profiles: [] };
  let secretRemoved = false;
  let oldRemoved = false;
  try {
    // The keychain entry goes under the settings' lock: an add of the same name waits, and keeps its secret.
    await removeProfile(contextFolder(ctx), name.value, async (removed, found) => {
      saved = removed;
      config = found;
      if (!keychain) return;
      try {
        secretRemoved = await keychain.remove(name.value);
        // No profile and no entry of this folder: an old entry of no folder is what `profile list` showed.
        if (!saved && !secretRemoved) oldRemoved = await keychain.removeOld(name.value);
      } catch (error) {
        keychainProblem = asProblem(error);
      }
    });
  } catch (error) {
    printLines(ctx.stderr, [
      `error: the profile could not be removed from ${profilesPath(contextFolder(ctx))}: ${fileProblem(error)}`,
      `nothing was changed: profile ${name.value} and its keychain entry are as they were`,
    ]);
    return EXIT.failure;
  }
  if (oldRemoved) {
    printLines(ctx.stdout, [`removed the old keychain entry ${name.value} (of no folder; there was no such profile)`]);
    return EXIT.ok;
  }
  if (!saved && !secretRemoved) {
    const known = config.profiles.map((p) => p.name).join(', ');
    const meant = meantProfile(name.value, config);
    return reportUsage(
      ctx,
      `no profile named '${name.value}'${meant === undefined ? '' : `: did you mean ${meant}?`}${known === '' ? ' (there are no profiles)' : ` (profiles: ${known})`}`,
    );
  }
  if (keychainProblem) {
    printLines(ctx.stdout, [`removed profile ${name.value}'s settings`]);
    reportProblem(
      ctx,
      keychainProblem,
      `its keychain entry (service ${KEYCHAIN_SERVICE}, account ${keychainAccount(name.value, contextFolder(ctx))}) could not be removed: `,
    );
    return EXIT.failure;
  }
  const parts =
    saved && secretRemoved
      ? 'settings and keychain entry'
      : saved
        ? 'settings; no keychain entry was found (a locked keyring finds none: check `profile list` once it is unlocked)'
        : 'keychain entry; it had no settings';
  printLines(ctx.stdout, [`removed profile ${name.value} (${parts})`]);
  if (saved && config.defaultProfile === name.value && config.profiles.length > 1) {
    printLines(ctx.stderr, ['note: there is no default profile now: choose one with `broker-console profile use NAME`']);
  }
  return EXIT.ok;
}

export async function runProfileUse(rawName: string, ctx: CommandContext): Promise<ExitCode> {
  const name = checkProfileName(rawName);
  if (!name.ok) return reportUsage(ctx, name.message);
  const config = await loadOrReport(ctx);
  if (!config) return EXIT.usage;
  if (!findProfile(config, name.value)) {
    const known = config.profiles.map((p) => p.name).join(', ');
    const meant = meantProfile(name.value, config);
    return reportUsage(
      ctx,
      `no profile named '${name.value}'${meant === undefined ? '' : `: did you mean ${meant}?`}${known === '' ? ' (there are no profiles yet)' : ` (profiles: ${known})`}`,
    );
  }
  try {
    await setDefaultProfile(contextFolder(ctx), name.value);
  } catch (error) {
    printLines(ctx.stderr, [
      `error: the default could not be saved to ${profilesPath(contextFolder(ctx))}: ${fileProblem(error)}`,
      `nothing was changed: ${config.defaultProfile === undefined ? 'there is still no default' : `the default is still ${config.defaultProfile}`}`,
    ]);
    return EXIT.failure;
  }
  printLines(ctx.stdout, [`default profile: ${name.value}`]);
  return EXIT.ok;
}

export function defineProfile(program: Command, host: CommandHost): CommandUnknownOpts {
  const profile = program.command('profile').description('saved profiles: settings in the config folder, the API key and secret in the keychain');
  profileAddFlags(profile.command('add').description('save a profile; asks for the API key and secret (not shown), or reads them from two stdin lines'))
    .argument('<name>', '1-64 letters, digits, ".", "_" or "-"')
    .addHelpText(
      'after',
      prose(
        '\nTakes the global --base-url URL (required), --recv-window MS and --proxy URL (saved in the profile; no password).\n' +
          'On a terminal the API key and secret are asked for without echo; otherwise stdin gives the API key on its\n' +
          'first line and the secret on its second.\n' +
          "They are checked first with one signed request (as the console's form does): if the service rejects them or\n" +
          'cannot be reached, nothing is saved (exit 1). Then the secret goes to the keychain (service broker-console,\n' +
          'account NAME@CONFIG-FOLDER), then the settings. With the global --read-only the profile is saved read-only: nothing that\n' +
          'changes something (creating a key) is ever sent through it, in the console or by a command.',
      ),
    )
    .addHelpText(
      'after',
      examples('profile add prod --base-url https://api.mexc.com --color red', '--read-only profile add watch --base-url https://api.mexc.com'),
    )
    .action(async (name, options) => {
      host.exit(await runProfileAdd(name, options, host.context()));
    });
  profileListFlags(profile.command('list').description('the saved profiles and where each secret comes from (never the secret)'))
    .addHelpText('after', examples('profile list --json'))
    .action(async (options) => {
      host.exit(await runProfileList(options, host.context()));
    });
  profile
    .command('remove')
    .description('remove a profile: its settings and its keychain entry')
    .argument('<name>')
    .addHelpText('after', examples('profile remove old'))
    .action(async (name: string) => {
      host.exit(await runProfileRemove(name, host.context()));
    });
  profile
    .command('use')
    .description('make a profile the default')
    .argument('<name>')
    .addHelpText('after', examples('profile use prod'))
    .action(async (name: string) => {
      host.exit(await runProfileUse(name, host.context()));
    });
  return profile;
}
