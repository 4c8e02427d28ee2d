// The secret half of a profile, in the operating system's keychain through @github/keytar (the maintained
// fork of keytar: the same API and the same entries): service 'broker-console', account = `<profile>@<config
// folder>` (folderKeychain below), password = JSON {apiKey, secretKey}.
// The addon is loaded lazily, only when a profile's secret is needed, so the demo, the sandbox and commands
// run on environment credentials work where it cannot load.
// Every failure becomes a KeychainError whose message says, in one or two lines, what is wrong and what
// to do. Nothing ever falls back to a plain-text file.

import { resolve } from 'node:path';

export const KEYCHAIN_SERVICE = 'broker-console';

/** The npm package of the keychain addon (an optional dependency, outside the bundle). */
const KEYTAR_PACKAGE = '@github/keytar';

export type KeychainProblemKind = 'not-built' | 'no-dbus' | 'no-secret-service' | 'no-keyring' | 'locked' | 'missing-entry' | 'failed';

export interface KeychainProblem {
  kind: KeychainProblemKind;
  /** One or two lines: what is wrong, then what to do. Never a secret. */
  message: string;
}

export interface StoredCredentials {
  apiKey: string;
  secretKey: string;
}

export interface Keychain {
  /** undefined when there is no entry for the profile (on Linux a locked keyring also answers nothing). */
  get(profile: string): Promise<StoredCredentials | undefined>;
  set(profile: string, credentials: StoredCredentials): Promise<void>;
  /** False when there was no entry. */
  remove(profile: string): Promise<boolean>;
  /** Every account of the service (no passwords kept); absent where it cannot be listed. */
  accounts?(): Promise<string[]>;
}

export class KeychainError extends Error {
  readonly problem: KeychainProblem;
  constructor(problem: KeychainProblem) {
    super(problem.message);
    this.name = 'KeychainError';
    this.problem = problem;
  }
}

/** The part of keytar this module uses; findCredentials only in a child process (listAccounts). */
interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

// Spelled out (not imported from fromEnvironment) so this module stays free of import cycles.
const USE_ENV = 'or set BROKER_API_KEY and BROKER_API_SECRET (with BROKER_BASE_URL) instead';

function firstLine(text: string, max = 160): string {
  const line = (text.split('\n')[0] ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `restore`: the command that stores the profile's secret again with its settings (profileAddCommand). */
export function problem(kind: KeychainProblemKind, detail = '', profile = '', restore = ''): KeychainProblem {
  switch (kind) {
    case 'not-built':
      return {
        kind,
        message:
          `the keychain cannot be used: ${KEYTAR_PACKAGE} (the native keychain module) is not installed or cannot load${detail === '' ? '' : ` (${firstLine(detail, 100)})`}\n` +
          `${loadFix(process.platform, process.arch, detail)}, ${USE_ENV}`,
      };
    case 'no-dbus':
      return {
        kind,
        message:
          `the keychain cannot be reached: there is no D-Bus session${detail === '' ? '' : ` (${firstLine(detail, 100)})`}\n` +
          `run inside a desktop login or \`dbus-run-session\` with a Secret Service such as gnome-keyring, ${USE_ENV}`,
      };
    case 'no-secret-service':
      return {
        kind,
        message:
          'the keychain cannot be reached: no Secret Service is running on the D-Bus session\n' +
          `install and start one (e.g. \`apt-get install gnome-keyring\`), ${USE_ENV}`,
      };
    case 'no-keyring':
      return {
        kind,
        message:
          'the keychain has no login keyring to keep secrets in (a Secret Service runs, with no default collection)\n' +
          `log in to the desktop once, or headless start \`gnome-keyring-daemon --unlock\` (a password on its stdin) inside the D-Bus session, ${USE_ENV}`,
      };
    case 'locked':
      return {
        kind,
        message: 'the keychain is locked\n' + `unlock the login keyring (log in to the desktop, or \`gnome-keyring-daemon --unlock\`), ${USE_ENV}`,
      };
    case 'missing-entry':
      return {
        kind,
        message:
          `the keychain has no entry for profile '${profile}' (or the login keyring is locked)\n` +
          `store it again with \`${restore || `broker-console profile add ${profile || 'NAME'} --base-url URL`}\`, unlock the keyring, ${USE_ENV}`,
      };
    case 'failed':
      return {
        kind,
        message: `the keychain failed: ${firstLine(detail) || 'unknown error'}\n${USE_ENV.replace(/^or set/, 'set')}`,
      };
  }
}

/** Platforms whose binary comes inside @github/keytar (its prebuilds folder): no compiler needed there. */
const PREBUILT = new Set([
  'darwin-arm64',
  'darwin-x64',
  'linux-arm',
  'linux-arm64',
  'linux-armv7l',
  'linux-ia32',
  'linux-x64',
  'win32-arm64',
  'win32-ia32',
  'win32-x64',
]);

/** What makes the addon load on this platform: npm removed a failed optional dependency, so a rebuild finds nothing. */
export function loadFix(platform: string, arch: string, detail = ''): string {
  const reinstall = `reinstall broker-console with \`npm install -g --allow-scripts=${KEYTAR_PACKAGE} broker-console\``;
  const build = !PREBUILT.has(`${platform}-${arch}`)
    ? `there is no prebuilt binary for ${platform}-${arch}: install a C++ compiler, python3 and libsecret-1-dev, then `
    : '';
  if (platform === 'linux') {
    const runtime =
      /libsecret|libglib|libgio|\.so(\.\d+)*:/.test(detail) || build === ''
        ? 'install the libsecret runtime (libsecret-1-0) and a Secret Service (gnome-keyring), then '
        : '';
    return `${runtime}${build}${reinstall}`;
  }
  return `${build}${reinstall}`;
}

/** Maps keytar/libsecret error text to a problem (messages observed on Linux with libsecret, see the tests). */
export function classifyKeytarError(error: unknown, profile = ''): KeychainProblem {
  const text = errorText(error);
  if (
    /autolaunch D-Bus|dbus-launch|Could not connect|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket|Connection refused|no such file or directory/i.test(
      text,
    )
  ) {
    return problem('no-dbus', text);
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files/i.test(text)) return problem('no-secret-service', text);
  // A Secret Service with no keyring made yet (no desktop login): libsecret finds no default collection.
  if (/Object does not exist at path .?\/org\/freedesktop\/secrets\/(collection|aliases)\//i.test(text)) return problem('no-keyring', text);
  if (/locked/i.test(text)) return problem('locked', text);
  if (/cancel+ed|dismissed/i.test(text)) return problem('locked', text);
  return problem('failed', text, profile);
}

let cached: Promise<KeytarLike> | undefined;

/** @github/keytar, loaded on first use (outside the bundle: it is a native addon). */
function loadKeytar(): Promise<KeytarLike> {
  cached ??= (async () => {
    const mod: { default?: KeytarLike } & Partial<KeytarLike> = await import('@github/keytar');
    const keytar = mod.default ?? mod;
    if (typeof keytar.getPassword !== 'function' || typeof keytar.setPassword !== 'function' || typeof keytar.deletePassword !== 'function') {
      throw new Error('keytar loaded without its functions');
    }
    return keytar as KeytarLike;
  })();
  // A failed load is not cached: the next try (e.g. after a reinstall) loads again.
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

function parseEntry(profile: string, text: string): StoredCredentials {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const { apiKey, secretKey } = value as Record<string, unknown>;
    if (typeof apiKey === 'string' && typeof secretKey === 'string' && apiKey !== '' && secretKey !== '') return { apiKey, secretKey };
  }
  throw new KeychainError({
    kind: 'failed',
    message:
      `the keychain entry for profile '${profile}' is not in the form this program writes\n` +
      `store it again with \`broker-console profile add ${profile} --base-url URL\`, ${USE_ENV}`,
  });
}

/**
 * The keychain, or a KeychainError('not-built') when keytar cannot be loaded. The loader is replaceable
 * for tests of the not-built path only; everything else runs against the real keychain.
 */
export async function openKeychain(load: () => Promise<KeytarLike> = loadKeytar): Promise<Keychain> {
  let keytar: KeytarLike;
  try {
    keytar = await load();
  } catch (error) {
    throw new KeychainError(problem('not-built', errorText(error)));
  }
  const guard = async <T>(profile: string, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (error instanceof KeychainError) throw error;
      throw new KeychainError(classifyKeytarError(error, profile));
    }
  };
  return {
    get: (profile) =>
      guard(profile, async () => {
        const text = await keytar.getPassword(KEYCHAIN_SERVICE, profile);
        return text === null ? undefined : parseEntry(profile, text);
      }),
    set: (profile, credentials) =>
      guard(profile, () => keytar.setPassword(KEYCHAIN_SERVICE, profile, JSON.stringify({ apiKey: credentials.apiKey, secretKey: credentials.secretKey }))),
    remove: (profile) => guard(profile, () => keytar.deletePassword(KEYCHAIN_SERVICE, profile)),
    ...(load === loadKeytar ? { accounts: () => guard('', () => listAccountsRetrying()) } : {}),
  };
}

// findCredentials segfaults when an entry goes away while it reads (libsecret: "secret_value_get_text:
// assertion 'value' failed", reproduced with two processes here): it runs in a child, which keeps the
// passwords it reads and prints the account names only.
const LIST_ACCOUNTS = `const k=require(process.env.BC_KEYTAR);k.findCredentials(process.env.BC_SERVICE).then((c)=>process.stdout.write(JSON.stringify(c.map((e)=>e.account))),(e)=>{process.stderr.write(String(e&&e.message));process.exitCode=1})`;

/** Tries of a listing: its child dies when another process deletes an entry while it reads. */
const LIST_TRIES = 4;

async function listAccountsRetrying(): Promise<string[]> {
  for (let tried = 1; ; tried++) {
    try {
      return await listAccounts();
    } catch (error) {
      if (tried >= LIST_TRIES) throw error;
      await new Promise((done) => setTimeout(done, 50 * tried));
    }
  }
}

/** The accounts of the service, listed by a child process; throws when it fails or crashes. */
async function listAccounts(): Promise<string[]> {
  const { createRequire } = process.getBuiltinModule('node:module');
  const { execFile } = process.getBuiltinModule('node:child_process');
  // Resolved as loadKeytar's import() resolves it: from this module's own file (argv[1] may be npm's bin link,
  // in a folder with no node_modules of its own).
  const path = createRequire(import.meta.url).resolve(KEYTAR_PACKAGE);
  const env: NodeJS.ProcessEnv = { ...process.env, BC_KEYTAR: path, BC_SERVICE: KEYCHAIN_SERVICE };
  delete env.BROKER_API_SECRET;
  const out = await new Promise<string>((done, fail) => {
    execFile(process.execPath, ['-e', LIST_ACCOUNTS], { env, timeout: 10_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) fail(new Error(firstLine(String(stderr)) || (error.signal ? `listing the keychain's entries ended on ${error.signal}` : error.message)));
      else done(String(stdout));
    });
  });
  const accounts: unknown = JSON.parse(out);
  if (!Array.isArray(accounts)) throw new Error('listing the keychain gave no list');
  return accounts.filter((a): a is string => typeof a === 'string');
}

/**
 * The keychain account of a profile in a config folder: two folders with the same profile name never share
 * a secret. A profile name never holds "@" (checkProfileName), so the first "@" splits it again.
 */
export function keychainAccount(profile: string, folder: string): string {
  return `${profile}@${canonicalFolder(folder)}`;
}

/** The folder as the file system names it (links resolved): one folder reached by two paths is one folder. */
function canonicalFolder(folder: string): string {
  try {
    return process.getBuiltinModule('node:fs').realpathSync(folder);
  } catch {
    // Not made yet: as given, made absolute.
    return resolve(folder);
  }
}

/** A keychain entry that no profile of the folder owns: the folder's own, or one from before accounts named folders. */
export interface UnownedEntry {
  profile: string;
  account: string;
  /** Written before accounts named their folder: it may belong to any folder. */
  old: boolean;
}

export interface FolderKeychain extends Keychain {
  /** The folder's entries (and old, folderless ones) that none of `owned` claims; undefined when they cannot be listed. */
  unowned(owned: readonly string[]): Promise<UnownedEntry[] | undefined>;
  /** Removes an old, folderless entry of that name; false when there was none. */
  removeOld(profile: string): Promise<boolean>;
}

/**
 * The keychain of one config folder: a profile's entry is `<profile>@<folder>`. An entry from before (account =
 * bare profile name) is moved to this folder on its first read, only when no other folder has an entry of that
 * name already (then it cannot be told whose it is, and stays where it is).
 */
export function folderKeychain(raw: Keychain, folder: string): FolderKeychain {
  const account = (profile: string): string => keychainAccount(profile, folder);
  // The folder by the path it was reached through, when that is a link: entries written under it are this folder's.
  const linked = resolve(folder) !== canonicalFolder(folder) ? resolve(folder) : undefined;
  const linkedAccount = (profile: string): string | undefined => (linked === undefined ? undefined : `${profile}@${linked}`);
  const otherFolderHas = async (profile: string): Promise<boolean> => {
    // A listing that cannot be had (a crash of the child, a locked keyring) cannot tell: the old entry stays.
    const all = await raw.accounts?.().catch(() => undefined);
    if (all === undefined) return true;
    return all.some((a) => a.startsWith(`${profile}@`) && a !== account(profile));
  };
  return {
    async get(profile) {
      const own = await raw.get(account(profile));
      if (own !== undefined) return own;
      // Written through the link's path: moved to the folder's own name, as an old entry is.
      const viaLink = linkedAccount(profile);
      const underLink = viaLink === undefined ? undefined : await raw.get(viaLink);
      if (underLink !== undefined && viaLink !== undefined) {
        await raw.set(account(profile), underLink);
        await raw.remove(viaLink);
        return underLink;
      }
      const old = await raw.get(profile);
      if (old === undefined || (await otherFolderHas(profile))) return undefined;
      await raw.set(account(profile), old);
      await raw.remove(profile);
      return old;
    },
    set: (profile, credentials) => raw.set(account(profile), credentials),
    async remove(profile) {
      const removed = await raw.remove(account(profile));
      const viaLink = linkedAccount(profile);
      const removedLinked = viaLink === undefined ? false : await raw.remove(viaLink);
      return removed || removedLinked;
    },
    accounts: raw.accounts ? () => raw.accounts!() : undefined,
    async unowned(owned) {
      const all = await raw.accounts?.();
      if (all === undefined) return undefined;
      const suffixes = [`@${canonicalFolder(folder)}`, ...(linked === undefined ? [] : [`@${linked}`])];
      const entries: UnownedEntry[] = [];
      for (const a of all) {
        const at = a.indexOf('@');
        if (at < 0) {
          if (!owned.includes(a)) entries.push({ profile: a, account: a, old: true });
        } else if (suffixes.some((suffix) => a.endsWith(suffix) && a.length === at + suffix.length) && !owned.includes(a.slice(0, at))) {
          entries.push({ profile: a.slice(0, at), account: a, old: false });
        }
      }
      return entries.sort((x, y) => x.profile.localeCompare(y.profile));
    },
    removeOld: (profile) => raw.remove(profile),
  };
}
