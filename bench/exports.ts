// Export benchmarks: `transfers --all` against a raw exporter writing the same
// bytes, the pacing of a small page size under the sandbox's rate limit, and time and peak memory as the
// history grows (`sandbox --transfers N`). Every exporter is a child process whose stdout is read (and
// hashed) here, so all of them pay the same pipe. For the race against the raw exporter the sandbox runs in
// a process of its own (bench/sandboxChild.ts), as a service would; elsewhere in this one (its request log
// counts the 429s).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { SEEDED_TRANSFER_COUNT } from '../src/sandbox/seedTransfers';
import { startSandbox } from '../src/sandbox/server';
import type { RunningSandbox, SandboxOptions } from '../src/sandbox/types';
import { BIN, ROOT, median, row } from './util';

/** Where an exporter finds the service. */
interface Target {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
}

/** No 429 at any speed: what is measured is the export's own cost. */
const UNLIMITED = { max: 1_000_000_000, windowMs: 1000 };
/** A per-second limit (100 per second per key and endpoint): the pacer learns it from its first 429. */
const DEFAULT_LIMIT = { max: 100, windowMs: 1000 };

interface Run {
  ms: number;
  bytes: number;
  /** Lines written (a CSV's rows are one fewer: the header). */
  lines: number;
  sha256: string;
  /** Peak resident memory of the exporter, KiB (when measured). */
  maxRssKiB?: number;
}

/** Runs `node args` with the sandbox's credentials, reading its stdout; resolves with time, size and hash. */
function runExporter(args: string[], sandbox: Target, options: { rss?: boolean } = {}): Promise<Run> {
  const env = { PATH: process.env.PATH, TZ: 'UTC', BROKER_BASE_URL: sandbox.baseUrl, BROKER_API_KEY: sandbox.apiKey, BROKER_API_SECRET: sandbox.secretKey };
  const preload = options.rss ? ['--require', join(ROOT, 'bench', 'rss-at-exit.cjs')] : [];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...preload, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const hash = createHash('sha256');
    let bytes = 0;
    let lines = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${args.join(' ')} failed (${code}): ${err.slice(0, 500)}`));
      const kb = Number(/BENCH_MAX_RSS_KB=(\d+)/.exec(err)?.[1]);
      resolve({ ms, bytes, lines, sha256: hash.digest('hex'), ...(kb ? { maxRssKiB: kb } : {}) });
    });
  });
}

/**
 * The raw exporter: the same signed requests through undici (one pooled connection, a page after the
 * other), JSON.parse, the same CSV bytes (same neutralising and quoting rules), one write per page honouring
 * 'drain'. No validation, no repeat check, no pacing: the floor an export could reach.
 */
const RAW_EXPORTER = `
import { createHmac } from 'node:crypto';
import { Pool } from 'undici';
const { BROKER_BASE_URL: base, BROKER_API_KEY: key, BROKER_API_SECRET: secret } = process.env;
const [fromType, toType, limitText] = process.argv.slice(2);
const limit = Number(limitText);
const pool = new Pool(base, { connections: 1 });
const FIELDS = ['tranId','fromAccount','toAccount','clientTranId','asset','amount','fromAccountType','toAccountType','fromSymbol','toSymbol','status','timestamp'];
const PLAIN = /^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)$/;
const cell = (value, numeric) => {
  let s = String(value);
  if (/^[=+\\-@\\t\\r]/.test(s) && !(numeric && PLAIN.test(s))) s = "'" + s;
  return /[",\\r\\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
};
const write = (text) => new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));
let text = FIELDS.join(',') + '\\r\\n';
for (let page = 1; ; page++) {
  const query = new URLSearchParams([['fromAccountType', fromType], ['toAccountType', toType], ['page', String(page)], ['limit', String(limit)], ['recvWindow', '5000'], ['timestamp', String(Date.now())]]).toString();
  const signature = createHmac('sha256', secret).update(query).digest('hex');
  const res = await pool.request({ method: 'GET', path: '/api/v3/broker/sub-account/universalTransfer?' + query + '&signature=' + signature, headers: { 'X-MEXC-APIKEY': key, accept: 'application/json' } });
  if (res.statusCode !== 200) throw new Error('HTTP ' + res.statusCode + ': ' + (await res.body.text()));
  const rows = JSON.parse(await res.body.text());
  for (const r of rows) text += FIELDS.map((f) => cell(r[f], f === 'amount' || f === 'timestamp')).join(',') + '\\r\\n';
  await write(text);
  text = '';
  if (rows.length < limit) break;
}
await pool.close();
`;

const CACHE = join(ROOT, 'node_modules', '.cache', 'broker-console-bench');

/** Written where `undici` resolves from (the project's node_modules). */
function rawExporterPath(): string {
  mkdirSync(CACHE, { recursive: true });
  const path = join(CACHE, 'raw-exporter.mjs');
  writeFileSync(path, RAW_EXPORTER);
  return path;
}

/** bench/sandboxChild.ts, bundled, in a child process: its address once it listens, and a stop. */
async function sandboxProcess(options: SandboxOptions): Promise<Target & { stop(): Promise<void> }> {
  const outfile = join(CACHE, 'sandbox-child.mjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'sandboxChild.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const child: ChildProcess = spawn(process.execPath, [outfile, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it said where it listens`)));
  });
  const target = JSON.parse(line) as Target;
  return {
    ...target,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const transfersArgs = (bin: string, limit: number): string[] => [
  bin,
  'transfers',
  '--from-type',
  'SPOT',
  '--to-type',
  'FUTURE',
  '--all',
  '--limit',
  String(limit),
  '--format',
  'csv',
];

const seconds = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;
const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;
const thousands = (n: number): string => n.toLocaleString('en-US');

/** Requests the sandbox received since `from` (an index into its request log), and how many it answered 429. */
function rateLimitedSince(sandbox: RunningSandbox, from: number): { requests: number; rateLimited: number } {
  const log = sandbox.requests().slice(from);
  return { requests: log.length, rateLimited: log.filter((r) => r.status === 429).length };
}

/** `transfers --all --format csv` at 16x (57,278 rows) against the raw exporter, alternated, same sandbox. */
export async function exportVsRaw(bin = BIN, runs = 11): Promise<void> {
  const sandbox = await sandboxProcess({ seed: 1, transfers: 16 * SEEDED_TRANSFER_COUNT, rateLimit: UNLIMITED });
  try {
    const raw = rawExporterPath();
    const ours: Run[] = [];
    const theirs: Run[] = [];
    // Warm-up (lays the history out, fills the page cache), then alternated.
    await runExporter(transfersArgs(bin, 500), sandbox);
    await runExporter([raw, 'SPOT', 'FUTURE', '500'], sandbox);
    for (let i = 0; i < runs; i++) {
      theirs.push(await runExporter([raw, 'SPOT', 'FUTURE', '500'], sandbox));
      ours.push(await runExporter(transfersArgs(bin, 500), sandbox));
    }
    const same = ours.every((r) => r.sha256 === theirs[0]!.sha256) && theirs.every((r) => r.sha256 === theirs[0]!.sha256);
    const rows = ours[0]!.lines - 1;
    const a = median(ours.map((r) => r.ms));
    const b = median(theirs.map((r) => r.ms));
    row(`transfers --all --format csv, ${thousands(rows)} rows`, seconds(a), `raw ${seconds(b)}`, a / b);
    console.log(
      `  ${(ours[0]!.bytes / 1e6).toFixed(1)} MB, ${same ? 'byte-identical to the raw exporter' : 'NOT THE SAME BYTES as the raw exporter'}; ` +
        `medians of ${runs} alternated runs (sandbox in its own process); ours ${ours.map((r) => (r.ms / 1000).toFixed(2)).join(' ')} · raw ${theirs.map((r) => (r.ms / 1000).toFixed(2)).join(' ')}`,
    );
  } finally {
    await sandbox.stop();
  }
}

/**
 * `--limit 10 --all` (3,625 rows, 363 pages) under the sandbox's default rate limit (100 a second): time and
 * 429s met, against `--limit 500` (8 pages). A fresh sandbox each run, so each starts with a fresh window.
 */
export async function pacedExport(bin = BIN, runs = 3): Promise<void> {
  const measure = async (limit: number): Promise<{ ms: number; rateLimited: number; requests: number }[]> => {
    const out = [];
    for (let i = 0; i < runs; i++) {
      const sandbox = await startSandbox({ seed: 1, rateLimit: DEFAULT_LIMIT });
      try {
        const run = await runExporter(transfersArgs(bin, limit), sandbox);
        out.push({ ms: run.ms, ...rateLimitedSince(sandbox, 0) });
      } finally {
        await sandbox.close();
      }
    }
    return out;
  };
  const small = await measure(10);
  const large = await measure(500);
  const a = median(small.map((r) => r.ms));
  const b = median(large.map((r) => r.ms));
  const most = Math.max(...small.map((r) => r.rateLimited));
  row('transfers --limit 10 --all (3,625 rows)', seconds(a), `--limit 500 ${seconds(b)}`, a / b);
  console.log(
    `  429s met with --limit 10: ${small.map((r) => r.rateLimited).join(', ')} (at most ${most}; ${small[0]!.requests} requests) · ` +
      `with --limit 500: ${large.map((r) => r.rateLimited).join(', ')} · sandbox limit ${DEFAULT_LIMIT.max} per ${DEFAULT_LIMIT.windowMs} ms`,
  );
}

/**
 * Export time and peak RSS of `transfers --all --format csv` at 1x, 4x and 16x rows (`sandbox --transfers N`:
 * 24,000, 96,000, 384,000 transfers), unlimited rate; then 16x under the default rate limit (one 429, paced).
 */
export async function exportScaling(bin = BIN, runs = 5): Promise<void> {
  const results: { scale: number; rows: number; ms: number; kib: number }[] = [];
  for (const scale of [1, 4, 16]) {
    const sandbox = await startSandbox({ seed: 1, transfers: scale * SEEDED_TRANSFER_COUNT, rateLimit: UNLIMITED });
    try {
      await runExporter(transfersArgs(bin, 500), sandbox); // lays the history out
      const measured: Run[] = [];
      for (let i = 0; i < runs; i++) measured.push(await runExporter(transfersArgs(bin, 500), sandbox, { rss: true }));
      const rows = measured[0]!.lines - 1;
      results.push({ scale, rows, ms: median(measured.map((r) => r.ms)), kib: Math.max(...measured.map((r) => r.maxRssKiB ?? 0)) });
    } finally {
      await sandbox.close();
    }
  }
  const base = results[0]!;
  for (const r of results) {
    row(`transfers --all ${r.scale}x (${thousands(r.rows)} rows): time`, seconds(r.ms), `1x ${seconds(base.ms)}`, r.ms / base.ms);
    row(`transfers --all ${r.scale}x (${thousands(r.rows)} rows): peak RSS`, mib(r.kib), `1x ${mib(base.kib)}`, r.kib / base.kib);
  }
  // The same 16x export under the default rate limit (115 pages at 100 a second): what the pacer costs.
  const sandbox = await startSandbox({ seed: 1, transfers: 16 * SEEDED_TRANSFER_COUNT, rateLimit: DEFAULT_LIMIT });
  try {
    // One request lays the history out (~0.2 s at 16x); then a fresh window.
    await runExporter([bin, 'transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '1'], sandbox);
    await new Promise((r) => setTimeout(r, 1100));
    const from = sandbox.requests().length;
    const run = await runExporter(transfersArgs(bin, 500), sandbox);
    const { requests, rateLimited } = rateLimitedSince(sandbox, from);
    const sixteen = results[2]!;
    row('transfers --all 16x, limit 100/s', seconds(run.ms), `unlimited ${seconds(sixteen.ms)}`, run.ms / sixteen.ms);
    console.log(`  ${requests} requests, ${rateLimited} answered 429`);
  } finally {
    await sandbox.close();
  }
}
