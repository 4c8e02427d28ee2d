// --log-file PATH (off by default, docs/design.md, secrets): one line per HTTP exchange, appended to a file only the user
// can read. A line holds the time, operation, method, path (never the query: it carries the signature),
// status, latency, attempt, pacing and Retry-After waits and a shortened API key. Never a body, a signature or a secret.
import type { ExchangeInfo } from '../api/contract';
import { shortenApiKey } from '../api/redact';

import { fsPromises } from '../lazyBuiltins';
import { appendWholeLine } from './wholeLine';

interface ExchangeLogFile {
  /** Queues one line; never throws (a failing log must not fail the command). */
  record(exchange: ExchangeInfo, apiKey?: string): void;
  /** Writes what is queued and closes the file; resolves to how many lines could not be written (cut back whole). */
  close(): Promise<number>;
}

/** One field value without spaces or line breaks, so a line stays one line and splits on spaces. */
function token(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, '_') || '-';
}

export function exchangeLine(exchange: ExchangeInfo, apiKey: string | undefined, at: Date): string {
  const path = exchange.path.split('?')[0] ?? '';
  const fields = [
    at.toISOString(),
    `op=${token(exchange.operation)}`,
    exchange.method,
    token(path),
    `status=${exchange.status ?? 'none'}`,
    `ok=${exchange.ok}`,
    `latency=${Math.round(exchange.latencyMs)}ms`,
    `attempt=${exchange.attempt}`,
  ];
  if (exchange.postSignature !== undefined) fields.push(`signed=${exchange.postSignature}`);
  if (exchange.pacedMs !== undefined) fields.push(`paced=${Math.round(exchange.pacedMs)}ms`);
  // The wait the answer asked for: what the next try (or the pacing of the endpoint) waits at least.
  if (exchange.retryAfterMs !== undefined) fields.push(`retry-after=${Math.round(exchange.retryAfterMs)}ms`);
  if (exchange.banEndsAt !== undefined) fields.push(`ban-ends=${new Date(exchange.banEndsAt).toISOString()}`);
  if (exchange.notSent === true) fields.push('not-sent');
  // Sent, then given up by this side (a signal, a screen left) before its answer.
  if (exchange.cancelled === true) fields.push('cancelled');
  if (apiKey !== undefined) fields.push(`key=${token(shortenApiKey(apiKey))}`);
  // Already without its password (ProxyChoice.shown).
  if (exchange.proxy !== undefined) fields.push(`proxy=${token(exchange.proxy)}`);
  return `${fields.join(' ')}\n`;
}

/**
 * The flags that open a private file for appending without following a symbolic link at its name (ELOOP):
 * a link planted there would otherwise have its target written to and chmod'ed.
 */
export function appendNoFollow(): number {
  const c = fsPromises().constants;
  // Read as well as append: a whole-line append looks at the file's last byte first.
  return c.O_RDWR | c.O_CREAT | c.O_APPEND | (c.O_NOFOLLOW ?? 0);
}

/** Opens (creating with mode 0600) the file for appending. Rejects when it cannot be opened (ELOOP: a symbolic link). */
export async function openExchangeLog(path: string, now: () => Date = () => new Date()): Promise<ExchangeLogFile> {
  const handle = await fsPromises().open(path, appendNoFollow(), 0o600);
  // An existing file keeps its owner; make it private too (a file of someone else's: leave it be).
  await handle.chmod(0o600).catch(() => undefined);
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  let lost = 0;
  return {
    record(exchange, apiKey) {
      if (closed) return;
      const line = exchangeLine(exchange, apiKey, now());
      queue = queue.then(
        () => appendWholeLine(handle, line).catch(() => void (lost += 1)),
        () => undefined,
      );
      queue.catch(() => undefined);
    },
    async close() {
      if (closed) return lost;
      closed = true;
      await queue.catch(() => undefined);
      await handle.close();
      return lost;
    },
  };
}
