// Failures without a readable answer, said in words: what was not sent, certificates, proxies, redirects.
import { oneLine } from './errors';

/** Connection errors raised before anything was written: a POST that fails with one of these did not happen. */
export const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
export const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Certificate errors, in words: the same certificate would be met again, so a GET is not retried. */
export const CERTIFICATE_PROBLEMS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "the service's certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the service's certificate comes from a self-signed CA this computer does not trust",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the service's certificate is signed by a CA this computer does not know",
  UNABLE_TO_GET_ISSUER_CERT: "the service's certificate is signed by a CA this computer does not know",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the service's certificate is signed by a CA this computer does not know",
  CERT_HAS_EXPIRED: "the service's certificate has expired",
  CERT_NOT_YET_VALID: "the service's certificate is not valid yet",
  CERT_REVOKED: "the service's certificate is revoked",
  ERR_TLS_CERT_ALTNAME_INVALID: "the service's certificate is for another name",
};
export const EXTRA_CA_HINT = 'if your network uses its own CA, set NODE_EXTRA_CA_CERTS=/path/ca.pem';

/** The refusal of a proxy, in words, from undici's errors ("Proxy response (407) !== 200 when HTTP Tunneling"). */
export function proxyRefusal(error: unknown, via: string): { problem: string; status: number } | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth += 1, current = current.cause) {
    const status = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(current.message);
    const code = Number(status?.[1] ?? status?.[2]);
    if (status) {
      return {
        status: code,
        problem:
          code === 407
            ? `the proxy ${via} asks for credentials (HTTP 407): put them in the proxy URL, http://user:password@host:port`
            : `the proxy ${via} refused to connect to the service (HTTP ${code})`,
      };
    }
  }
  return undefined;
}

/** The request could not be built (a header value or path undici refuses): raised before a byte is written. */
export const INVALID_REQUEST_CODES = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_URL', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_ARG_VALUE']);

export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const inner = current instanceof AggregateError ? (current.errors[0] as unknown) : current.cause;
    current = inner;
  }
  return undefined;
}

/** A cause that carries only the error's code and text: never the request, its URL or its headers. */
export function safeCause(error: unknown): Error {
  const code = errorCode(error);
  const message = error instanceof Error ? oneLine(error.message, 120) : 'unknown error';
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/** Where a redirect pointed, for the message: only its origin when it leaves the service's. */
export function describeRedirect(location: string | undefined, origin: string): string {
  if (location === undefined || location.trim() === '') return 'a redirect without a Location';
  let target: URL;
  try {
    target = new URL(location, origin);
  } catch {
    return 'a redirect to an unreadable Location';
  }
  return target.origin === origin
    ? `a redirect to ${oneLine(target.pathname, 60)} on the same host`
    : `a redirect to another origin, ${oneLine(target.origin, 80)}`;
}
