// What happened to an export's requests. The pacing itself is the signed client's (api/pacing.ts):
// every request waits for the service's budget, shared by every client of the process, and 429s tighten it.
// One tally per export, scan or audit: it hands the client the observers of each call, counts what happened
// to its own requests, and tells its owner before a request waits (a progress line says so).
import type { ExchangeInfo } from '../api/contract';
import { BrokerError } from '../api/errors';
import { DEFAULT_RETRY_AFTER_MS } from '../api/pacing';

interface TallyStats {
  /** Requests sent (every try, the client's own retries included). */
  requests: number;
  /** Answers 429 seen. */
  rateLimited: number;
  /** Time spent waiting for the service's budget, ms (the client's own Retry-After waits not included). */
  waitedMs: number;
}

interface TallyOptions {
  /** Told before one of this tally's requests waits for the service's budget, or out a 429's Retry-After, in ms. */
  onWait?: (ms: number) => void;
}

/** What a counted call hands to the client: observers of its exchanges and of its waits. */
type CountedSend<T> = (onExchange: (exchange: ExchangeInfo) => void, onWait: (ms: number) => void) => Promise<T>;

export class RequestTally {
  private readonly onWait: ((ms: number) => void) | undefined;
  private readonly counts = { requests: 0, rateLimited: 0, waitedMs: 0 };

  constructor(options: TallyOptions = {}) {
    this.onWait = options.onWait;
  }

  get stats(): TallyStats {
    return { ...this.counts };
  }

  /** Sends one request through `send` (the client paces it) and counts its exchanges. */
  async call<T>(send: CountedSend<T>, signal?: AbortSignal): Promise<T> {
    let refusals = 0;
    const onExchange = (exchange: ExchangeInfo): void => {
      if (exchange.notSent) return;
      this.counts.requests += 1;
      this.counts.waitedMs += exchange.pacedMs ?? 0;
      if (exchange.status === 429) {
        refusals += 1;
        this.counts.rateLimited += 1;
        // The client waits the Retry-After out itself before it tries again: said as a wait too.
        if (!signal?.aborted) this.onWait?.(exchange.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS);
      }
    };
    const onWait = (ms: number): void => {
      if (!signal?.aborted) this.onWait?.(ms);
    };
    try {
      return await send(onExchange, onWait);
    } catch (error) {
      // A 429 the call failed with, seen by no exchange (a client without observers).
      if (
        refusals === 0 &&
        error instanceof BrokerError &&
        error.kind === 'service' &&
        error.status === 429 &&
        error.serviceMessage?.startsWith('not sent') !== true
      ) {
        this.counts.rateLimited += 1;
      }
      throw error;
    }
  }
}
