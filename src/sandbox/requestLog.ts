// The requests received, in arrival order: what tests assert on (method, path, the signed query, status,
// time), bounded in count AND in bytes. A long path or query is cut (and marked) before it is kept, and is
// copied so the log never holds on to the whole request line it was cut from; the oldest entries go first.
import type { SandboxRequestRecord } from './types';

/** Entries kept at most. */
export const REQUEST_LOG_LIMIT = 10_000;
/** Bytes kept at most, counted as the characters of method, path and query plus ENTRY_OVERHEAD each. */
export const REQUEST_LOG_BYTES = 4 * 1024 * 1024;
/** Characters of a path and of a query kept (a signed query of the three operations is under 400). */
export const MAX_LOGGED_PATH = 256;
export const MAX_LOGGED_QUERY = 1024;
/** What one record costs besides its strings (object, fields, slot), roughly, in bytes. */
export const ENTRY_OVERHEAD = 96;

interface RequestLog {
  /** Records an arriving request; set `status` on the returned entry when it is answered (0: no answer). */
  start(method: string, path: string, query: string, at?: number): SandboxRequestRecord;
  snapshot(): readonly SandboxRequestRecord[];
  /** Bytes held now, as counted against `bytes`. */
  bytes(): number;
}

export function createRequestLog(limit = REQUEST_LOG_LIMIT, budget = REQUEST_LOG_BYTES): RequestLog {
  const ring: (SandboxRequestRecord | undefined)[] = new Array<SandboxRequestRecord | undefined>(limit);
  const cost: number[] = new Array<number>(limit).fill(0);
  let first = 0;
  let count = 0;
  let held = 0;
  const evict = (): void => {
    held -= cost[first] ?? 0;
    ring[first] = undefined;
    cost[first] = 0;
    first = (first + 1) % limit;
    count -= 1;
  };
  return {
    start(method, path, query, at = Date.now()) {
      const m = kept(method, 16);
      const p = kept(path, MAX_LOGGED_PATH);
      const q = kept(query, MAX_LOGGED_QUERY);
      const entry: SandboxRequestRecord = { method: m.text, path: p.text, query: q.text, status: 0, at };
      if (m.cut || p.cut || q.cut) entry.truncated = true;
      const bytes = m.text.length + p.text.length + q.text.length + ENTRY_OVERHEAD;
      if (count === limit) evict();
      while (count > 0 && held + bytes > budget) evict();
      const slot = (first + count) % limit;
      ring[slot] = entry;
      cost[slot] = bytes;
      count += 1;
      held += bytes;
      return entry;
    },
    snapshot() {
      const out: SandboxRequestRecord[] = [];
      for (let i = 0; i < count; i += 1) {
        const entry = ring[(first + i) % limit];
        if (entry) out.push({ ...entry });
      }
      return out;
    },
    bytes: () => held,
  };
}

/** At most `max` characters, in a string of its own (a slice would keep its whole parent alive). */
function kept(text: string, max: number): { text: string; cut: boolean } {
  const cut = text.length > max;
  const part = cut ? text.slice(0, max) : text;
  // Request lines arrive as latin1 (one char a byte); anything wider is copied as UTF-16.
  const encoding = /[^\x00-\xff]/.test(part) ? 'utf16le' : 'latin1';
  return { text: Buffer.from(part, encoding).toString(encoding), cut };
}
