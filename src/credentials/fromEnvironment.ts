// Master credentials from the environment: BROKER_API_KEY, BROKER_API_SECRET, BROKER_BASE_URL.
// Which source wins (environment, or a profile with its secret in the keychain) is decided in resolve.ts.
import { apiKeyProblem } from '../api/headers';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface Credentials {
  baseUrl: string;
  apiKey: string;
  /** Never printed, logged or put in an error message. */
  secretKey: string;
  source: 'environment';
}

interface CredentialFlags {
  /** --base-url: overrides BROKER_BASE_URL (and, later, the profile's). */
  baseUrl?: string;
  /** --profile: overrides BROKER_PROFILE. */
  profile?: string;
}

type CredentialResult = { ok: true; credentials: Credentials } | { ok: false; message: string };

export const ENV = {
  baseUrl: 'BROKER_BASE_URL',
  apiKey: 'BROKER_API_KEY',
  secret: 'BROKER_API_SECRET',
  profile: 'BROKER_PROFILE',
  /** auto, query or body: what a create's signature covers; overrides the profile's setting. */
  postSignature: 'BROKER_POST_SIGNATURE',
} as const;

/** A variable's trimmed value; undefined when unset or blank. */
export function envValue(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The text with what stands between "//" and an "@" (a user name and password) replaced by "…": never echoed. */
function withoutUserInfo(text: string): string {
  return text.replace(/\/\/[^/?#]*@/g, '//…@');
}

/** An http(s) URL without user info, query or fragment; returned without a trailing slash. */
export function checkBaseUrl(raw: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: `'${withoutUserInfo(raw.trim()).slice(0, 60)}' is not a URL (e.g. https://api.example.com)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `must start with http:// or https:// (got ${url.protocol})` };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not contain a user name or password' };
  if (url.search !== '' || url.hash !== '') return { ok: false, reason: 'must not contain a query (?…) or fragment (#…)' };
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** "BROKER_API_KEY: the API key contains a line break…" when the variable's value cannot travel in a header. */
function checkEnvApiKey(apiKey: string): string | undefined {
  const problem = apiKeyProblem(apiKey);
  return problem === undefined ? undefined : `${ENV.apiKey}: ${problem}`;
}

/** Credentials from BROKER_API_KEY / BROKER_API_SECRET / BROKER_BASE_URL, or why they cannot be used. */
export function credentialsFromEnvironment(env: Environment, flags: CredentialFlags = {}): CredentialResult {
  const apiKey = envValue(env, ENV.apiKey);
  const secretKey = envValue(env, ENV.secret);
  if (apiKey === undefined && secretKey === undefined) {
    return {
      ok: false,
      message: `no credentials: set ${ENV.apiKey} and ${ENV.secret} (and ${ENV.baseUrl}), or try the demo service with \`broker-console sandbox\``,
    };
  }
  if (apiKey === undefined) return { ok: false, message: `no credentials: ${ENV.secret} is set but ${ENV.apiKey} is not` };
  if (secretKey === undefined) return { ok: false, message: `no credentials: ${ENV.apiKey} is set but ${ENV.secret} is not` };
  // A key the HTTP layer would refuse (a CR-LF pasted in, a space) is named here, never sent.
  const keyProblem = checkEnvApiKey(apiKey);
  if (keyProblem !== undefined) return { ok: false, message: keyProblem };

  const rawBase = flags.baseUrl ?? envValue(env, ENV.baseUrl);
  const origin = flags.baseUrl !== undefined ? '--base-url' : ENV.baseUrl;
  if (rawBase === undefined) return { ok: false, message: `no base URL: set ${ENV.baseUrl} or pass --base-url` };
  const base = checkBaseUrl(rawBase);
  if (!base.ok) return { ok: false, message: `${origin}: ${base.reason}` };
  return { ok: true, credentials: { baseUrl: base.url, apiKey, secretKey, source: 'environment' } };
}
