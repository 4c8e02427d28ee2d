// The signed client (docs/signing.md, docs/reliability.md): one closure owning the keep-alive pool, the clock offset and the retry
// policy. Operations describe a request; this module signs it, sends it, and turns every failure into a BrokerError.
//
// Bounded on the wire (docs/design.md, bounds):
// - every answer is read as a stream up to its operation's limit (SignedRequest.maxBytes; error answers up to
//   ERROR_BODY_LIMIT, of which one line is shown); past it the request is aborted, so memory stays flat;
// - one deadline (timeoutMs) covers connecting, the headers and every byte of the body;
// - a GET is tried up to maxTries times on a connection error, a deadline passed (before the headers, or a
//   body that stalled: the next try may find a healthy connection), a 5xx or a 429 (Retry-After waited out up
//   to retryAfterCapMs, else it fails at once saying when to try again). An answer over its size limit is not
//   retried: the same request would bring the same answer;
// - a POST is sent once. A failure before its first byte was written (DNS, refused, TLS, a proxy's refusal, a
//   header undici refuses: undici's sendHeaders message never came) means nothing happened; after that, no answer
//   or an unreadable 2xx answer is an unknown outcome (exit 3). The one resend is a 700003, which the service
//   gives before doing anything: the clock is re-measured from it first.
//   Under the 'auto' POST signature a 700002 to a create is resent once too, signed by the other rule.
import * as v from 'valibot';
import { withoutOwnCredentials } from './redact';
import { CLOCK_SKEW_THRESHOLD_MS, agreeingClocksExplain, clockHint, offsetFromSkew, skewFromDateHeader } from './clock';
import type { ClientConfig, ExchangeInfo } from './contract';
import { BrokerError, formatBytes, unknownOutcomeFrom } from './errors';
import { apiKeyProblem, headerNameProblem } from './headers';
import { DEFAULT_MAX_TRIES, DEFAULT_RETRY_BASE_DELAY_MS, RETRY_AFTER_CAP_MS, backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from './retry';
import { answerShape, decodeCreateAnswer, unreadableAnswers } from './answerShape';
import { DEFAULT_BAN_MS, SERVICE_LIMIT, banEnd, noteBan, servicePacer } from './pacing';
import { SIGNATURE_REFUSED_CODES, TIMESTAMP_OUTSIDE_RECV_WINDOW, createOutcomeUnknown } from './serviceCodes';
import { acquirePool, awaitingFirstByte, poolKey, releasePool, splitBaseUrl } from './pools';
import { header, parseJson, quoteNumbers, readBody, readSuccess, serviceErrorFromBody } from './answers';
import { classifyFailure, describeRedirect } from './failures';
import {
  DEFAULT_API_KEY_HEADER,
  DEFAULT_POST_SIGNATURE_RULE,
  DEFAULT_RECV_WINDOW,
  type PostSignatureRule,
  type QueryParams,
  otherPostSignatureRule,
  signQuery,
} from './signing';

export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * Codes the service may give before it has checked the signature (key, timestamp, recvWindow, IP, parameters, a
 * limit) or that say it failed on its own side:
 * an answer with one of them says nothing about which POST signature rule it accepts.
 */
const BEFORE_SIGNATURE_CODES = new Set([
  400, 401, 402, 403, 429, 500, 503, 504, 20002, 602, 700001, 700002, 700003, 700004, 700005, 700006, 700008, 700013, 10072,
]);
/**
 * How much of an error answer is read (an HTML page, an envelope): its first line is all that is shown.
 * The rest is not read; the connection is closed instead.
 */
export const ERROR_BODY_LIMIT = 64 * 1024;

interface SignedRequest<T> {
  /** In the operator's words; it starts every error line ("list keys failed …"). */
  operation: string;
  method: 'GET' | 'POST';
  /** Path of the operation below the base URL, e.g. /api/v3/broker/sub-account/apiKey. */
  path: string;
  /** GET: the operation's query parameters in the service's documented order (undefined ones are left out). */
  query?: QueryParams;
  /** POST: the body parameters in the service's documented order, sent as a JSON object (undefined ones are left out). */
  body?: QueryParams;
  schema: v.GenericSchema<unknown, T>;
  /** The schema's output for the usual shape, read quicker; undefined for anything else, which the schema reads. */
  plainRead?: (value: unknown) => T | undefined;
  /**
   * The most bytes a successful answer of this operation may have. Past it, reading stops and the request
   * is aborted: a GET fails (not retried, the same answer would come again), a POST's outcome is unknown.
   */
  maxBytes: number;
  /** Keys whose JSON number values are kept as their text (quoted before parsing): amounts stay exact. */
  numbersAsText?: readonly string[];
  /** Keys whose JSON numbers are kept as their text when parsing could change them (ids and times beyond 2^53). */
  longNumbersAsText?: readonly string[];
  signal?: AbortSignal;
  /** For an operation that changes something: what did not happen when nothing was sent ("no key was created"). */
  nothingDone?: string;
  /** Told of each exchange of this request after config.onExchange (see CallOptions.onExchange). */
  onExchange?: (exchange: ExchangeInfo) => void;
  /** Told before a try waits for the service's budget, with the wait in ms (see CallOptions.onWait). */
  onWait?: (ms: number) => void;
  /** Told as a try's first bytes go out (see CallOptions.onSending). */
  onSending?: () => void;
}

interface SignedClient {
  request<T>(request: SignedRequest<T>): Promise<T>;
  /** Server-minus-local clock offset currently applied to timestamps. */
  clockOffsetMs(): number;
  /** Estimated server time now (local clock plus offset). */
  serverNow(): number;
  /** Releases this client's hold on its connection pool (the pool closes when its last client does). */
  close(): Promise<void>;
  /** Reports each request that has left and has no answer yet, as cut short: for a process ending on a signal. */
  reportCutShort(): void;
  /** Why a request of `operation` would not be sent now (a ban, or a wait longer than a request waits), if so. */
  heldBack(operation: string): BrokerError | undefined;
}

/** A try under way: whether its first bytes left, and its exchange as cut short now. */
interface OutstandingTry {
  sent(): boolean;
  cutShort(): ExchangeInfo;
  own: ((exchange: ExchangeInfo) => void) | undefined;
  reported: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// The client

type TryResult<T> =
  { ok: true; value: T } | { ok: false; error: BrokerError; retryable: boolean; retryAfterMs?: number; clockSkewed: boolean; remeasured: boolean };

function failed(error: BrokerError, retryable = false): TryResult<never> {
  return { ok: false, error, retryable, clockSkewed: false, remeasured: false };
}

/** A refusal given after the signature was checked and accepted: a business code (e.g. 730603, 140001), not a 5xx or a limit. */
function passedSignatureCheck(error: BrokerError): boolean {
  if (error.kind !== 'service' || typeof error.code !== 'number' || BEFORE_SIGNATURE_CODES.has(error.code)) return false;
  return error.status !== undefined && error.status < 500 && error.status !== 429 && error.status !== 418;
}

/** A create's 700002 said with what was tried: both rules under 'auto', else the one pinned rule. */
function signatureRefused(error: BrokerError, pinned: PostSignatureRule | undefined): BrokerError {
  const hint =
    pinned === undefined
      ? 'refused under both POST signature rules (query only, query + body): check the API secret'
      : `check the API secret, or the POST signature setting (pinned to ${pinned === 'query' ? 'query only' : 'query + body'}; auto tries both)`;
  return new BrokerError({
    kind: error.kind,
    operation: error.operation,
    status: error.status,
    code: error.code,
    serviceMessage: error.serviceMessage,
    retryAfterMs: error.retryAfterMs,
    hint,
  });
}

export function createSignedClient(config: ClientConfig): SignedClient {
  const { origin, prefix } = splitBaseUrl(config.baseUrl);
  const proxy = config.proxy;
  const key = poolKey(origin, proxy);
  const now = config.now ?? Date.now;
  const apiKeyHeader = (config.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
  const recvWindow = config.recvWindow ?? DEFAULT_RECV_WINDOW;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pool = acquirePool(origin, proxy, timeoutMs);
  const postSignature = config.postSignature ?? 'auto';
  // The rule a create is signed with first; under 'auto' it follows what the service last accepted.
  let postRule: PostSignatureRule = postSignature === 'auto' ? (config.rememberedPostSignature ?? DEFAULT_POST_SIGNATURE_RULE) : postSignature;
  const maxTries = Math.max(1, Math.floor(config.maxTries ?? DEFAULT_MAX_TRIES));
  const baseDelayMs = Math.max(0, config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS);
  const retryAfterCapMs = Math.max(0, config.retryAfterCapMs ?? RETRY_AFTER_CAP_MS);
  // What the HTTP layer would refuse is found before anything is sent, and said as such.
  const headerProblem = headerNameProblem(config.apiKeyHeader ?? DEFAULT_API_KEY_HEADER) ?? apiKeyProblem(config.apiKey);
  let offsetMs = Number.isFinite(config.initialClockOffsetMs) ? Math.round(config.initialClockOffsetMs ?? 0) : 0;
  let closed = false;
  /** The tries under way, for reportCutShort. */
  const outstanding = new Set<OutstandingTry>();
  // Pacing and bans are kept per base URL for the whole process (pacing.ts): every client shares them.
  const banScope = `${origin}${prefix}`;
  const serviceLimit = config.serviceLimit ?? SERVICE_LIMIT;
  if (config.banEndsAt !== undefined) noteBan(banScope, config.banEndsAt);

  /** Takes the skew measured on an answer; returns it (undefined without a readable Date header). */
  function observeClock(dateHeader: string | undefined, sentAt: number, receivedAt: number, force: boolean): number | undefined {
    const skew = skewFromDateHeader(dateHeader, receivedAt, sentAt);
    if (skew === undefined) return undefined;
    // A slow exchange that agreeing clocks could explain measured nothing: an offset learned before stays. (A fast
    // one that they explain measured agreement: the offset goes.)
    if (skew === 0 && receivedAt - sentAt > CLOCK_SKEW_THRESHOLD_MS && agreeingClocksExplain(Date.parse(dateHeader!), sentAt, receivedAt)) return skew;
    offsetMs = force ? skew : offsetFromSkew(skew);
    return skew;
  }

  function report(info: ExchangeInfo, own?: (exchange: ExchangeInfo) => void): void {
    for (const observer of [config.onExchange, own]) {
      try {
        observer?.(info);
      } catch {
        // A failing observer (status bar, log, pacer) must not fail the request.
      }
    }
  }

  async function tryOnce<T>(spec: SignedRequest<T>, attempt: number, rule: PostSignatureRule, pacedMs = 0): Promise<TryResult<T>> {
    const { operation, method, signal } = spec;
    const body = method === 'POST' ? JSON.stringify(Object.fromEntries((spec.body ?? []).filter(([, value]) => value !== undefined))) : '';
    // The deadline is the exchange's: undici, loaded at a process's first request, is in before it starts (a
    // failed load is met again, and said, inside the try below).
    await pool.pool.catch(() => undefined);
    const sentAt = now();
    const query = signQuery({
      params: method === 'GET' ? (spec.query ?? []) : [],
      recvWindow,
      timestamp: Math.round(sentAt + offsetMs),
      body,
      secret: config.secretKey,
      rule,
    });
    const headers: Record<string, string> = { [apiKeyHeader]: config.apiKey, accept: 'application/json' };
    if (method === 'POST') headers['content-type'] = 'application/json';

    // One controller per try: the caller's cancellation and our own deadline both end it, and we know which.
    // The deadline covers the whole exchange: connecting, the headers and every byte of the body.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('request timed out'));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(new Error('request cancelled'));
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (signal?.aborted) onCallerAbort();

    const started = performance.now();
    let status: number | undefined;
    let ok = false;
    let retryAfterMs: number | undefined;
    const path = `${prefix}${spec.path}?${query}`;
    const firstByte = { written: false, onWritten: spec.onSending };
    const marks = awaitingFirstByte.get(path) ?? new Set();
    marks.add(firstByte);
    awaitingFirstByte.set(path, marks);
    let banEndsAt: number | undefined;
    const exchange = (cancelled: boolean): ExchangeInfo => ({
      operation,
      method,
      path: `${prefix}${spec.path}`,
      status,
      ok,
      ...(cancelled ? { cancelled } : {}),
      latencyMs: Math.round(performance.now() - started),
      attempt,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(method === 'POST' ? { postSignature: rule } : {}),
      ...(proxy === undefined ? {} : { proxy: proxy.shown }),
      ...(pacedMs > 0 ? { pacedMs } : {}),
      ...(banEndsAt === undefined ? {} : { banEndsAt }),
    });
    const out: OutstandingTry = { sent: () => firstByte.written, cutShort: () => exchange(true), own: spec.onExchange, reported: false };
    outstanding.add(out);
    try {
      const response = await (
        await pool.pool
      ).request({
        origin,
        method,
        path,
        headers,
        body: method === 'POST' ? body : undefined,
        signal: controller.signal,
        // undici's own timers are inactivity timers; the deadline above is the one that counts.
        headersTimeout: timeoutMs + 1_000,
        bodyTimeout: timeoutMs + 1_000,
      });
      const receivedAt = now();
      status = response.statusCode;
      const dateHeader = header(response.headers, 'date');
      const success = status >= 200 && status < 300;
      const limit = success ? spec.maxBytes : ERROR_BODY_LIMIT;
      const read = await readBody(response.body, limit, header(response.headers, 'content-length'), !success);
      if (read.over) controller.abort(new Error('answer too large'));
      // A create's answer is checked for invalid UTF-8: a secret read with replacement characters is not the service's.
      const decoded = method === 'POST' && success ? decodeCreateAnswer(read.bytes) : { text: read.bytes.toString('utf8'), valid: true };
      // An error's text goes to stderr and the audit trail: our own key, secret and signature echoed in it are not repeated.
      const own = { apiKey: config.apiKey, secretKey: config.secretKey, signature: new URLSearchParams(query).get('signature') ?? undefined };
      const text = success ? decoded.text : withoutOwnCredentials(decoded.text, own);

      if (success) {
        observeClock(dateHeader, sentAt, receivedAt, false);
        if (read.over) {
          if (method === 'POST') {
            return failed(
              new BrokerError({ kind: 'outcome-unknown', operation, status, stage: 'answer', serviceMessage: `it was larger than ${formatBytes(limit)}` }),
            );
          }
          return failed(new BrokerError({ kind: 'too-large', operation, status, limitBytes: limit }));
        }
        try {
          const value = readSuccess(operation, status, quoteNumbers(text, spec.numbersAsText), spec.schema, spec.plainRead, spec.longNumbersAsText);
          if (!decoded.valid && typeof value === 'object' && value !== null) unreadableAnswers.add(value);
          ok = true;
          return { ok: true, value };
        } catch (thrown) {
          // An error envelope in a 2xx: its message is said too, so what it echoes of ours is taken out as above.
          const error =
            thrown instanceof BrokerError && thrown.kind === 'service' && thrown.serviceMessage !== undefined
              ? new BrokerError({ kind: 'service', operation, status, code: thrown.code, serviceMessage: withoutOwnCredentials(thrown.serviceMessage, own) })
              : thrown;
          // -1006/-1007 or an internal-error code in a 2xx envelope: the back end did not say whether the key was made.
          if (method === 'POST' && error instanceof BrokerError && error.kind === 'service' && createOutcomeUnknown(status, error.code))
            return failed(unknownOutcomeFrom(error));
          // A create answered but unreadable: the key was probably made, and its secret is lost. Unknown, not failed.
          if (method === 'POST' && error instanceof BrokerError && error.kind === 'malformed') {
            const why =
              text.trim() === ''
                ? 'it was empty'
                : !parseJson(text).ok
                  ? 'it is not JSON'
                  : `it is not a created key (${error.serviceMessage ?? 'unexpected shape'})`;
            // By its shape only: any byte of it may be the secret, under any name or encoding.
            const excerpt = text.trim() === '' ? undefined : answerShape(text, read.bytes.length, header(response.headers, 'content-type'));
            return failed(new BrokerError({ kind: 'outcome-unknown', operation, status, stage: 'answer', serviceMessage: why, answerExcerpt: excerpt }));
          }
          throw error;
        }
      }

      if (status >= 300 && status < 400) {
        // Never followed: the API key and a signed query must not go to wherever a redirect points.
        const where = describeRedirect(header(response.headers, 'location'), origin);
        return failed(
          new BrokerError({
            kind: 'service',
            operation,
            status,
            serviceMessage: where,
            hint: 'redirects are not followed (the API key is not sent elsewhere): check the base URL',
          }),
        );
      }
      // A gateway in front of the service said it lost the upstream (502) or gave up waiting (504): the service
      // behind it may have made the key. For a create that is an unknown outcome, not a failure.
      if (method === 'POST' && (status === 502 || status === 504)) {
        const said = serviceErrorFromBody(operation, status, text, undefined);
        return failed(new BrokerError({ kind: 'outcome-unknown', operation, status, stage: 'gateway', serviceMessage: said.serviceMessage }));
      }
      // Any other 5xx (the docs: execution status unknown), a 408, or an outcome-unknown code: the key may have been made.
      if (method === 'POST') {
        const said = serviceErrorFromBody(operation, status, text, undefined);
        if (createOutcomeUnknown(status, said.code)) return failed(unknownOutcomeFrom(said));
      }
      const dateMs = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
      retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after'), Number.isNaN(dateMs) ? now() + offsetMs : dateMs);
      if (status === 418) {
        // An IP ban: every request to this base URL stops now, in this process and (through onBan) the next runs.
        const leftMs = retryAfterMs ?? DEFAULT_BAN_MS;
        banEndsAt = now() + leftMs;
        noteBan(banScope, banEndsAt);
        try {
          config.onBan?.(banEndsAt);
        } catch {
          // keeping the ban for the next run is best effort; this run honours it anyway
        }
        return failed(new BrokerError({ kind: 'banned', operation, status, retryAfterMs: leftMs, banEndsAt, banLeftMs: leftMs, sent: true }));
      }
      let error = serviceErrorFromBody(operation, status, text, retryAfterMs);
      const clockSkewed = error.code === TIMESTAMP_OUTSIDE_RECV_WINDOW;
      // A 700003 proves the clocks disagree: take the measurement even below the usual threshold.
      const skew = observeClock(dateHeader, sentAt, receivedAt, clockSkewed);
      if (clockSkewed) error = serviceErrorFromBody(operation, status, text, retryAfterMs, clockHint(skew, recvWindow));
      return { ok: false, error, retryable: isRetryableStatus(status), retryAfterMs, clockSkewed, remeasured: skew !== undefined };
    } catch (thrown) {
      if (thrown instanceof BrokerError) return failed(thrown);
      const { error, retryable } = classifyFailure(thrown, spec, { origin, via: proxy?.shown, timeoutMs }, { timedOut, status, written: firstByte.written });
      return failed(error, retryable);
    } finally {
      marks.delete(firstByte);
      if (marks.size === 0 && awaitingFirstByte.get(path) === marks) awaitingFirstByte.delete(path);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
      outstanding.delete(out);
      // Already reported as cut short (the process is ending on a signal): one line per try.
      // Given up by the caller, even with the status line in (a body cut short by a cancelled export).
      if (!out.reported) report(exchange(!ok && signal?.aborted === true && !timedOut), spec.onExchange);
    }
  }

  /** Each try that has left and has no answer yet is reported now as cut short (cancelled), once. */
  function reportCutShort(): void {
    for (const out of outstanding) {
      if (out.reported || !out.sent()) continue;
      out.reported = true;
      report(out.cutShort(), out.own);
    }
  }

  /** Throws (after telling the observers) when a ban of this base URL is in force: nothing is sent. */
  function holdBackIfBanned<T>(spec: SignedRequest<T>, attempt: number): void {
    const at = now();
    const endsAt = banEnd(banScope, at);
    if (endsAt === undefined) return;
    const { operation, method } = spec;
    report({ operation, method, path: `${prefix}${spec.path}`, ok: false, latencyMs: 0, attempt, banEndsAt: endsAt, notSent: true }, spec.onExchange);
    throw bannedError(operation, endsAt, at);
  }

  async function send<T>(spec: SignedRequest<T>): Promise<T> {
    const { operation, method, signal } = spec;
    if (closed) throw new BrokerError({ kind: 'network', operation, cause: new Error('client closed') });
    if (signal?.aborted) throw new BrokerError({ kind: 'aborted', operation });
    if (headerProblem !== undefined) throw new BrokerError({ kind: 'invalid-request', operation, serviceMessage: `${headerProblem} — nothing was sent` });
    // A POST is never retried (docs/design.md, unknown outcomes): a second create could make a second key. The one exception is a
    // 700003, which says the request was refused before anything was done: it is sent once more, with the
    // clock offset re-measured from that very answer.
    const tries = method === 'GET' ? maxTries : 1;
    let clockRetryLeft = true;
    let counted = 0;
    // Tries whose deadline passed: the last error says "on each of N tries" only when every try was one.
    let timedOut = 0;
    let rule = postRule;
    // A 700002 or 602 is a refusal before anything was done: under 'auto' a create is sent once more by the other rule.
    let signatureRetryLeft = method === 'POST' && postSignature === 'auto';
    const pacer = servicePacer(banScope, serviceLimit);
    for (let attempt = 1; ; attempt += 1) {
      counted += 1;
      // Never sent while a ban is in force, nor past the service's budget (checked again after the wait).
      holdBackIfBanned(spec, attempt);
      const pausedMs = pacer.pausedFor();
      if (pausedMs > retryAfterCapMs) throw waitTooLongError(operation, pausedMs);
      const ticket = pacer.take();
      let pacedMs = 0;
      for (let wait = ticket.waitMs; wait > 0; wait = pacer.due(ticket)) {
        if (pacedMs === 0) {
          spec.onWait?.(wait);
          config.onWaiting?.({ operation, untilMs: now() + wait });
        }
        await sleep(wait, signal, operation).catch(waitCancelled(operation));
        pacedMs += wait;
        holdBackIfBanned(spec, attempt);
      }
      const sentAt = pacer.time();
      pacer.mark(ticket, sentAt);
      const result = await tryOnce(spec, attempt, rule, pacedMs);
      // The service had it before its answer came: the sends a period after that cannot share its window.
      pacer.mark(ticket);
      if (method === 'POST') acceptedBy(rule, result);
      if (result.ok) return result.value;
      const { error } = result;
      if (error.kind === 'service' && error.status === 429) pacer.refused(sentAt, result.retryAfterMs);
      if (error.kind === 'aborted') throw error;
      if (method === 'POST' && error.kind === 'service' && SIGNATURE_REFUSED_CODES.has(error.code)) {
        if (signatureRetryLeft) {
          signatureRetryLeft = false;
          rule = otherPostSignatureRule(rule);
          counted -= 1;
          continue;
        }
        throw signatureRefused(error, postSignature === 'auto' ? undefined : rule);
      }
      if (result.clockSkewed && clockRetryLeft && (method === 'GET' || result.remeasured)) {
        // The offset was just re-measured from this answer; one more try with it, outside the retry budget.
        clockRetryLeft = false;
        counted -= 1;
        continue;
      }
      if (!result.retryable) throw error;
      if (error.kind === 'timeout') timedOut += 1;
      if (counted >= tries) throw error.kind === 'timeout' && timedOut === counted ? error.afterTries(counted) : error;
      if (result.retryAfterMs !== undefined && result.retryAfterMs > retryAfterCapMs) throw error;
      // Retry-After is the least to wait; a "0" still gets the backoff, so a busy service is not hammered.
      const waitMs = Math.max(result.retryAfterMs ?? 0, backoffDelay(counted, baseDelayMs));
      config.onWaiting?.({ operation, untilMs: now() + waitMs });
      await sleep(waitMs, signal, operation).catch(waitCancelled(operation));
    }
  }

  /** A wait the caller gave up on (a screen left): it no longer goes, so the wait said is taken back. */
  function waitCancelled(operation: string): (error: unknown) => never {
    return (error) => {
      config.onWaiting?.({ operation, untilMs: now() });
      throw error;
    };
  }

  /** Under 'auto': a create's answer that got past the signature check settles the rule, for this client and the next run. */
  function acceptedBy(rule: PostSignatureRule, result: TryResult<unknown>): void {
    if (postSignature !== 'auto' || (!result.ok && !passedSignatureCheck(result.error))) return;
    postRule = rule;
    try {
      config.onPostSignature?.(rule);
    } catch {
      // Remembering is a convenience: it must not fail the create.
    }
  }

  return {
    request: send,
    reportCutShort,
    heldBack(operation) {
      const at = now();
      const endsAt = banEnd(banScope, at);
      if (endsAt !== undefined) return bannedError(operation, endsAt, at);
      const pausedMs = servicePacer(banScope, serviceLimit).pausedFor(at);
      return pausedMs > retryAfterCapMs ? waitTooLongError(operation, pausedMs) : undefined;
    },
    clockOffsetMs: () => offsetMs,
    serverNow: () => Math.round(now() + offsetMs),
    async close() {
      if (closed) return;
      closed = true;
      await releasePool(key, pool);
    },
  };
}

/** A request held back by a ban in force: never sent. */
function bannedError(operation: string, endsAt: number, at: number): BrokerError {
  return new BrokerError({ kind: 'banned', operation, status: 418, banEndsAt: endsAt, banLeftMs: endsAt - at, sent: false });
}

/** A request held back because the service asked for a wait longer than a try waits: never sent. */
function waitTooLongError(operation: string, pausedMs: number): BrokerError {
  return new BrokerError({
    kind: 'service',
    operation,
    status: 429,
    serviceMessage: 'not sent: the service asked to wait',
    retryAfterMs: pausedMs,
    sent: false,
  });
}
