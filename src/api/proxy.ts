// Which proxy, if any, a base URL is reached through, and how a proxy URL is shown. The choice is made once per
// client (here, without undici) so that what the status bar and the log file say is what the client does.
//
// Order: --proxy, then the profile's proxy, then the environment (https_proxy/HTTPS_PROXY for an https:// base
// URL, http_proxy/HTTP_PROXY for http://, the lower-case name first as undici and curl read them). NO_PROXY /
// no_proxy applies to all three, matched as undici's EnvHttpProxyAgent matches it (loopback is not special).

type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

export interface ProxyChoice {
  /** The proxy URL as given (it may carry a user and password): only the client sees it. */
  url: string;
  /** The same URL without its password (and without a path): what the status bar, the log and errors show. */
  shown: string;
  /** Where it came from, in the operator's words: "--proxy", "profile 'desk'", "HTTPS_PROXY". */
  source: string;
}

/** A proxy given explicitly (the flag or the profile), before NO_PROXY is applied. */
interface ExplicitProxy {
  url: string;
  source: string;
}

/** Why a proxy URL cannot be used (undefined when it can): http:// or https://, a host, nothing after it. */
function proxyUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'is not a URL (e.g. http://proxy.example.com:3128)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must start with http:// or https:// (got ${url.protocol})`;
  if (url.hostname === '') return 'has no host';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return 'must be only scheme, host and port (with an optional user:password@)';
  return undefined;
}

/** The proxy URL without its password (a user name stays: it says which account is used), never a path. */
export function showProxyUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return '(unreadable proxy URL)';
  }
  const user = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : ':***'}@`;
  return `${url.protocol}//${user}${url.host}`;
}

function variable(env: ProxyEnvironment, lower: string, upper: string): { name: string; value: string } | undefined {
  for (const name of [lower, upper]) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
}

/** The NO_PROXY value in force (no_proxy first, as undici reads it). */
function noProxyValue(env: ProxyEnvironment): string {
  return env.no_proxy ?? env.NO_PROXY ?? '';
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * Whether NO_PROXY lets this URL go direct: entries split on commas and spaces, `host`, `.host` or `*.host`
 * (the host and its subdomains), an optional `:port`, and `*` alone for every host.
 */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const entries = noProxy
    .split(/[,\s]/)
    .filter((entry) => entry !== '')
    .map((entry) => {
      const withPort = /^(.+):(\d+)$/.exec(entry);
      return {
        hostname: (withPort ? (withPort[1] ?? '') : entry).replace(/^\*?\./, '').toLowerCase(),
        port: withPort ? Number.parseInt(withPort[2] ?? '0', 10) : 0,
      };
    });
  if (entries.length === 0) return false;
  if (noProxy === '*') return true;
  // The host as undici takes it: brackets kept around an IPv6 address.
  const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || DEFAULT_PORTS[target.protocol] || 0;
  return entries.some((entry) => (entry.port === 0 || entry.port === port) && (hostname === entry.hostname || hostname.endsWith(`.${entry.hostname}`)));
}

/**
 * The proxy for a base URL, or undefined to go direct; `problem` when the chosen proxy URL cannot be used
 * (the caller says so, naming where it came from, and sends nothing).
 */
export function chooseProxy(baseUrl: string, explicit: ExplicitProxy | undefined, env: ProxyEnvironment): { proxy?: ProxyChoice; problem?: string } {
  const target = new URL(baseUrl);
  const fromEnv = target.protocol === 'https:' ? variable(env, 'https_proxy', 'HTTPS_PROXY') : variable(env, 'http_proxy', 'HTTP_PROXY');
  const given = explicit ?? (fromEnv ? { url: fromEnv.value, source: fromEnv.name } : undefined);
  if (given === undefined) return {};
  if (bypassesProxy(target, noProxyValue(env))) return {};
  const problem = proxyUrlProblem(given.url);
  if (problem !== undefined) return { problem: `${given.source}: the proxy URL ${problem}` };
  return { proxy: { url: given.url.trim(), shown: showProxyUrl(given.url), source: given.source } };
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts a plain http:// base URL is not flagged for. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The warning for a base URL that sends signatures, the API key and created secrets in clear: plain http://
 * to a host other than this machine. Undefined for https:// and for loopback.
 */
export function cleartextWarning(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return `plain http:// to ${url.host}: the API key, signatures and created secrets travel unencrypted — use https://`;
}

/**
 * Why a proxy URL given as a flag or saved in a profile cannot be used: as proxyUrlProblem, and no password (a
 * flag shows in `ps`, profiles.json is a plain file; a proxy password goes in HTTPS_PROXY / HTTP_PROXY).
 */
export function explicitProxyProblem(raw: string): string | undefined {
  const problem = proxyUrlProblem(raw);
  if (problem !== undefined) return problem;
  if (new URL(raw.trim()).password !== '')
    return 'must not carry a password (it would show in ps or sit in a plain file): give it in HTTPS_PROXY / HTTP_PROXY instead';
  return undefined;
}

/**
 * The proxy for a base URL in the order the program takes them: --proxy, else the profile's, else the environment's
 * (NO_PROXY applying to all); `problem` when the chosen URL cannot be used, naming where it came from.
 */
export function proxyInOrder(
  baseUrl: string,
  given: { flag?: string; profile?: { name: string; proxy?: string } },
  env: ProxyEnvironment,
): { proxy?: ProxyChoice; problem?: string } {
  const flag = given.flag?.trim();
  if (flag !== undefined) {
    const problem = explicitProxyProblem(flag);
    if (problem !== undefined) return { problem: `--proxy: ${problem}` };
  }
  const { profile } = given;
  const explicit =
    flag !== undefined
      ? { url: flag, source: '--proxy' }
      : profile?.proxy !== undefined
        ? { url: profile.proxy, source: `profile '${profile.name}' proxy` }
        : undefined;
  return chooseProxy(baseUrl, explicit, env);
}
