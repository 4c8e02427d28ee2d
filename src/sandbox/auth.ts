// Request authentication, in the service's order: API key, signature, recvWindow, timestamp, permission.
import type { IncomingHttpHeaders } from 'node:http';
import { SERVICE_DEFAULT_RECV_WINDOW, SERVICE_MAX_RECV_WINDOW, signedBy, splitSignedQuery } from './signature';
import type { SandboxPostSignature } from './types';
import { ERR, paramError, SandboxHttpError } from './errors';

export interface AuthConfig {
  apiKey: string;
  secretKey: string;
  apiKeyHeader: string;
  /** What a request's signature must cover: the query alone, the query + raw body, or either. */
  postSignature: SandboxPostSignature;
  /** A timestamp must lead the server clock by less than this, ms. */
  maxAheadMs: number;
}

/** The API key presented in the configured header; 10072 when missing or unknown. */
export function checkApiKey(headers: IncomingHttpHeaders, config: AuthConfig): string {
  const value = headers[config.apiKeyHeader.toLowerCase()];
  const presented = Array.isArray(value) ? value[0] : value;
  if (presented === undefined || presented === '') throw new SandboxHttpError(ERR.apiKeyRequired);
  if (presented !== config.apiKey) throw new SandboxHttpError(ERR.invalidApiKey);
  return presented;
}

/**
 * Verifies the signature over the raw query as received (its `signature` parameter taken out, wherever it sits), followed by the
 * raw body when the configured rule says so, then recvWindow and the timestamp. Returns the parsed unsigned query parameters.
 */
export function verifySignedRequest(rawQuery: string, rawBody: string, now: number, config: AuthConfig): URLSearchParams {
  const split = splitSignedQuery(rawQuery);
  if (!split || split.signature === '') throw paramError('signature');
  const params = new URLSearchParams(split.unsigned);
  const timestampText = params.get('timestamp');
  if (timestampText === null || timestampText === '') throw paramError('timestamp');

  const rules = config.postSignature === 'either' ? (['query', 'body'] as const) : [config.postSignature];
  // Without a body both rules sign the same text: one comparison is enough.
  const tried = rawBody === '' ? rules.slice(0, 1) : rules;
  if (!tried.some((rule) => signedBy(config.secretKey, split.unsigned, rawBody, rule, split.signature))) {
    throw new SandboxHttpError(ERR.badSignature);
  }

  const timestamp = parseWholeNumber(timestampText);
  if (timestamp === undefined) throw paramError('timestamp');
  const recvWindowText = params.get('recvWindow');
  let recvWindow = SERVICE_DEFAULT_RECV_WINDOW;
  if (recvWindowText !== null) {
    const parsed = parseWholeNumber(recvWindowText);
    if (parsed === undefined || parsed <= 0) throw paramError('recvWindow');
    if (parsed > SERVICE_MAX_RECV_WINDOW) throw new SandboxHttpError(ERR.recvWindowTooLarge);
    recvWindow = parsed;
  }
  // The service's rule as its docs write it: timestamp < serverTime + 1000 && serverTime - timestamp <= recvWindow.
  if (timestamp - now >= config.maxAheadMs || now - timestamp > recvWindow) {
    throw new SandboxHttpError(ERR.badTimestamp, `(server time ${now})`);
  }
  return params;
}

/** 700007 when the master key lacks the operation's permission. */
export function checkPermission(granted: ReadonlySet<string>, needed: string): void {
  if (!granted.has(needed)) throw new SandboxHttpError(ERR.noPermission, `(needs ${needed})`);
}

/** A non-negative integer written in plain digits, or undefined. */
export function parseWholeNumber(text: string): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
