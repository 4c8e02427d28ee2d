// Connection pools: one keep-alive dispatcher per (origin, proxy), shared by the clients using it, closed with the
// last one. Direct: a Pool for the origin. Through a proxy: undici's ProxyAgent, a CONNECT tunnel for https://
// and a plain forward request for http:// (as curl does), keeping its own pool of tunnels.
import type { Dispatcher, Pool } from 'undici';
import { connectSkippingContinue } from './interimAnswers';
import type { ProxyChoice } from './proxy';

// undici is most of the bundle: it is loaded at the first request, so --help and the console's first frame
// do not wait for it.
interface PoolEntry {
  pool: Promise<Dispatcher>;
  ready?: Dispatcher;
  users: number;
}
const pools = new Map<string, PoolEntry>();

const POOL_OPTIONS = { connections: 16, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 } as const;

export function poolKey(origin: string, proxy: ProxyChoice | undefined): string {
  return proxy === undefined ? origin : `${origin} via ${proxy.url}`;
}

/**
 * `connectTimeoutMs`: the first client's deadline bounds connecting too (undici cannot abort a request still
 * waiting for its connection: without it a handshake that never completes would hold it for undici's 10 s).
 */
export function acquirePool(origin: string, proxy: ProxyChoice | undefined, connectTimeoutMs: number): PoolEntry {
  const key = poolKey(origin, proxy);
  const existing = pools.get(key);
  if (existing) {
    existing.users += 1;
    return existing;
  }
  watchRequestsWritten();
  const entry: PoolEntry = {
    // Pool-level timeouts are per-request below; keepAliveTimeout bounds how long an idle socket is trusted.
    // undici is CommonJS: bundled and split, its chunk exports module.exports as the default.
    // Our connector: an unsolicited 100 Continue before an answer is skipped (undici alone drops the connection).
    pool: import('undici').then((undici) => {
      const exported = (undici as unknown as { default?: typeof undici }).default ?? undici;
      // ProxyAgent is read only when wanted: in the bundle, reading it loads the rest of undici.
      entry.ready =
        proxy === undefined
          ? new exported.Pool(origin, { ...POOL_OPTIONS, connect: connectSkippingContinue(connectTimeoutMs) })
          : new exported.ProxyAgent({
              uri: proxy.url,
              proxyTunnel: origin.startsWith('https:'),
              ...POOL_OPTIONS,
              // The connection to the proxy, and the TLS handshake with the service through its tunnel.
              proxyTls: { timeout: connectTimeoutMs },
              requestTls: { timeout: connectTimeoutMs },
            });
      return entry.ready;
    }),
    users: 1,
  };
  pools.set(key, entry);
  return entry;
}

export async function releasePool(key: string, entry: PoolEntry): Promise<void> {
  if (pools.get(key) !== entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  pools.delete(key);
  await (await entry.pool).close();
}

/** Open sockets of the shared pool for a base URL, direct (for tests and benchmarks). */
export function poolStats(baseUrl: string): { connected: number; free: number } | undefined {
  const pool = pools.get(new URL(baseUrl).origin)?.ready as Pool | undefined;
  return pool ? { connected: pool.stats.connected, free: pool.stats.free } : undefined;
}

// Whether a request's first byte was written: undici publishes 'undici:client:sendHeaders' right before it writes
// a request (its documented diagnostics channel). A try that failed with no such message sent nothing at all,
// whatever the error (DNS, refused, TLS, a proxy's refusal, a deadline passed while connecting).
// Two tries with the same path (same parameters, timestamp and signature) are marked together: if either was
// written, both count as sent, the cautious way.
export const awaitingFirstByte = new Map<string, Set<{ written: boolean; onWritten?: (() => void) | undefined }>>();
let watching = false;

function watchRequestsWritten(): void {
  if (watching) return;
  watching = true;
  process.getBuiltinModule('node:diagnostics_channel').subscribe('undici:client:sendHeaders', (message) => {
    const path = (message as { request?: { path?: unknown } }).request?.path;
    if (typeof path !== 'string' || awaitingFirstByte.size === 0) return;
    // A forward proxy is sent the absolute URL: the path is what follows its origin.
    const marks = awaitingFirstByte.get(path) ?? awaitingFirstByte.get(path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''));
    for (const mark of marks ?? []) {
      mark.written = true;
      mark.onWritten?.();
    }
  });
}

/** Splits a base URL into the pool's origin and a path prefix (a base URL may sit below a proxy path). */
export function splitBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('base URL is not a valid URL (expected e.g. https://api.example.com)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('base URL must start with http:// or https://');
  if (url.username || url.password) throw new TypeError('base URL must not carry credentials');
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}
