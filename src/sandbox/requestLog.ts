// Every request received, in arrival order, bounded to the most recent entries.
import type { SandboxRequestRecord } from './types';

export const REQUEST_LOG_LIMIT = 10_000;

export interface RequestLog {
  /** Records an arriving request; set `status` on the returned entry when it is answered (0: no answer). */
  start(method: string, path: string, query: string): SandboxRequestRecord;
  snapshot(): readonly SandboxRequestRecord[];
}

export function createRequestLog(limit = REQUEST_LOG_LIMIT): RequestLog {
  const entries: SandboxRequestRecord[] = [];
  return {
    start(method, path, query) {
      const entry: SandboxRequestRecord = { method, path, query, status: 0 };
      entries.push(entry);
      if (entries.length > limit) entries.shift();
      return entry;
    },
    snapshot: () => entries.map((e) => ({ ...e })),
  };
}
