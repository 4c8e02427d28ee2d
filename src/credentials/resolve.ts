// The one place that decides which target and credentials a command (or the console) uses.
// Order (docs/configuration.md): BROKER_API_KEY/BROKER_API_SECRET from the environment first; else the profile
// named by --profile, else BROKER_PROFILE, else the default profile, with its secret from the keychain.
// --base-url, then BROKER_BASE_URL, override the profile's base URL; BROKER_POST_SIGNATURE its POST signature rule.
import { firstLineOf } from '../api/errors';
import { POST_SIGNATURES, type PostSignature, parsePostSignature } from '../api/signing';
import { ENV, type Environment, checkBaseUrl, credentialsFromEnvironment, envValue } from './fromEnvironment';
import { type Keychain, KeychainError, type KeychainProblem, folderKeychain, openKeychain, problem } from './keychain';
import {
  type Profile,
  type ProfileConfig,
  ProfileConfigError,
  findProfile,
  isReservedProfileName,
  loadProfiles,
  meantProfile,
  profileAddCommand,
} from './profiles';

type CredentialSource = 'environment' | 'keychain' | 'session' | 'sandbox';

export interface ResolvedTarget {
  profile?: Profile;
  baseUrl: string;
  apiKey: string;
  /** Never printed, logged or put in an error message. */
  secretKey: string;
  source: CredentialSource;
  apiKeyHeader?: string;
  recvWindow?: number;
  postSignature?: PostSignature;
  /** What of the environment stands over a profile (its credentials, its base URL): said on stderr and in the status bar. */
  overrides?: string[];
}

/** no-profile: none is set up; no-default: some are, none is the default; profiles-unreadable: the file is damaged or cannot be read. */
type ResolveFailureReason = 'no-credentials' | 'no-profile' | 'no-default' | 'profiles-unreadable' | 'unknown-profile' | 'keychain';

export type ResolveResult =
  { ok: true; target: ResolvedTarget } | { ok: false; reason: ResolveFailureReason; message: string; profile?: Profile; problem?: KeychainProblem };

interface ResolveTargetInput {
  flags: { profile?: string; baseUrl?: string };
  env: Environment;
  /** The config folder (profiles.json). */
  folder: string;
  /** Opens the keychain; default openKeychain (keytar, loaded only now). */
  keychain?: () => Promise<Keychain>;
}

const ADD_PROFILE_HINT = 'broker-console profile add NAME --base-url URL';

function settings(profile: Profile): Pick<ResolvedTarget, 'apiKeyHeader' | 'recvWindow' | 'postSignature'> {
  return { apiKeyHeader: profile.apiKeyHeader, recvWindow: profile.recvWindow, postSignature: profile.postSignature };
}

/** BROKER_POST_SIGNATURE: unset gives undefined (the profile's or the default rule); a word it cannot mean fails. */
function postSignatureFromEnvironment(env: Environment): { ok: true; value?: PostSignature } | { ok: false; message: string } {
  const raw = envValue(env, ENV.postSignature);
  if (raw === undefined) return { ok: true };
  const value = parsePostSignature(raw);
  if (value === undefined) return { ok: false, message: `${ENV.postSignature}: must be ${POST_SIGNATURES.join(', ')} (got '${raw.slice(0, 40)}')` };
  return { ok: true, value };
}

function profileNames(config: ProfileConfig): string {
  return config.profiles.map((p) => p.name).join(', ');
}

/** --base-url, else BROKER_BASE_URL, else the fallback (the profile's). */
function pickBaseUrl(
  flags: ResolveTargetInput['flags'],
  env: Environment,
  fallback: string | undefined,
): { ok: true; url: string } | { ok: false; message: string } | undefined {
  const fromFlag = flags.baseUrl?.trim() === '' ? undefined : flags.baseUrl;
  const raw = fromFlag ?? envValue(env, ENV.baseUrl);
  if (raw === undefined) return fallback === undefined ? undefined : { ok: true, url: fallback };
  const checked = checkBaseUrl(raw);
  if (!checked.ok) return { ok: false, message: `${fromFlag !== undefined ? '--base-url' : ENV.baseUrl}: ${checked.reason}` };
  return checked;
}

export async function resolveTarget(input: ResolveTargetInput): Promise<ResolveResult> {
  const { flags, env, folder } = input;
  const postSignature = postSignatureFromEnvironment(env);
  if (!postSignature.ok) return { ok: false, reason: 'no-credentials', message: postSignature.message };
  const fromEnv = postSignature.value === undefined ? {} : { postSignature: postSignature.value };
  const wanted = (flags.profile?.trim() || undefined) ?? envValue(env, ENV.profile);
  const wantedFrom = flags.profile?.trim() ? '--profile' : ENV.profile;
  const envKey = envValue(env, ENV.apiKey);
  const envSecret = envValue(env, ENV.secret);

  if (envKey !== undefined || envSecret !== undefined) {
    if (envKey === undefined || envSecret === undefined) {
      const partial = credentialsFromEnvironment(env, flags);
      return { ok: false, reason: 'no-credentials', message: partial.ok ? 'incomplete environment credentials' : partial.message };
    }
    // Environment credentials: a profile lends its settings only when named, or (the default profile) when
    // no base URL was given. A named profile that is unknown or unreadable is an error whatever the base URL (its
    // settings, read-only among them, would be dropped without a word); the default one matters only when the
    // base URL must come from it.
    const explicitBase = pickBaseUrl(flags, env, undefined);
    if (explicitBase && !explicitBase.ok) return { ok: false, reason: 'no-credentials', message: explicitBase.message };
    let profile: Profile | undefined;
    if (wanted !== undefined || explicitBase === undefined) {
      let config: ProfileConfig | undefined;
      try {
        config = await loadProfiles(folder);
      } catch (error) {
        if (explicitBase === undefined || wanted !== undefined) return { ok: false, reason: 'profiles-unreadable', message: errorMessage(error) };
      }
      if (config) {
        profile = findProfile(config, wanted ?? config.defaultProfile ?? '');
        if (!profile && wanted !== undefined) {
          return { ok: false, reason: 'unknown-profile', message: unknownProfileMessage(wanted, wantedFrom, config) };
        }
      }
    }
    const baseUrl = explicitBase?.ok ? explicitBase.url : profile?.baseUrl;
    if (baseUrl === undefined) {
      return { ok: false, reason: 'no-credentials', message: `no base URL: set ${ENV.baseUrl} or pass --base-url` };
    }
    const overrides: string[] = [];
    // A profile named by the operator is expected to bring its own credentials: say whose are used.
    if (profile && wanted !== undefined)
      overrides.push(`${ENV.apiKey}/${ENV.secret} from the environment are used, not profile '${profile.name}''s keychain entry`);
    if (profile && wanted !== undefined) overrides.push(...baseUrlOverride(flags, env, profile, baseUrl));
    // The default profile chose where credentials from the environment go: said, never silent.
    if (profile && wanted === undefined && !explicitBase)
      overrides.push(
        `${ENV.apiKey}/${ENV.secret} from the environment go to the default profile '${profile.name}''s base URL ${profile.baseUrl} (${ENV.baseUrl} or --base-url sends them elsewhere)`,
      );
    return {
      ok: true,
      target: {
        ...(profile ? { profile, ...settings(profile) } : {}),
        ...fromEnv,
        baseUrl,
        apiKey: envKey,
        secretKey: envSecret,
        source: 'environment',
        ...(overrides.length > 0 ? { overrides } : {}),
      },
    };
  }

  let config: ProfileConfig;
  try {
    config = await loadProfiles(folder);
  } catch (error) {
    return { ok: false, reason: 'profiles-unreadable', message: errorMessage(error) };
  }
  const name = wanted ?? config.defaultProfile;
  if (name === undefined) {
    if (config.profiles.length === 0) {
      return {
        ok: false,
        reason: 'no-profile',
        message:
          `no credentials: add a profile with \`${ADD_PROFILE_HINT}\`, set ${ENV.apiKey}, ${ENV.secret} and ${ENV.baseUrl}, ` +
          'or try the demo with `broker-console --demo`',
      };
    }
    return {
      ok: false,
      reason: 'no-default',
      message: `no default profile: pass --profile NAME or choose one with \`broker-console profile use NAME\` (profiles: ${profileNames(config)})`,
    };
  }
  const profile = findProfile(config, name);
  if (!profile) return { ok: false, reason: 'unknown-profile', message: unknownProfileMessage(name, wanted !== undefined ? wantedFrom : 'default', config) };

  const base = pickBaseUrl(flags, env, profile.baseUrl);
  if (!base || !base.ok) return { ok: false, reason: 'no-credentials', message: base ? base.message : 'no base URL', profile };

  let stored;
  try {
    const keychain = folderKeychain(await (input.keychain ?? (() => openKeychain()))(), input.folder);
    stored = await keychain.get(profile.name);
  } catch (error) {
    const found = error instanceof KeychainError ? error.problem : problem('failed', errorMessage(error));
    return { ok: false, reason: 'keychain', message: found.message, profile, problem: found };
  }
  if (!stored) {
    const missing = problem('missing-entry', '', profile.name, profileAddCommand(profile));
    return { ok: false, reason: 'keychain', message: missing.message, profile, problem: missing };
  }
  const overrides = baseUrlOverride(flags, env, profile, base.url);
  return {
    ok: true,
    target: {
      profile,
      baseUrl: base.url,
      apiKey: stored.apiKey,
      secretKey: stored.secretKey,
      source: 'keychain',
      ...settings(profile),
      ...fromEnv,
      ...(overrides.length > 0 ? { overrides } : {}),
    },
  };
}

/** BROKER_BASE_URL (not --base-url, which is typed for this run) sending a profile's requests to another URL. */
function baseUrlOverride(flags: ResolveTargetInput['flags'], env: Environment, profile: Profile, used: string): string[] {
  const fromFlag = flags.baseUrl !== undefined && flags.baseUrl.trim() !== '';
  if (fromFlag || envValue(env, ENV.baseUrl) === undefined || used === profile.baseUrl) return [];
  return [`${ENV.baseUrl} from the environment sends profile '${profile.name}''s requests to ${used}, not ${profile.baseUrl}`];
}

function unknownProfileMessage(name: string, from: string, config: ProfileConfig): string {
  const known = profileNames(config);
  // A typo of a profile's name is said as one, before the advice to add a profile of the mistyped name.
  const meant = meantProfile(name, config);
  if (meant !== undefined) return `no profile named '${name}' (${from}): did you mean ${meant}? profiles: ${known}`;
  // The names the console gives what is not a profile cannot be added: the demo is --demo.
  if (isReservedProfileName(name))
    return `no profile named '${name}' (${from})${known === '' ? '' : `; profiles: ${known}`}: '${name}' is not a profile; --demo opens the demo`;
  return (
    `no profile named '${name}' (${from})${known === '' ? '; there are no profiles yet' : `; profiles: ${known}`}: ` +
    `add it with \`broker-console profile add ${name} --base-url URL\``
  );
}

function errorMessage(error: unknown): string {
  if (error instanceof ProfileConfigError) return error.message;
  return firstLineOf(error);
}
