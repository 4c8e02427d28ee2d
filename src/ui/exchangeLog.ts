// The last request's outcome, for the status bar: fed by the client's onExchange (and onWaiting, when a request
// waits a second or more before it goes), read with useSyncExternalStore.
import type { ExchangeInfo } from '../api/contract';

/** Shorter waits pass unseen: saying them would only flicker. */
const SHOWN_WAIT_MS = 1000;

export interface ExchangeLog {
  record(exchange: ExchangeInfo): void;
  last(): ExchangeInfo | undefined;
  /** A request waits before it goes until `untilMs` (Unix ms); the next exchange, or a wait under a second, ends it. */
  waiting(wait: { operation: string; untilMs: number }, now?: number): void;
  /** When the waiting request goes (Unix ms), while one waits a second or more. */
  nextTryAt(): number | undefined;
  subscribe(listener: () => void): () => void;
}

export function createExchangeLog(): ExchangeLog {
  let latest: ExchangeInfo | undefined;
  let nextTry: number | undefined;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    record(exchange) {
      latest = exchange;
      nextTry = undefined;
      changed();
    },
    last: () => latest,
    waiting({ untilMs }, now = Date.now()) {
      // A short wait (or one taken back) ends the one shown.
      const next = untilMs - now < SHOWN_WAIT_MS ? undefined : untilMs;
      if (next === nextTry) return;
      nextTry = next;
      changed();
    },
    nextTryAt: () => nextTry,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
