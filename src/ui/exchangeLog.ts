// The last request's outcome, for the status bar: fed by the client's onExchange, read with useSyncExternalStore.
import type { ExchangeInfo } from '../api/contract';

export interface ExchangeLog {
  record(exchange: ExchangeInfo): void;
  last(): ExchangeInfo | undefined;
  subscribe(listener: () => void): () => void;
}

export function createExchangeLog(): ExchangeLog {
  let latest: ExchangeInfo | undefined;
  const listeners = new Set<() => void>();
  return {
    record(exchange) {
      latest = exchange;
      for (const listener of listeners) listener();
    },
    last: () => latest,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
