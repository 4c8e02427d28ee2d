// The secret half of a profile, in the operating system's keychain through keytar (DESIGN §2, §5):
// service 'broker-console', account = profile name, password = JSON {apiKey, secretKey}.
// keytar is a native addon loaded lazily, only when a profile's secret is needed, so the demo, the
// sandbox and commands run on environment credentials work where it is not built.
// Every failure becomes a KeychainError whose message says, in one or two lines, what is wrong and what
// to do. Nothing ever falls back to a plain-text file.

export const KEYCHAIN_SERVICE = 'broker-console';

export type KeychainProblemKind = 'not-built' | 'no-dbus' | 'no-secret-service' | 'locked' | 'missing-entry' | 'failed';

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
}

export class KeychainError extends Error {
  readonly problem: KeychainProblem;
  constructor(problem: KeychainProblem) {
    super(problem.message);
    this.name = 'KeychainError';
    this.problem = problem;
  }
}

/** The part of keytar this module uses (findCredentials is avoided: it crashes on a locked keyring). */
export interface KeytarLike {
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

export function problem(kind: KeychainProblemKind, detail = '', profile = ''): KeychainProblem {
  switch (kind) {
    case 'not-built':
      return {
        kind,
        message:
          `the keychain cannot be used: keytar (the native keychain module) is not installed or not built${detail === '' ? '' : ` (${firstLine(detail, 100)})`}\n` +
          `install libsecret-1-dev and run \`npm rebuild keytar\`, ${USE_ENV}`,
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
    case 'locked':
      return {
        kind,
        message:
          'the keychain is locked\n' +
          `unlock the login keyring (log in to the desktop, or \`gnome-keyring-daemon --unlock\`), ${USE_ENV}`,
      };
    case 'missing-entry':
      return {
        kind,
        message:
          `the keychain has no entry for profile '${profile}' (or the login keyring is locked)\n` +
          `store it again with \`broker-console profile add ${profile || 'NAME'} --base-url URL\`, unlock the keyring, ${USE_ENV}`,
      };
    case 'failed':
      return {
        kind,
        message: `the keychain failed: ${firstLine(detail) || 'unknown error'}\n${USE_ENV}`,
      };
  }
}

/** Maps keytar/libsecret error text to a problem (messages observed on Linux with libsecret, see the tests). */
export function classifyKeytarError(error: unknown, profile = ''): KeychainProblem {
  const text = errorText(error);
  if (/autolaunch D-Bus|dbus-launch|Could not connect|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket|Connection refused|no such file or directory/i.test(text)) {
    return problem('no-dbus', text);
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files/i.test(text)) return problem('no-secret-service', text);
  if (/locked/i.test(text)) return problem('locked', text);
  if (/cancel+ed|dismissed/i.test(text)) return problem('locked', text);
  return problem('failed', text, profile);
}

let cached: Promise<KeytarLike> | undefined;

/** keytar, loaded on first use (outside the bundle: it is a native addon). */
export function loadKeytar(): Promise<KeytarLike> {
  cached ??= (async () => {
    const mod: { default?: KeytarLike } & Partial<KeytarLike> = await import('keytar');
    const keytar = mod.default ?? mod;
    if (typeof keytar.getPassword !== 'function' || typeof keytar.setPassword !== 'function' || typeof keytar.deletePassword !== 'function') {
      throw new Error('keytar loaded without its functions');
    }
    return keytar as KeytarLike;
  })();
  // A failed load is not cached: the next try (e.g. after `npm rebuild keytar`) loads again.
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
      guard(profile, () =>
        keytar.setPassword(KEYCHAIN_SERVICE, profile, JSON.stringify({ apiKey: credentials.apiKey, secretKey: credentials.secretKey })),
      ),
    remove: (profile) => guard(profile, () => keytar.deletePassword(KEYCHAIN_SERVICE, profile)),
  };
}
