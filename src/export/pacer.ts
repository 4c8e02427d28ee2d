// Pacing an export's page requests by what the service's 429s teach (DESIGN §7): its rate limit is not in
// the spec. One pacer per export. Until the service refuses a request, nothing is delayed. The first 429
// teaches a budget from the spacing that worked: the requests the service accepted in this stretch, over
// the time they took plus the Retry-After it asked for (1 s when it gives none; whole seconds when the wait
// is, see windowEstimate). From then on the export
// never sends more than that budget in any span of that length (a sliding log of send times), so a long
// export meets one 429, not one per window. A later 429 (another client on the same key, a limit that
// changed) can only slow it further. The client's own retries (it waits out a Retry-After itself) count as
// sends, and teach the pacer through the call's exchange observer.
import type { ExchangeInfo } from '../api/contract';
import { BrokerError } from '../api/errors';
import { sleep } from '../api/retry';

/** Send times remembered: the largest budget kept as a burst (a larger one is scaled down, same rate). */
export const PACER_LOG_SIZE = 4096;
/** Assumed when a 429 says no Retry-After (the common limits are per second). */
export const DEFAULT_RETRY_AFTER_MS = 1000;
/** Added to a learned period: a send's arrival may come a little earlier or later than its sending. */
export const PACER_SLACK_MS = 25;

export interface PacerBudget {
  /** At most this many requests… */
  requests: number;
  /** …in any span of this many milliseconds. */
  periodMs: number;
}

export interface PacerStats {
  /** Requests sent (every try, the client's own retries included). */
  requests: number;
  /** Answers 429 seen. */
  rateLimited: number;
  /** Time spent waiting for the budget, ms (the client's own Retry-After waits not included). */
  waitedMs: number;
  /** The budget learned, once a 429 taught one. */
  budget?: PacerBudget;
}

export interface PacerOptions {
  now?: () => number;
}

const OPERATION = 'list transfers';

export class RequestPacer {
  private readonly now: () => number;
  /** Send times, a ring of the last PACER_LOG_SIZE. */
  private readonly sent = new Float64Array(PACER_LOG_SIZE);
  private head = 0;
  private stored = 0;
  /** The stretch the next lesson is drawn from: its first send, and how many sends it holds. */
  private stretchStart: number | undefined;
  private stretchSends = 0;
  private learned: PacerBudget | undefined;
  private readonly counts = { requests: 0, rateLimited: 0, waitedMs: 0 };

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? (() => performance.timeOrigin + performance.now());
  }

  get stats(): PacerStats {
    return { ...this.counts, ...(this.learned ? { budget: { ...this.learned } } : {}) };
  }

  /**
   * Sends one request through `send` when the budget allows it: waits first if needed (cancellable), and
   * learns from every exchange of it (a 429 answered inside the client's retries included) and from a 429
   * it fails with.
   */
  async call<T>(send: (onExchange: (exchange: ExchangeInfo) => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const wait = this.delay();
    if (wait > 0) {
      const began = this.now();
      await sleep(wait, signal, OPERATION);
      this.counts.waitedMs += this.now() - began;
    }
    this.record(this.now());
    let taught = false;
    const onExchange = (exchange: ExchangeInfo): void => {
      const sentAt = this.now() - exchange.latencyMs;
      // The first try is the send recorded above; the client's retries are sends of their own.
      if (exchange.attempt > 1) this.record(sentAt);
      if (exchange.status === 429) {
        taught = true;
        this.learn(sentAt, exchange.retryAfterMs);
      }
    };
    try {
      return await send(onExchange);
    } catch (error) {
      if (!taught && error instanceof BrokerError && error.kind === 'service' && error.status === 429) this.learn(this.now(), error.retryAfterMs);
      throw error;
    }
  }

  /** How long the next send must wait for the budget, ms (0 until a 429 taught one). */
  delay(at: number = this.now()): number {
    const budget = this.learned;
    if (!budget || this.stored < budget.requests) return 0;
    // The send `requests` back must be a whole period old before another may go.
    const index = (this.head - budget.requests + PACER_LOG_SIZE) % PACER_LOG_SIZE;
    return Math.max(0, Math.ceil((this.sent[index] as number) + budget.periodMs - at));
  }

  private record(at: number): void {
    this.sent[this.head] = at;
    this.head = (this.head + 1) % PACER_LOG_SIZE;
    this.stored = Math.min(PACER_LOG_SIZE, this.stored + 1);
    this.stretchStart ??= at;
    this.stretchSends += 1;
    this.counts.requests += 1;
  }

  /** A send at `refusedAt` was answered 429: the sends accepted before it in this stretch set the budget. */
  private learn(refusedAt: number, retryAfterMs: number | undefined): void {
    this.counts.rateLimited += 1;
    const accepted = this.stretchSends - 1;
    const start = this.stretchStart ?? refusedAt;
    // The next stretch begins with the next send (the client's retry, after the wait).
    this.stretchStart = undefined;
    this.stretchSends = 0;
    const wait = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : DEFAULT_RETRY_AFTER_MS;
    const current = this.learned;
    if (accepted < MIN_LESSON) {
      // Refused (almost) at once: the budget was used by someone else, or is smaller than learned. Too little
      // to measure; the client waits, and a budget already learned is tightened.
      if (current) this.learned = tighten(current, wait);
      return;
    }
    // What worked: `accepted` requests in the time they took plus the wait the service asked for. A little
    // under it (2%, and some slack on the period) so a send that arrives early does not tip it over.
    let requests = Math.max(1, accepted - Math.max(1, Math.ceil(accepted * 0.02)));
    let periodMs = windowEstimate(Math.max(0, refusedAt - start), wait) + PACER_SLACK_MS;
    if (requests > PACER_LOG_SIZE) {
      periodMs = (periodMs * PACER_LOG_SIZE) / requests;
      requests = PACER_LOG_SIZE;
    }
    if (!current) {
      this.learned = { requests, periodMs };
      return;
    }
    // A second lesson never loosens the first: a slower rate is taken (with the smaller burst), else the
    // budget in force, which let this 429 happen, is tightened.
    if (requests / periodMs < current.requests / current.periodMs) {
      const burst = Math.min(requests, current.requests);
      this.learned = { requests: burst, periodMs: (periodMs * burst) / requests };
    } else {
      this.learned = tighten(current, wait);
    }
  }
}

/**
 * The limit's window, from a stretch that took `elapsedMs` and the wait asked for at its end. The window
 * cannot be longer than both together. A Retry-After in whole seconds (as HTTP gives it) is rounded up, so
 * the window may be up to a second shorter: when the wait is whole seconds the window is taken to be whole
 * seconds too (1 s, 10 s, 60 s: how limits are stated), the one whole number of seconds in that last second.
 * A window that is not (1.5 s) may then cost a second 429, after which the pacer slows down further.
 */
export function windowEstimate(elapsedMs: number, waitMs: number): number {
  const longest = elapsedMs + Math.max(waitMs, 1);
  if (waitMs < 1000 || waitMs % 1000 !== 0) return longest;
  return Math.floor(longest / 1000) * 1000;
}

/** Fewer requests than this accepted before a 429 measure nothing (a window mostly used by someone else). */
const MIN_LESSON = 4;

/** A fifth fewer requests, and a period at least as long as the wait just asked for. */
function tighten(budget: PacerBudget, waitMs: number): PacerBudget {
  return { requests: Math.max(1, Math.floor(budget.requests * 0.8)), periodMs: Math.max(budget.periodMs, waitMs + PACER_SLACK_MS) };
}
