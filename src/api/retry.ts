// Retry policy for GETs (docs/reliability.md): bounded tries, exponential backoff with jitter, Retry-After honoured.
import { BrokerError } from './errors';

/** The longest Retry-After the client waits out on its own; longer ones fail at once, carrying retryAfterMs. */
export const RETRY_AFTER_CAP_MS = 10_000;
/** The longest backoff between two tries. */
export const MAX_BACKOFF_MS = 5_000;
export const DEFAULT_MAX_TRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 250;

/** Statuses worth another try for a GET: rate limiting and server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Delay before retry number `retry` (1 for the first retry): base·2^(retry−1), capped, with "equal jitter"
 * (between half and all of it) so that clients rejected together do not come back together.
 */
export function backoffDelay(retry: number, baseMs: number, random: () => number = Math.random, capMs = MAX_BACKOFF_MS): number {
  const exponential = Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Seconds as a number may be written: "10", "10.9", "1e3". */
const SECONDS = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Milliseconds a Retry-After header asks to wait: delta-seconds or an HTTP-date (measured against the
 * response's own Date when given, so a skewed local clock does not matter). Seconds with a fraction are rounded
 * up, and of a list ("5, 7": the header twice) the longest counts: a wait asked for is never cut short.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, referenceNowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const parts = trimmed.split(',').map((part) => part.trim());
  if (parts.every((part) => SECONDS.test(part))) {
    const ms = Math.max(...parts.map((part) => Math.ceil(Number(part) * 1000)));
    return Number.isFinite(ms) ? ms : undefined;
  }
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - referenceNowMs);
}

/** Waits, unless the caller cancels first (then rejects with an 'aborted' BrokerError). */
export function sleep(ms: number, signal: AbortSignal | undefined, operation: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new BrokerError({ kind: 'aborted', operation }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new BrokerError({ kind: 'aborted', operation }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
