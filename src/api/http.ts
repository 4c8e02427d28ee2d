// The signed client (DESIGN §4, §5): one closure owning the keep-alive pool, the clock offset and the retry
// policy. Operations describe a request; this module signs it, sends it, and turns every failure into a BrokerError.
import type { Pool } from 'undici';
import * as v from 'valibot';
import { offsetFromSkew, skewFromDateHeader } from './clock';
import type { ClientConfig, ExchangeInfo } from './contract';
import { BrokerError, oneLine } from './errors';
import {
  DEFAULT_MAX_TRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  RETRY_AFTER_CAP_MS,
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
  sleep,
} from './retry';
import { describeIssues } from './schemas';
import { DEFAULT_API_KEY_HEADER, DEFAULT_RECV_WINDOW, type QueryParams, signQuery } from './signing';

export const DEFAULT_TIMEOUT_MS = 10_000;
/** The service's code for "timestamp outside recvWindow": re-measure the clock and try a GET once more. */
export const TIMESTAMP_OUTSIDE_RECV_WINDOW = 700003;

export interface SignedRequest<T> {
  /** In the operator's words; it starts every error line ("list keys failed …"). */
  operation: string;
  method: 'GET' | 'POST';
  /** Path of the operation below the base URL, e.g. /api/v3/broker/sub-account/apiKey. */
  path: string;
  /** GET: the operation's query parameters in the spec's order (undefined ones are left out). */
  query?: QueryParams;
  /** POST: the body parameters in the spec's order, sent as a JSON object (undefined ones are left out). */
  body?: QueryParams;
  schema: v.GenericSchema<unknown, T>;
  signal?: AbortSignal;
}

export interface SignedClient {
  request<T>(request: SignedRequest<T>): Promise<T>;
  /** Server-minus-local clock offset currently applied to timestamps. */
  clockOffsetMs(): number;
  /** Estimated server time now (local clock plus offset). */
  serverNow(): number;
  /** Releases this client's hold on its connection pool (the pool closes when its last client does). */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// Connection pools: one keep-alive Pool per origin, shared by the clients using it, closed with the last one.

// undici is most of the bundle: it is loaded at the first request, so --help and the console's first frame
// do not wait for it.
interface PoolEntry {
  pool: Promise<Pool>;
  ready?: Pool;
  users: number;
}
const pools = new Map<string, PoolEntry>();

function acquirePool(origin: string): PoolEntry {
  const existing = pools.get(origin);
  if (existing) {
    existing.users += 1;
    return existing;
  }
  const entry: PoolEntry = {
    // Pool-level timeouts are per-request below; keepAliveTimeout bounds how long an idle socket is trusted.
    // undici is CommonJS: bundled and split, its chunk exports module.exports as the default.
    pool: import('undici').then((undici) => {
      const { Pool } = (undici as unknown as { default?: typeof undici }).default ?? undici;
      entry.ready = new Pool(origin, { connections: 16, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 });
      return entry.ready;
    }),
    users: 1,
  };
  pools.set(origin, entry);
  return entry;
}

async function releasePool(origin: string, entry: PoolEntry): Promise<void> {
  if (pools.get(origin) !== entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  pools.delete(origin);
  await (await entry.pool).close();
}

/** Open sockets of the shared pool for a base URL (for tests and benchmarks). */
export function poolStats(baseUrl: string): { connected: number; free: number } | undefined {
  const pool = pools.get(new URL(baseUrl).origin)?.ready;
  return pool ? { connected: pool.stats.connected, free: pool.stats.free } : undefined;
}

/** Splits a base URL into the pool's origin and a path prefix (a base URL may sit below a proxy path). */
export function splitBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('base URL is not a valid URL (expected e.g. https://api.example.com)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('base URL must start with http:// or https://');
  if (url.username || url.password) throw new TypeError('base URL must not carry credentials');
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

// ---------------------------------------------------------------------------------------------------------
// Reading answers

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Codes given as digit strings become numbers, so `code === 700002` holds for either envelope. */
function normaliseCode(code: unknown): number | string | undefined {
  if (typeof code === 'number' && Number.isFinite(code)) return code;
  if (typeof code === 'string') {
    const trimmed = code.trim();
    if (/^-?\d{1,15}$/.test(trimmed)) return Number(trimmed);
    return trimmed === '' ? undefined : oneLine(trimmed, 40);
  }
  return undefined;
}

/** An error envelope: {"code":int,"msg":…} or {"code":"0","message":"",…}. */
function readEnvelope(value: unknown): { code?: number | string; message?: string } | undefined {
  if (!isRecord(value)) return undefined;
  if (!('code' in value) && !('msg' in value) && !('message' in value)) return undefined;
  const text = typeof value.msg === 'string' ? value.msg : typeof value.message === 'string' ? value.message : undefined;
  return { code: normaliseCode(value.code), message: text === undefined || text.trim() === '' ? undefined : text };
}

/** One short line from a non-JSON body: an HTML page's title, or its text without tags. */
export function shortLineFromText(text: string, max = 120): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
  const line = oneLine(plain, max);
  return line === '' ? undefined : line;
}

/** The typed error for an error answer of any shape: JSON envelope, other JSON, HTML page, or nothing. */
export function serviceErrorFromBody(operation: string, status: number, text: string, retryAfterMs?: number): BrokerError {
  const parsed = parseJson(text);
  const envelope = parsed.ok ? readEnvelope(parsed.value) : undefined;
  if (envelope) {
    return new BrokerError({ kind: 'service', operation, status, code: envelope.code, serviceMessage: envelope.message, retryAfterMs });
  }
  const line = parsed.ok ? shortLineFromText(typeof parsed.value === 'string' ? parsed.value : text) : shortLineFromText(text);
  return new BrokerError({ kind: 'service', operation, status, serviceMessage: line, retryAfterMs });
}

const SUCCESS_CODES = new Set<number | string>([0, 200]);

/**
 * A 2xx answer read with the operation's schema. Tolerated beyond the plain shape: a success envelope
 * {"code":0,"data":…} is unwrapped, and an error envelope sent with 200 becomes a service error.
 */
export function readSuccess<T>(operation: string, status: number, text: string, schema: v.GenericSchema<unknown, T>): T {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const kindOfBody = text.trim() === '' ? 'an empty body' : 'a body that is not JSON';
    throw new BrokerError({ kind: 'malformed', operation, status, serviceMessage: `HTTP ${status} with ${kindOfBody}` });
  }
  const direct = v.safeParse(schema, parsed.value);
  if (direct.success) return direct.output;
  const envelope = readEnvelope(parsed.value);
  if (envelope && isRecord(parsed.value)) {
    if (envelope.code !== undefined && !SUCCESS_CODES.has(envelope.code)) {
      throw new BrokerError({ kind: 'service', operation, status, code: envelope.code, serviceMessage: envelope.message });
    }
    if ('data' in parsed.value) {
      const wrapped = v.safeParse(schema, parsed.value.data);
      if (wrapped.success) return wrapped.output;
    }
  }
  throw new BrokerError({ kind: 'malformed', operation, status, serviceMessage: describeIssues(direct.issues) });
}

// ---------------------------------------------------------------------------------------------------------
// Failures before an answer

/** Connection errors raised before anything was written: a POST that fails with one of these did not happen. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function errorCode(error: unknown): string | undefined {
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

// ---------------------------------------------------------------------------------------------------------
// The client

type TryResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: BrokerError; retryable: boolean; retryAfterMs?: number; clockSkewed: boolean };

export function createSignedClient(config: ClientConfig): SignedClient {
  const { origin, prefix } = splitBaseUrl(config.baseUrl);
  const pool = acquirePool(origin);
  const now = config.now ?? Date.now;
  const apiKeyHeader = (config.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
  const recvWindow = config.recvWindow ?? DEFAULT_RECV_WINDOW;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signBody = config.signBody ?? true;
  const maxTries = Math.max(1, Math.floor(config.maxTries ?? DEFAULT_MAX_TRIES));
  const baseDelayMs = Math.max(0, config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS);
  let offsetMs = 0;
  let closed = false;

  function observeClock(dateHeader: string | undefined, sentAt: number, receivedAt: number, force: boolean): void {
    const skew = skewFromDateHeader(dateHeader, sentAt, receivedAt);
    if (skew === undefined) return;
    offsetMs = force ? skew : offsetFromSkew(skew);
  }

  function report(info: ExchangeInfo): void {
    try {
      config.onExchange?.(info);
    } catch {
      // A failing observer (status bar, log) must not fail the request.
    }
  }

  async function tryOnce<T>(spec: SignedRequest<T>, attempt: number): Promise<TryResult<T>> {
    const { operation, method, signal } = spec;
    const body = method === 'POST' ? JSON.stringify(Object.fromEntries((spec.body ?? []).filter(([, value]) => value !== undefined))) : '';
    const sentAt = now();
    const query = signQuery({
      params: method === 'GET' ? (spec.query ?? []) : [],
      recvWindow,
      timestamp: Math.round(sentAt + offsetMs),
      body,
      secret: config.secretKey,
      signBody,
    });
    const headers: Record<string, string> = { [apiKeyHeader]: config.apiKey, accept: 'application/json' };
    if (method === 'POST') headers['content-type'] = 'application/json';

    // One controller per try: the caller's cancellation and our own timeout both end it, and we know which.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('request timed out'));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(new Error('request cancelled'));
    signal?.addEventListener('abort', onCallerAbort, { once: true });

    const started = performance.now();
    let status: number | undefined;
    let ok = false;
    try {
      const response = await (await pool.pool).request({
        method,
        path: `${prefix}${spec.path}?${query}`,
        headers,
        body: method === 'POST' ? body : undefined,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const receivedAt = now();
      status = response.statusCode;
      const text = await response.body.text();
      const dateHeader = header(response.headers, 'date');

      if (status >= 200 && status < 300) {
        observeClock(dateHeader, sentAt, receivedAt, false);
        const value = readSuccess(operation, status, text, spec.schema);
        ok = true;
        return { ok: true, value };
      }
      const dateMs = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
      const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after'), Number.isNaN(dateMs) ? now() + offsetMs : dateMs);
      const error = serviceErrorFromBody(operation, status, text, retryAfterMs);
      const clockSkewed = error.code === TIMESTAMP_OUTSIDE_RECV_WINDOW;
      // A 700003 proves the clocks disagree: take the measurement even below the usual threshold.
      observeClock(dateHeader, sentAt, receivedAt, clockSkewed);
      return { ok: false, error, retryable: isRetryableStatus(status), retryAfterMs, clockSkewed };
    } catch (thrown) {
      if (thrown instanceof BrokerError) return { ok: false, error: thrown, retryable: false, clockSkewed: false };
      return { ok: false, error: classifyFailure(thrown, operation, method, signal, timedOut), retryable: true, clockSkewed: false };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
      report({ operation, method, path: `${prefix}${spec.path}`, status, ok, latencyMs: Math.round(performance.now() - started), attempt });
    }
  }

  function classifyFailure(thrown: unknown, operation: string, method: 'GET' | 'POST', signal: AbortSignal | undefined, timedOut: boolean): BrokerError {
    if (signal?.aborted) return new BrokerError({ kind: 'aborted', operation });
    const code = errorCode(thrown);
    const cause = safeCause(thrown);
    if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
      return new BrokerError({ kind: method === 'POST' ? 'outcome-unknown' : 'timeout', operation, cause });
    }
    if (code !== undefined && NOT_SENT_CODES.has(code)) return new BrokerError({ kind: 'network', operation, cause });
    // The connection broke after the request may have been written: for a POST nobody knows what happened.
    return new BrokerError({ kind: method === 'POST' ? 'outcome-unknown' : 'network', operation, cause });
  }

  async function send<T>(spec: SignedRequest<T>): Promise<T> {
    const { operation, method, signal } = spec;
    if (closed) throw new BrokerError({ kind: 'network', operation, cause: new Error('client closed') });
    if (signal?.aborted) throw new BrokerError({ kind: 'aborted', operation });
    // A POST is never retried (DESIGN §5): a second create could make a second key.
    const tries = method === 'GET' ? maxTries : 1;
    let clockRetryLeft = method === 'GET';
    let counted = 0;
    for (let attempt = 1; ; attempt += 1) {
      counted += 1;
      const result = await tryOnce(spec, attempt);
      if (result.ok) return result.value;
      const { error } = result;
      if (error.kind === 'aborted') throw error;
      if (result.clockSkewed && clockRetryLeft) {
        // The offset was just re-measured from this answer; one more try with it, outside the retry budget.
        clockRetryLeft = false;
        counted -= 1;
        continue;
      }
      if (!result.retryable || counted >= tries) throw error;
      if (result.retryAfterMs !== undefined && result.retryAfterMs > RETRY_AFTER_CAP_MS) throw error;
      await sleep(result.retryAfterMs ?? backoffDelay(counted, baseDelayMs), signal, operation);
    }
  }

  return {
    request: send,
    clockOffsetMs: () => offsetMs,
    serverNow: () => Math.round(now() + offsetMs),
    async close() {
      if (closed) return;
      closed = true;
      await releasePool(origin, pool);
    },
  };
}

