// Failures without a readable answer, said in words: what was not sent, certificates, proxies, redirects.
import { BrokerError, type ExchangeStage, formatBytes, formatDuration, oneLine } from './errors';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Certificate errors, in words: the same certificate would be met again, so a GET is not retried. */
const CERTIFICATE_PROBLEMS: Readonly<Record<string, string>> = {
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
const EXTRA_CA_HINT = 'if your network uses its own CA, set NODE_EXTRA_CA_CERTS=/path/ca.pem';

/** The refusal of a proxy, in words, from undici's errors ("Proxy response (407) !== 200 when HTTP Tunneling"). */
function proxyRefusal(error: unknown, via: string): { problem: string; status: number } | undefined {
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
const INVALID_REQUEST_CODES = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_URL', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_ARG_VALUE']);

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
function safeCause(error: unknown): Error {
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

/** undici's limit on an answer's headers (its default maxHeaderSize). */
const HEADERS_LIMIT = 16 * 1024;

/**
 * A try that got no readable answer, said as the error it is, and whether trying again can help: not sent (a
 * refused connection, a certificate, a proxy), timed out, or broken after a POST went out (its outcome unknown).
 */
export function classifyFailure(
  thrown: unknown,
  request: { operation: string; method: 'GET' | 'POST'; signal?: AbortSignal; nothingDone?: string },
  where: { origin: string; via: string | undefined; timeoutMs: number },
  seen: { timedOut: boolean; status: number | undefined; written: boolean },
): { error: BrokerError; retryable: boolean } {
  const { origin, via, timeoutMs } = where;
  const { timedOut, status, written } = seen;
  const { operation, method, signal } = request;
  if (signal?.aborted) return { error: new BrokerError({ kind: 'aborted', operation }), retryable: false };
  const code = errorCode(thrown);
  const cause = safeCause(thrown);
  if (status === undefined && !written && code !== undefined && INVALID_REQUEST_CODES.has(code) && proxyRefusal(thrown, '') === undefined) {
    return { error: new BrokerError({ kind: 'invalid-request', operation, serviceMessage: `${cause.message} — nothing was sent`, cause }), retryable: false };
  }
  // A proxy's refusal comes before anything reached the service, even when the request was written to a forward proxy.
  const refused = via === undefined || status !== undefined ? undefined : proxyRefusal(thrown, via);
  // Once a byte was written the request may have arrived, whatever the error says after it (an ICMP unreachable
  // on a kept-alive connection is EHOSTUNREACH too).
  const stage: ExchangeStage = status !== undefined ? 'answer' : !written || refused ? 'connect' : 'sent';
  if (stage === 'connect') {
    const notDone = { via, ...(method === 'POST' ? { nothingDone: request.nothingDone ?? 'it did not take effect' } : {}) };
    const certificate = code === undefined ? undefined : CERTIFICATE_PROBLEMS[code];
    if (certificate !== undefined) {
      const hint = code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? `check the host name in the base URL (${new URL(origin).hostname})` : EXTRA_CA_HINT;
      return {
        error: new BrokerError({ kind: 'network', operation, stage, connectProblem: `${certificate} (${code})`, hint, cause, ...notDone }),
        retryable: false,
      };
    }
    if (refused) {
      return {
        error: new BrokerError({ kind: 'network', operation, stage, connectProblem: refused.problem, hint: 'check the proxy setting', cause, ...notDone }),
        retryable: refused.status !== 407,
      };
    }
    const tls = origin.startsWith('https:');
    if (timedOut || code === 'UND_ERR_CONNECT_TIMEOUT') {
      const what = tls ? `the connection or its TLS handshake${via ? ` through the proxy ${via}` : ''} did not complete` : undefined;
      return {
        error: new BrokerError({ kind: 'timeout', operation, stage, timeoutMs, cause, ...(what ? { connectProblem: what } : {}), ...notDone }),
        retryable: true,
      };
    }
    const handshakeBroken = tls && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE');
    const problem = handshakeBroken ? `the connection closed during the TLS handshake${via ? ` through the proxy ${via}` : ''} (${code})` : undefined;
    return {
      error: new BrokerError({ kind: 'network', operation, stage, cause, ...(problem ? { connectProblem: problem } : {}), ...notDone }),
      retryable: true,
    };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    if (method === 'POST') {
      return {
        error: new BrokerError({
          kind: 'outcome-unknown',
          operation,
          stage: 'answer',
          serviceMessage: `its headers were larger than ${formatBytes(HEADERS_LIMIT)}`,
        }),
        retryable: false,
      };
    }
    return { error: new BrokerError({ kind: 'too-large', operation, what: 'headers', limitBytes: HEADERS_LIMIT }), retryable: false };
  }
  // A POST that may have reached the service: nobody knows what happened. Its answer cut short is said as such.
  const unknownOutcome = (whileArriving: string, before: { timeoutMs?: number } = {}) => ({
    error:
      stage === 'answer'
        ? new BrokerError({ kind: 'outcome-unknown', operation, status, stage, serviceMessage: whileArriving, cause })
        : new BrokerError({ kind: 'outcome-unknown', operation, stage, ...before, cause }),
    retryable: false,
  });
  if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    if (method === 'GET') return { error: new BrokerError({ kind: 'timeout', operation, stage, timeoutMs, cause }), retryable: true };
    return unknownOutcome(`it did not finish within ${formatDuration(timeoutMs)}`, { timeoutMs });
  }
  if (method === 'GET') return { error: new BrokerError({ kind: 'network', operation, stage, status, cause }), retryable: true };
  // The connection broke after the request may have been written.
  return unknownOutcome(`the connection broke while it was arriving (${cause.message})`);
}
