// Profiles: the non-secret half of a target (name, base URL, API-key header, recvWindow, POST signature rule),
// kept in <configFolder>/profiles.json, written atomically and readable only by the user. The secret half
// (API key + secret) lives in the keychain (keychain.ts), never here.
import type { ClientConfig } from '../api/contract';
import { editDistance, likelyTypo } from '../api/didYouMean';
import { firstLineOf } from '../api/errors';
import { join } from 'node:path';
import * as v from 'valibot';
import { headerNameProblem } from '../api/headers';
import { explicitProxyProblem } from '../api/proxy';
import { DEFAULT_API_KEY_HEADER, DEFAULT_RECV_WINDOW, MAX_RECV_WINDOW, POST_SIGNATURES, type PostSignature } from '../api/signing';
import { readFileIfExists, writeFileAtomic } from '../config/atomicFile';
import { withFileLock } from '../config/fileLock';
import { checkBaseUrl } from './fromEnvironment';
import { shellWord } from '../terminal/shell';

export interface Profile {
  name: string;
  baseUrl: string;
  apiKeyHeader: string;
  recvWindow: number;
  /** What a create's signature covers: auto (default), or a pinned query / body rule (api/signing.ts). */
  postSignature: PostSignature;
  /** Nothing that changes something is sent through it (creating keys is refused); absent in older files: false. */
  readOnly?: boolean;
  /** The proxy its requests go through (http://host:port, a user name but never a password); absent: the environment's. */
  proxy?: string;
  /** The colour of its name in the console's header (`profile add --color`); absent: the LIVE badge's own. */
  color?: ProfileColor;
}

/** The colours a profile's name can take in the header: few enough to tell apart at a glance. */
export const PROFILE_COLORS = ['red', 'yellow', 'green', 'blue', 'magenta', 'cyan'] as const;
export type ProfileColor = (typeof PROFILE_COLORS)[number];

export function isProfileColor(word: string): word is ProfileColor {
  return (PROFILE_COLORS as readonly string[]).includes(word);
}

export interface ProfileConfig {
  defaultProfile?: string;
  profiles: Profile[];
}

export const PROFILES_FILE = 'profiles.json';
export const PROFILE_DEFAULTS = {
  apiKeyHeader: DEFAULT_API_KEY_HEADER,
  recvWindow: DEFAULT_RECV_WINDOW,
  postSignature: 'auto',
} as const satisfies Partial<Profile>;

export function profilesPath(folder: string): string {
  return join(folder, PROFILES_FILE);
}

/** A damaged or unreadable profiles.json: the message names the file and says what to do. */
export class ProfileConfigError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileConfigError';
  }
}

/** A profile name: safe in a file name, a keychain account and a shell's word list. */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export function checkProfileName(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim();
  if (value === '') return { ok: false, message: 'a profile name is required (1-64 letters, digits, ".", "_" or "-")' };
  if (!PROFILE_NAME.test(value)) {
    return { ok: false, message: `'${value.slice(0, 70)}' is not a profile name: use 1-64 letters, digits, ".", "_" or "-"` };
  }
  return { ok: true, value };
}

/** Names the program gives targets that are not saved profiles (the status bar, ctrl+p, the audit trail). */
const RESERVED_PROFILE_NAMES: ReadonlySet<string> = new Set(['demo', 'environment', 'session']);

/** The profile a name that is none is most likely a typo of (a short name is a couple of edits from any: no guess). */
export function meantProfile(name: string, config: ProfileConfig): string | undefined {
  const meant = likelyTypo(
    name,
    config.profiles.map((p) => p.name),
  );
  return meant !== undefined && editDistance(name, meant) * 2 < name.length ? meant : undefined;
}

/** Whether `name` is one the program gives a target that is not a saved profile. */
export function isReservedProfileName(name: string): boolean {
  return RESERVED_PROFILE_NAMES.has(name.trim().toLowerCase());
}

/**
 * checkProfileName, for a profile about to be added: not one of the names the program itself uses, unless a
 * profile of that name exists already (from before the rule; it can still be given its secret again, or removed).
 */
export function checkNewProfileName(raw: string, existing: ProfileConfig): { ok: true; value: string } | { ok: false; message: string } {
  const name = checkProfileName(raw);
  if (!name.ok || findProfile(existing, name.value) !== undefined) return name;
  // Two names that differ only in case read as one in a list, a header and the audit trail.
  const twin = existing.profiles.find((p) => p.name.toLowerCase() === name.value.toLowerCase());
  if (twin !== undefined)
    return { ok: false, message: `'${name.value}' differs from profile ${twin.name} only in case: choose another name, or use ${twin.name}` };
  if (isReservedProfileName(name.value))
    return { ok: false, message: `'${name.value}' is what the console calls a target that is not a saved profile: choose another name` };
  return name;
}

/** The longest secret taken: far above any real one, short of what would hide a pasted file. */
const MAX_SECRET = 1024;

/** What is wrong with a secret as entered (already trimmed), wherever it is entered: `profile add` or the console's form. */
export function secretProblem(value: string): string | undefined {
  if (value === '') return 'the secret is empty';
  if (value.length > MAX_SECRET) return `the secret is longer than ${MAX_SECRET} characters`;
  if (/\p{Cc}/u.test(value)) return 'the secret must not contain control characters';
  return undefined;
}

export function checkApiKeyHeader(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim();
  if (!HEADER.test(value)) return { ok: false, message: `'${value.slice(0, 70)}' is not an HTTP header name (e.g. X-MEXC-APIKEY)` };
  const reserved = headerNameProblem(value);
  if (reserved !== undefined) return { ok: false, message: reserved };
  return { ok: true, value };
}

const ProfileSchema = v.object({
  name: v.pipe(v.string('must be a text'), v.regex(PROFILE_NAME, 'must be 1-64 letters, digits, ".", "_" or "-"')),
  baseUrl: v.pipe(
    v.string('must be a text'),
    v.check((url) => checkBaseUrl(url).ok, 'must be an http(s) URL without user, query or fragment'),
  ),
  apiKeyHeader: v.optional(v.pipe(v.string(), v.regex(HEADER, 'must be an HTTP header name')), PROFILE_DEFAULTS.apiKeyHeader),
  recvWindow: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(MAX_RECV_WINDOW)), PROFILE_DEFAULTS.recvWindow),
  postSignature: v.optional(v.picklist(POST_SIGNATURES, `must be ${POST_SIGNATURES.join(', ')}`)),
  // Older files: false signed the query only (now 'query'); true was the old default (now 'auto').
  signBody: v.optional(v.boolean('must be true or false')),
  readOnly: v.optional(v.boolean('must be true or false')),
  proxy: v.optional(
    v.pipe(
      v.string('must be a text'),
      v.check((url) => explicitProxyProblem(url) === undefined, 'must be an http(s) proxy URL without a password'),
    ),
  ),
  color: v.optional(v.picklist(PROFILE_COLORS, `must be ${PROFILE_COLORS.join(', ')}`)),
});

const ConfigSchema = v.object(
  {
    version: v.optional(v.literal(1, 'must be 1 (a newer program wrote this file?)')),
    defaultProfile: v.optional(v.string('must be a profile name')),
    profiles: v.array(ProfileSchema, 'must be a list of profiles'),
  },
  'must be an object with a "profiles" list',
);

/** Written only when set: the file of a profile that is not read-only stays as older versions wrote it. */
function readOnlyField(readOnly: boolean | undefined): { readOnly?: true } {
  return readOnly === true ? { readOnly: true } : {};
}

/** Written only when set, like readOnly. */
function proxyField(proxy: string | undefined): { proxy?: string } {
  return proxy === undefined ? {} : { proxy };
}

/** Written only when set, like readOnly. */
function colorField(color: ProfileColor | undefined): { color?: ProfileColor } {
  return color === undefined ? {} : { color };
}

function issuePath(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`));
  return keys.join('').replace(/^\./, '') || '(top level)';
}

function damaged(path: string, what: string): ProfileConfigError {
  return new ProfileConfigError(path, `the profile file ${path} is damaged (${what}); fix it, or move it away and add the profiles again`);
}

/** The saved profiles; none when the file does not exist. Throws ProfileConfigError for a damaged file. */
export async function loadProfiles(folder: string): Promise<ProfileConfig> {
  const path = profilesPath(folder);
  let text: string | undefined;
  try {
    text = await readFileIfExists(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ProfileConfigError(path, `cannot read the profile file ${path} (${code})`);
  }
  if (text === undefined) return { profiles: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw damaged(path, `not valid JSON: ${firstLineOf(error)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw damaged(path, '(top level): must be an object with a "profiles" list');
  const parsed = v.safeParse(ConfigSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw damaged(path, issue ? `${issuePath(issue)}: ${issue.message}` : 'unexpected content');
  }
  const seen = new Set<string>();
  const profiles: Profile[] = [];
  for (const p of parsed.output.profiles) {
    if (seen.has(p.name)) throw damaged(path, `profile '${p.name}' appears twice`);
    seen.add(p.name);
    const base = checkBaseUrl(p.baseUrl);
    const postSignature = p.postSignature ?? (p.signBody === false ? 'query' : PROFILE_DEFAULTS.postSignature);
    profiles.push({
      name: p.name,
      baseUrl: base.ok ? base.url : p.baseUrl,
      apiKeyHeader: p.apiKeyHeader,
      recvWindow: p.recvWindow,
      postSignature,
      ...readOnlyField(p.readOnly),
      ...proxyField(p.proxy),
      ...colorField(p.color),
    });
  }
  const config: ProfileConfig = { profiles };
  // A default naming a profile that is gone is simply no default.
  const fallback = parsed.output.defaultProfile;
  if (fallback !== undefined && seen.has(fallback)) config.defaultProfile = fallback;
  return config;
}

async function writeProfiles(folder: string, config: ProfileConfig): Promise<void> {
  const body: { version: 1; defaultProfile?: string; profiles: Profile[] } =
    config.defaultProfile === undefined
      ? { version: 1, profiles: config.profiles }
      : { version: 1, defaultProfile: config.defaultProfile, profiles: config.profiles };
  await writeFileAtomic(profilesPath(folder), `${JSON.stringify(body, null, 2)}\n`);
}

export function findProfile(config: ProfileConfig, name: string): Profile | undefined {
  return config.profiles.find((p) => p.name === name);
}

/** What the save did, as seen under the lock (another process may have added profiles meanwhile). */
export interface SavedProfile {
  /** A profile of that name was there and is replaced. */
  replaced: boolean;
  /** It is the default profile now. */
  isDefault: boolean;
}

/** The keychain half of a save, run under the profile file's lock: two saves of one name never pair one's settings with the other's secret. */
interface SecretStep {
  store(): Promise<void>;
  /** Called when the settings could not be written after the secret was stored. */
  undo?(): Promise<unknown>;
  /** Called once the settings are written too (both halves in place). */
  written?(): void;
}

/** A save of a new profile found, under the lock, one of that name (added meanwhile): nothing was written. */
export class ProfileExistsError extends Error {
  constructor(readonly profile: string) {
    super(`a profile named ${profile} exists already`);
    this.name = 'ProfileExistsError';
  }
}

/** The secret step failed: nothing was written. `cause` is what the keychain threw. */
export class SecretNotStoredError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'SecretNotStoredError';
  }
}

/**
 * The `profile add` that stores this profile's secret again with every setting it has: a re-add replaces them
 * all, so advice that leaves one out (read-only above all) would drop it.
 */
export function profileAddCommand(profile: Profile): string {
  const words = ['broker-console', 'profile', 'add', shellWord(profile.name), '--base-url', shellWord(profile.baseUrl)];
  if (profile.apiKeyHeader !== DEFAULT_API_KEY_HEADER) words.push('--api-key-header', shellWord(profile.apiKeyHeader));
  if (profile.recvWindow !== DEFAULT_RECV_WINDOW) words.push('--recv-window', String(profile.recvWindow));
  if (profile.postSignature !== 'auto') words.push('--post-signature', profile.postSignature);
  if (profile.proxy !== undefined) words.push('--proxy', shellWord(profile.proxy));
  if (profile.readOnly === true) words.push('--read-only');
  if (profile.color !== undefined) words.push('--color', profile.color);
  return words.join(' ');
}

/** Adds the profile, or replaces the one of the same name. The first profile becomes the default. */
export async function saveProfile(
  folder: string,
  profile: Profile,
  options: { makeDefault?: boolean; secret?: SecretStep; onlyNew?: boolean } = {},
): Promise<SavedProfile> {
  const name = checkProfileName(profile.name);
  if (!name.ok) throw new Error(name.message);
  const base = checkBaseUrl(profile.baseUrl);
  if (!base.ok) throw new Error(`base URL ${base.reason}`);
  const header = checkApiKeyHeader(profile.apiKeyHeader);
  if (!header.ok) throw new Error(header.message);
  if (!Number.isInteger(profile.recvWindow) || profile.recvWindow < 1 || profile.recvWindow > MAX_RECV_WINDOW) {
    throw new Error(`recvWindow must be a whole number from 1 to ${MAX_RECV_WINDOW}`);
  }
  if (!POST_SIGNATURES.includes(profile.postSignature)) throw new Error(`postSignature must be ${POST_SIGNATURES.join(', ')}`);
  const proxyProblem = profile.proxy === undefined ? undefined : explicitProxyProblem(profile.proxy);
  if (proxyProblem !== undefined) throw new Error(`proxy ${proxyProblem}`);
  if (profile.color !== undefined && !PROFILE_COLORS.includes(profile.color)) throw new Error(`color must be ${PROFILE_COLORS.join(', ')}`);
  const clean: Profile = {
    name: name.value,
    baseUrl: base.url,
    apiKeyHeader: header.value,
    recvWindow: profile.recvWindow,
    postSignature: profile.postSignature,
    ...readOnlyField(profile.readOnly),
    ...proxyField(profile.proxy?.trim()),
    ...colorField(profile.color),
  };
  return withFileLock(profilesPath(folder), async () => {
    const config = await loadProfiles(folder);
    const index = config.profiles.findIndex((p) => p.name === clean.name);
    // Checked again here: another process may have added the name since the caller looked.
    if (index >= 0 && options.onlyNew === true) throw new ProfileExistsError(clean.name);
    if (index >= 0) config.profiles[index] = clean;
    else config.profiles.push(clean);
    if (options.makeDefault === true || config.defaultProfile === undefined) config.defaultProfile = clean.name;
    const secret = options.secret;
    if (secret) await secret.store().catch((error: unknown) => Promise.reject(new SecretNotStoredError(error)));
    try {
      await writeProfiles(folder, config);
    } catch (error) {
      await secret?.undo?.().catch(() => undefined);
      throw error;
    }
    secret?.written?.();
    return { replaced: index >= 0, isDefault: config.defaultProfile === clean.name };
  });
}

/**
 * False when there was no such profile. Clears the default if it was this one. `thenUnderLock` runs once the
 * settings are written (or found absent), before the lock is let go: the keychain half of a remove, so an add of
 * the same name cannot store its secret in between and see it removed. It is told what the lock found.
 */
export async function removeProfile(folder: string, name: string, thenUnderLock?: (removed: boolean, found: ProfileConfig) => Promise<void>): Promise<boolean> {
  return withFileLock(profilesPath(folder), async () => {
    const config = await loadProfiles(folder);
    const remaining = config.profiles.filter((p) => p.name !== name);
    const removed = remaining.length !== config.profiles.length;
    if (removed) {
      const next: ProfileConfig = { profiles: remaining };
      if (config.defaultProfile !== undefined && config.defaultProfile !== name) next.defaultProfile = config.defaultProfile;
      await writeProfiles(folder, next);
    }
    await thenUnderLock?.(removed, config);
    return removed;
  });
}

export async function setDefaultProfile(folder: string, name: string): Promise<void> {
  await withFileLock(profilesPath(folder), async () => {
    const config = await loadProfiles(folder);
    if (!findProfile(config, name)) {
      const known = config.profiles.map((p) => p.name).join(', ');
      throw new Error(`no profile named '${name}'${known === '' ? ' (there are no profiles yet)' : ` (profiles: ${known})`}`);
    }
    config.defaultProfile = name;
    await writeProfiles(folder, config);
  });
}

/** The client's config for a saved profile and the credentials the keychain (or the operator) gave for it. */
export function clientConfigOf(profile: Profile, apiKey: string, secretKey: string): ClientConfig {
  return {
    baseUrl: profile.baseUrl,
    apiKey,
    secretKey,
    apiKeyHeader: profile.apiKeyHeader,
    recvWindow: profile.recvWindow,
    postSignature: profile.postSignature,
  };
}
