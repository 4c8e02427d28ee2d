// The one signing rule: HMAC-SHA256 hex of the query (and, under the 'body' rule, the raw body after it), signature last.
import { nodeCrypto } from '../lazyBuiltins';

type QueryValue = string | number | undefined;
/** Ordered query parameters; undefined values are left out. Order matters: it is what gets signed. */
export type QueryParams = ReadonlyArray<readonly [name: string, value: QueryValue]>;

export const DEFAULT_RECV_WINDOW = 5000;
export const MAX_RECV_WINDOW = 60_000;
export const DEFAULT_API_KEY_HEADER = 'X-MEXC-APIKEY';

/** What form-urlencoding leaves as it is (URLSearchParams): a name or value made only of these is its own encoding. */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/**
 * Form-urlencodes the parameters in the given order, skipping undefined ones: URLSearchParams' bytes exactly, without
 * its character-by-character encoder for the usual plain names and values.
 */
export function buildQuery(params: QueryParams): string {
  let query = '';
  for (const [name, value] of params) {
    if (value === undefined) continue;
    const text = String(value);
    const pair = FORM_SAFE.test(name) && FORM_SAFE.test(text) ? `${name}=${text}` : new URLSearchParams([[name, text]]).toString();
    query = query === '' ? pair : `${query}&${pair}`;
  }
  return query;
}

/** Lowercase hex HMAC-SHA256 of the signed content, keyed with the secret. */
export function signPayload(secret: string, totalParams: string): string {
  return nodeCrypto().createHmac('sha256', secret).update(totalParams, 'utf8').digest('hex');
}

/**
 * What a POST's signature covers: 'query' the query string alone (what ccxt sends and the live service
 * accepted), 'body' the query string followed directly by the raw JSON body (the docs' wording).
 */
export type PostSignatureRule = 'query' | 'body';
/** A client's setting: a pinned rule, or 'auto' (query first; on a 700002 to a create, the other rule once). */
export type PostSignature = 'auto' | PostSignatureRule;
export const POST_SIGNATURES: readonly PostSignature[] = ['auto', 'query', 'body'];
export const DEFAULT_POST_SIGNATURE_RULE: PostSignatureRule = 'query';

/** The setting named by the text, or undefined for anything else (trimmed, any case). */
export function parsePostSignature(raw: string): PostSignature | undefined {
  const value = raw.trim().toLowerCase();
  return (POST_SIGNATURES as readonly string[]).includes(value) ? (value as PostSignature) : undefined;
}

export function otherPostSignatureRule(rule: PostSignatureRule): PostSignatureRule {
  return rule === 'query' ? 'body' : 'query';
}

/** What gets signed: the exact query string, followed directly by the raw body under the 'body' rule (GET: none). */
export function totalParams(query: string, body: string, rule: PostSignatureRule): string {
  return rule === 'body' ? query + body : query;
}

interface SignInput {
  params: QueryParams;
  recvWindow: number;
  timestamp: number;
  body: string;
  secret: string;
  /** Only matters with a body (a POST). */
  rule: PostSignatureRule;
}

/** The full signed query string: params, recvWindow, timestamp, then &signature=… last. */
export function signQuery(input: SignInput): string {
  const query = buildQuery([...input.params, ['recvWindow', input.recvWindow], ['timestamp', input.timestamp]]);
  const signature = signPayload(input.secret, totalParams(query, input.body, input.rule));
  return `${query}&signature=${signature}`;
}
