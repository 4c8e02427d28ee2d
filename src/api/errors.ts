// One error type for every failure of a request, with a one-line text an operator can act on.
import { SUB_ACCOUNT_REFUSALS, hintFor } from './serviceCodes';

type BrokerErrorKind =
  | 'service' // the service answered with an error (HTTP status and, when given, its code and message)
  | 'network' // the connection failed or was reset before an answer
  | 'timeout' // no answer within the per-request timeout
  | 'aborted' // cancelled by the caller (screen left, Ctrl-C)
  | 'malformed' // an answer came but is not what the operation returns
  | 'too-large' // the answer passed the operation's size limit: reading stopped (never retried)
  | 'invalid-request' // the request could not be built (a header value or URL undici refuses): nothing was sent
  | 'banned' // the service banned this IP (HTTP 418): nothing goes to that base URL until the ban ends
  | 'outcome-unknown'; // a POST was sent and its answer never came or cannot be read: it may have taken effect

/**
 * How far an exchange got before it failed: 'connect' nothing was written (a refused connection),
 * 'sent' the request may have been written but no answer's headers came, 'answer' the headers came (the
 * status is known) and the body did not arrive whole or cannot be read; 'gateway': a proxy in front of the service answered 502/504 for it; 'server': the
 * service answered with a status or code that leaves the request's outcome unknown (5xx, 408, and the codes of
 * OUTCOME_UNKNOWN_CODES).
 */
export type ExchangeStage = 'connect' | 'sent' | 'answer' | 'gateway' | 'server';

interface BrokerErrorDetails {
  kind: BrokerErrorKind;
  operation: string;
  status?: number;
  code?: number | string;
  serviceMessage?: string;
  retryAfterMs?: number;
  cause?: unknown;
  /** network, timeout, outcome-unknown: how far the exchange got. */
  stage?: ExchangeStage;
  /** too-large: the size limit that was passed, in bytes (what: 'headers' when it was the headers'). */
  limitBytes?: number;
  what?: 'body' | 'headers';
  /** timeout (and an outcome-unknown that timed out): the deadline that passed, ms. */
  timeoutMs?: number;
  /** outcome-unknown with an answer: its shape (type, size, top-level field names), never its bytes. */
  answerExcerpt?: string;
  /** Said after the line instead of the code's usual hint (e.g. a 700003 with the measured clock skew). */
  hint?: string;
  /** network or timeout at the 'connect' stage: what failed, in words (a certificate, the proxy), instead of the code. */
  connectProblem?: string;
  /** The proxy the request went through, without its password. */
  via?: string;
  /** What did not happen because nothing was sent, for an operation that changes something ("no key was created"). */
  nothingDone?: string;
  /** banned: when the ban ends (Unix ms), and how long that was from when the error was made. */
  banEndsAt?: number;
  banLeftMs?: number;
  /** banned, or a 429 of this client's own: whether this request went out (the service answered it) or was held back. */
  sent?: boolean;
  /** timeout: how many tries the deadline passed in (a GET is tried again), when more than one. */
  tries?: number;
}

export class BrokerError extends Error {
  readonly kind: BrokerErrorKind;
  readonly operation: string;
  readonly status?: number;
  readonly code?: number | string;
  readonly serviceMessage?: string;
  readonly retryAfterMs?: number;
  readonly stage?: ExchangeStage;
  readonly limitBytes?: number;
  readonly timeoutMs?: number;
  readonly answerExcerpt?: string;
  readonly hint?: string;
  readonly via?: string;
  readonly connectProblem?: string;
  readonly banEndsAt?: number;
  /** banned, or a 429 of this client's own: false when the request was held back, never sent. */
  readonly sent?: boolean;

  /** What it was made from: the same error, said again with a wait that has since run down (withRetryAfter). */
  readonly #details: BrokerErrorDetails;

  constructor(details: BrokerErrorDetails) {
    super(describe(details), details.cause === undefined ? undefined : { cause: details.cause });
    this.#details = details;
    this.name = 'BrokerError';
    this.kind = details.kind;
    this.operation = details.operation;
    this.status = details.status;
    this.code = details.code;
    this.serviceMessage = details.serviceMessage;
    this.retryAfterMs = details.retryAfterMs;
    this.stage = details.stage;
    this.limitBytes = details.limitBytes;
    this.timeoutMs = details.timeoutMs;
    this.answerExcerpt = details.answerExcerpt;
    this.hint = details.hint;
    this.via = details.via;
    this.connectProblem = details.connectProblem;
    this.banEndsAt = details.banEndsAt;
    this.sent = details.sent;
  }

  /** The same error with what is left of its Retry-After (0 or less: the wait is over, and it says so). */
  withRetryAfter(ms: number): BrokerError {
    if (ms > 0) return new BrokerError({ ...this.#details, retryAfterMs: ms });
    return new BrokerError({ ...this.#details, retryAfterMs: undefined, hint: this.#details.hint ?? 'the wait the service asked for is over: try again' });
  }

  /** The same error, said to have come on the last of `tries` tries. */
  afterTries(tries: number): BrokerError {
    return tries > 1 ? new BrokerError({ ...this.#details, tries }) : this;
  }

  /** The same error, said of another operation (a request made for a purpose of its own, such as a check). */
  as(operation: string): BrokerError {
    return new BrokerError({ ...this.#details, operation });
  }

  /** The one line shown in the status bar or on stderr. */
  toLine(): string {
    return this.message;
  }
}

const RATE_LIMITED_HINT = 'rate limited: wait and try again';

/** The service's own code for "no permission for the endpoint", which it also answers with 403. */
const NO_PERMISSION_CODE = 700007;
const FIREWALL_HINT =
  'the request was blocked in front of the service: check that this IP (or its VPN or proxy) may reach it; the same request sent again will be refused again';

/** "1 MiB", "64 KiB", "512 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** "25 ms", "0.3 s", "2.5 s", "30 s", "10 min", "28 h": a wait or a deadline as an operator reads it. */
export function formatDuration(ms: number): string {
  const seconds = Math.abs(ms) / 1000;
  // Under a tenth of a second in milliseconds (`--timeout 25` is "25 ms", never "0 s"); 99.5 ms and up is "0.1 s".
  if (Math.round(Math.abs(ms)) < 100) return `${Math.round(Math.abs(ms))} ms`;
  if (seconds < 10) return `${Number(seconds.toFixed(1))} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  if (seconds < 31_536_000) return `${Math.round(seconds / 86_400)} days`;
  return 'more than a year';
}

const AGAIN = 'it may have taken effect; check before sending it again';

function describe(d: BrokerErrorDetails): string {
  switch (d.kind) {
    case 'service': {
      if (d.status === 403 && String(d.code) !== String(NO_PERMISSION_CODE)) {
        const said = d.serviceMessage ? ` (${oneLine(d.serviceMessage, 200)})` : '';
        return `${d.operation} failed: the service's firewall refused the request (HTTP 403)${said} — ${d.hint ?? FIREWALL_HINT}`;
      }
      const codePart = d.code !== undefined && d.code !== '' ? ` code ${d.code}` : '';
      const msgPart = d.serviceMessage ? `: ${oneLine(d.serviceMessage)}` : '';
      const retryIn = d.retryAfterMs !== undefined && d.retryAfterMs > 0 ? `rate limited: try again in ${formatDuration(d.retryAfterMs)}` : undefined;
      const hint = d.hint ?? (d.status === 429 ? retryIn : undefined) ?? hintFor(d.code) ?? (d.status === 429 ? RATE_LIMITED_HINT : undefined);
      return `${d.operation} failed (HTTP ${d.status ?? '?'}${codePart})${msgPart}${hint ? ` — ${hint}` : ''}`;
    }
    case 'network': {
      const cause = oneLine(causeText(d.cause));
      if (d.stage === 'connect') {
        const what = d.connectProblem ?? `could not reach the service${d.via ? ` through the proxy ${d.via}` : ''} (${cause})`;
        return `${d.operation} failed: ${what} — ${notSent(d)}${d.hint ?? 'check the base URL and the network'}`;
      }
      if (d.stage === 'answer') return `${d.operation} failed: the connection broke while the answer was arriving (${cause}) — try again`;
      if (d.stage === 'sent') return `${d.operation} failed: the connection closed before an answer came (${cause}) — try again`;
      return `${d.operation} failed: could not reach the service (${cause}) — check the base URL and the network`;
    }
    case 'timeout': {
      if (d.timeoutMs === undefined) return `${d.operation} timed out — the service did not answer in time; try again or raise --timeout`;
      const within = `${formatDuration(d.timeoutMs)}${d.tries === undefined ? '' : `, on each of ${d.tries} tries`}`;
      if (d.stage === 'connect') {
        const what = d.connectProblem ?? `no connection${d.via ? ` through the proxy ${d.via}` : ''}`;
        return `${d.operation} failed: ${what} within ${within} — ${notSent(d)}try again or raise --timeout`;
      }
      return d.stage === 'answer'
        ? `${d.operation} failed: the answer did not finish within ${within} — try again or raise --timeout`
        : `${d.operation} failed: no answer within ${within} — try again or raise --timeout`;
    }
    case 'too-large': {
      const limit = formatBytes(d.limitBytes ?? 0);
      const status = d.status === undefined ? '' : ` (HTTP ${d.status})`;
      return d.what === 'headers'
        ? `${d.operation} failed: the answer's headers were larger than ${limit} — reading stopped`
        : `${d.operation} failed: the answer${status} was larger than ${limit} — reading stopped, not retried`;
    }
    case 'invalid-request':
      return `${d.operation} was not sent: ${oneLine(d.serviceMessage ?? 'the request could not be built')}`;
    case 'aborted':
      return `${d.operation} was cancelled`;
    case 'banned': {
      const left = formatDuration(Math.max(1, Math.ceil((d.banLeftMs ?? 0) / 1000)) * 1000);
      const tail = d.sent === false ? 'not sent: nothing goes to this service until the ban ends' : 'nothing more goes to this service until the ban ends';
      return `${d.operation} failed: the service has banned this IP for ${left} (HTTP 418) — ${tail}`;
    }
    case 'malformed':
      return `${d.operation} got an unexpected answer from the service${d.serviceMessage ? ` (${oneLine(d.serviceMessage)})` : ''}`;
    case 'outcome-unknown': {
      if (d.stage === 'gateway') {
        const said = d.serviceMessage ? ` (${oneLine(d.serviceMessage)})` : '';
        return `${d.operation}: a gateway answered HTTP ${d.status ?? '?'}${said}; the service behind it may have done the request — ${AGAIN}`;
      }
      if (d.stage === 'server') {
        const codePart = d.code !== undefined && d.code !== '' ? ` code ${d.code}` : '';
        const said = d.serviceMessage ? `: ${oneLine(d.serviceMessage)}` : '';
        return `${d.operation}: the service answered HTTP ${d.status ?? '?'}${codePart}${said}, which does not say whether it was done — ${AGAIN}`;
      }
      if (d.stage === 'answer') {
        const why = d.serviceMessage ? `: ${oneLine(d.serviceMessage)}` : '';
        const excerpt = d.answerExcerpt === undefined ? '' : `; what came: ${d.answerExcerpt}`;
        return `${d.operation}: the answer (HTTP ${d.status ?? '?'}) could not be read${why}${excerpt} — ${AGAIN}`;
      }
      const why =
        d.timeoutMs !== undefined ? `no answer within ${formatDuration(d.timeoutMs)}` : d.cause !== undefined ? oneLine(causeText(d.cause)) : undefined;
      return `${d.operation}: the request was sent but no answer came${why ? ` (${why})` : ''} — ${AGAIN}`;
    }
  }
}

/** "nothing was sent, no key was created; " for an operation that changes something, else nothing. */
function notSent(d: BrokerErrorDetails): string {
  return d.nothingDone ? `nothing was sent, ${d.nothingDone}; ` : '';
}

function causeText(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? code : cause.message;
  }
  return 'unknown error';
}

/** The first line of what was thrown: an Error's message, or anything else as text. */
export function firstLineOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/**
 * Keeps error text to one line (the console wraps it, whole): whitespace runs become one space, and only a
 * message past 1,000 characters (an HTML page, a dump) is cut.
 */
export function oneLine(text: string, max = 1000): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The service's code for "sub account does not exist". */
const UNKNOWN_SUB_ACCOUNT_CODE = 140001;

/** Whether the service said there is no such sub-account (not a failure a retry or a reload can fix). */
export function isUnknownSubAccount(error: Error | undefined): boolean {
  return error instanceof BrokerError && error.kind === 'service' && String(error.code) === String(UNKNOWN_SUB_ACCOUNT_CODE);
}

/** Whether the service refused this one sub-account (unknown or forbidden), not the request as a whole. */
export function isSubAccountRefused(error: Error | undefined): boolean {
  return error instanceof BrokerError && error.kind === 'service' && error.code !== undefined && SUB_ACCOUNT_REFUSALS.has(String(error.code));
}

/** A service's answer that leaves a POST's outcome unknown, as the unknown outcome it is (its code and text kept). */
export function unknownOutcomeFrom(said: BrokerError): BrokerError {
  return new BrokerError({
    kind: 'outcome-unknown',
    operation: said.operation,
    status: said.status,
    code: said.code,
    serviceMessage: said.serviceMessage,
    stage: 'server',
  });
}
