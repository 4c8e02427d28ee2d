// A bounded load test of the sandbox on loopback: N concurrent clients (keep-alive connections of one
// undici Pool), each sending signed GETs back to back until the time is up or the request cap is reached.
// Used by `npm run bench` (50 clients, 10 s, against the built binary's `sandbox` in a child process) and by
// test/sandbox/load.test.ts (a correctness check of 2,500 requests). Only answers 200 and the sandbox's own 429
// count as expected.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { signQuery } from '../src/api/signing';

export interface LoadTarget {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  apiKeyHeader?: string;
  subAccounts: string[];
}

export interface LoadOptions {
  clients: number;
  durationMs: number;
  /** Requests in all, at most (a bound whatever the speed). */
  maxRequests?: number;
  /** Characters of an extra `pad` parameter in every query (the sandbox ignores it; its log must not keep it). */
  queryPadBytes?: number;
  /** Called every `sampleEveryMs` while the load runs (e.g. to sample the server's RSS). */
  onSample?: () => void;
  sampleEveryMs?: number;
}

export interface LoadResult {
  requests: number;
  ok: number;
  rateLimited: number;
  /** Anything else: other statuses ("status 500") and failures ("ECONNRESET"), counted by kind. */
  errors: Record<string, number>;
  elapsedMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost):\d+$/;

export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  // Loopback only: this is a load generator, never pointed at a real service.
  if (!LOOPBACK.test(target.baseUrl)) throw new Error(`the load test runs on loopback only (got ${target.baseUrl})`);
  const clients = Math.max(1, Math.min(200, Math.floor(options.clients)));
  const durationMs = Math.max(100, Math.min(60_000, options.durationMs));
  const maxRequests = Math.max(1, Math.min(options.maxRequests ?? 1_000_000, 2_000_000));
  const pool = new Pool(target.baseUrl, { connections: clients, pipelining: 1 });
  const header = target.apiKeyHeader ?? 'X-MEXC-APIKEY';
  const latencies = new Float64Array(maxRequests);
  const errors: Record<string, number> = {};
  const pad = options.queryPadBytes ? 'x'.repeat(Math.min(15_000, options.queryPadBytes)) : '';
  let requests = 0;
  let ok = 0;
  let rateLimited = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const sampler = options.onSample ? setInterval(options.onSample, options.sampleEveryMs ?? 250) : undefined;

  const one = async (n: number): Promise<void> => {
    const sub = target.subAccounts[n % target.subAccounts.length] ?? '';
    // Three list-keys for one page of 50 transfers: small answers and a page-sized one.
    const params: [string, string | number][] =
      n % 4 === 3
        ? [
            ['fromAccountType', 'SPOT'],
            ['toAccountType', 'FUTURE'],
            ['page', 1],
            ['limit', 50],
          ]
        : [['subAccount', sub]];
    if (pad !== '') params.push(['pad', pad]);
    const path = n % 4 === 3 ? '/api/v3/broker/sub-account/universalTransfer' : '/api/v3/broker/sub-account/apiKey';
    const query = signQuery({ params, recvWindow: 5000, timestamp: Date.now(), body: '', secret: target.secretKey, rule: 'query' });
    const began = performance.now();
    try {
      const res = await pool.request({ path: `${path}?${query}`, method: 'GET', headers: { [header]: target.apiKey } });
      await res.body.dump({ limit: 4 * 1024 * 1024 });
      if (res.statusCode === 200) ok += 1;
      else if (res.statusCode === 429) rateLimited += 1;
      else errors[`status ${res.statusCode}`] = (errors[`status ${res.statusCode}`] ?? 0) + 1;
    } catch (error) {
      const kind = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
      errors[kind] = (errors[kind] ?? 0) + 1;
    }
    latencies[n] = performance.now() - began;
  };

  const client = async (): Promise<void> => {
    while (performance.now() < deadline && requests < maxRequests) {
      const n = requests;
      requests += 1;
      await one(n);
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, client));
  } finally {
    if (sampler) clearInterval(sampler);
    await pool.close();
  }
  const elapsedMs = performance.now() - start;
  const sorted = latencies.subarray(0, requests).sort();
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    requests,
    ok,
    rateLimited,
    errors,
    elapsedMs,
    perSecond: requests / (elapsedMs / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: sorted[sorted.length - 1] ?? 0,
  };
}

/** Resident memory of a process, KiB (Linux /proc; undefined elsewhere). */
export function rssKiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface SandboxChild {
  target: LoadTarget;
  pid: number;
  stop(): Promise<void>;
}

/** `broker-console sandbox --json` of the built binary, in a child process on 127.0.0.1, port 0. */
export async function spawnSandbox(bin: string, seed = 1): Promise<SandboxChild> {
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, 'sandbox', '--json', '--host', '127.0.0.1', '--port', '0', '--seed', String(seed), '--rate-limit', '100/1s', '--no-ban'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 10 s')), 10_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it said where it listens`)));
  });
  lines.close();
  const info = JSON.parse(first) as { baseUrl: string; apiKey: string; secretKey: string; subAccounts: string[] };
  return {
    target: { baseUrl: info.baseUrl, apiKey: info.apiKey, secretKey: info.secretKey, subAccounts: info.subAccounts },
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Samples a process's RSS (KiB): the first value, the highest, the last, and every sample in order. */
export function rssSampler(pid: number): { sample(): void; first: number; peak: number; last: number; samples: number[] } {
  const state = {
    first: 0,
    peak: 0,
    last: 0,
    samples: [] as number[],
    sample() {
      const kb = rssKiB(pid);
      if (kb === undefined) return;
      if (state.first === 0) state.first = kb;
      state.peak = Math.max(state.peak, kb);
      state.last = kb;
      if (state.samples.length < 10_000) state.samples.push(kb);
    },
  };
  return state;
}
