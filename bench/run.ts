// `npm run bench`: each figure is a ratio against a baseline measured in the same run, on this machine.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { createBrokerApi } from '../src/api/operations';
import { signQuery } from '../src/api/signing';
import { startSandbox } from '../src/sandbox/server';
import { exportScaling, exportVsRaw, pacedExport } from './exports';
import { type LoadResult, rssSampler, runLoad, spawnSandbox } from './load';
import { keystrokes } from './keystrokes';
import { pacedWorkloads } from './limits';
import { signedGet } from './signedGet';
import { testSuite } from './testSuite';
import { commandStart, firstFrame } from './startup';
import { BIN, ROOT, row } from './util';

async function signing(): Promise<void> {
  const n = 50_000;
  const secret = 'f'.repeat(64);
  const params = [
    ['fromAccountType', 'SPOT'],
    ['toAccountType', 'FUTURE'],
    ['page', 3],
    ['limit', 500],
  ] as const;
  let start = process.hrtime.bigint();
  for (let i = 0; i < n; i++)
    createHmac('sha256', secret).update(`fromAccountType=SPOT&toAccountType=FUTURE&page=3&limit=500&recvWindow=5000&timestamp=${i}`).digest('hex');
  const raw = Number(process.hrtime.bigint() - start) / n;
  start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) signQuery({ params, recvWindow: 5000, timestamp: i, body: '', secret, rule: 'query' });
  const ours = Number(process.hrtime.bigint() - start) / n;
  row('signing one query (signQuery)', `${(ours / 1000).toFixed(2)} µs`, `bare HMAC ${(raw / 1000).toFixed(2)} µs`, ours / raw);
}

async function keepAlive(): Promise<void> {
  const sandbox = await startSandbox({ seed: 1, rateLimit: { max: 100_000, windowMs: 1000 } });
  const sub = sandbox.subAccounts[1]!;
  const n = 200;
  const api = createBrokerApi({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
  await api.listSubAccountKeys(sub);
  let start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await api.listSubAccountKeys(sub);
  const pooled = Number(process.hrtime.bigint() - start) / 1e6 / n;
  start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const query = signQuery({ params: [['subAccount', sub]], recvWindow: 5000, timestamp: Date.now(), body: '', secret: sandbox.secretKey, rule: 'query' });
    const res = await request(`${sandbox.baseUrl}/api/v3/broker/sub-account/apiKey?${query}`, {
      headers: { 'X-MEXC-APIKEY': sandbox.apiKey, connection: 'close' },
      reset: true,
    });
    await res.body.text();
  }
  const fresh = Number(process.hrtime.bigint() - start) / 1e6 / n;
  row('list keys, signed + validated, keep-alive', `${pooled.toFixed(2)} ms`, `new conn ${fresh.toFixed(2)} ms`, pooled / fresh);
  await api.close();
  await sandbox.close();
}

const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;

function loadLine(label: string, r: LoadResult): void {
  const errors =
    Object.entries(r.errors)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ') || 'none';
  console.log(
    `  ${label}: ${r.requests} requests in ${(r.elapsedMs / 1000).toFixed(1)} s = ${r.perSecond.toFixed(0)}/s · ` +
      `200: ${r.ok} · 429: ${r.rateLimited} · other errors: ${errors} · p50 ${r.p50Ms.toFixed(1)} ms · p99 ${r.p99Ms.toFixed(1)} ms · max ${r.maxMs.toFixed(0)} ms`,
  );
}

/** 50 concurrent clients for 10 s on 127.0.0.1 against `broker-console sandbox` (rate limit 100/s, no ban). */
async function sandboxLoad(): Promise<void> {
  for (const [label, name, pad, seconds] of [
    ['signed GETs', 'sandbox 50 clients 10 s: RSS at end', 0, 10],
    ['signed GETs with 15 KB queries', 'sandbox 50 clients 5 s, 15 KB queries: RSS', 15_000, 5],
  ] as const) {
    const sandbox = await spawnSandbox(BIN);
    try {
      const rss = rssSampler(sandbox.pid);
      rss.sample();
      const idle = rss.first;
      await runLoad(sandbox.target, { clients: 50, durationMs: 1000, queryPadBytes: pad });
      const warm = rssSampler(sandbox.pid);
      warm.sample();
      const result = await runLoad(sandbox.target, { clients: 50, durationMs: seconds * 1000, queryPadBytes: pad, onSample: warm.sample });
      warm.sample();
      row(name, mib(warm.last), `warm ${mib(warm.first)}`, warm.last / warm.first);
      loadLine(label, result);
      // Flat memory: the heap settles within the first seconds, then stays (the request log is bounded in bytes).
      const quarter = (q: number): string => mib(warm.samples[Math.min(warm.samples.length - 1, Math.round(q * (warm.samples.length - 1)))] ?? 0);
      console.log(
        `  sandbox RSS: idle ${mib(idle)} · after 1 s warm-up ${mib(warm.first)} · at 25/50/75/100% of the run ` +
          `${quarter(0.25)} / ${quarter(0.5)} / ${quarter(0.75)} / ${quarter(1)} · peak ${mib(warm.peak)}`,
      );
      // The request log is bounded in count and bytes, so growth past the warm-up stays small whatever the run's length.
      const growth = warm.peak - warm.first;
      console.log(`  sandbox RSS growth after warm-up: ${mib(growth)} (bound 64 MiB: ${growth < 64 * 1024 ? 'kept' : 'EXCEEDED'})`);
    } finally {
      await sandbox.stop();
    }
  }
}

// `npm run bench -- first-frame keystrokes`: only the sections named (all of them when none is).
const SECTIONS: [string, () => Promise<void> | void][] = [
  ['signing', signing],
  ['keep-alive', keepAlive],
  ['signed-get', signedGet],
  ['load', sandboxLoad],
  ['export', exportVsRaw],
  ['paced-export', pacedExport],
  ['export-scaling', exportScaling],
  ['limits', pacedWorkloads],
  ['command-start', commandStart],
  ['first-frame', firstFrame],
  ['keystrokes', keystrokes],
  // Last: it needs the machine to itself, and it is the longest.
  ['tests', () => (process.env.BENCH_SKIP_TESTS === '1' ? undefined : testSuite())],
];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !SECTIONS.some(([known]) => known === name));
if (unknown.length > 0) {
  console.error(`bench: no section ${unknown.join(', ')} (sections: ${SECTIONS.map(([name]) => name).join(', ')})`);
  process.exit(2);
}
// What the run prints also replaces the bench block of docs/performance.md: the latest run, no history.
const printed: string[] = [];
const print = console.log.bind(console);
console.log = (...args: unknown[]): void => {
  printed.push(args.map(String).join(' '));
  print(...args);
};
const sections = wanted.length === 0 ? '' : ` · sections: ${wanted.join(', ')}`;
console.log(`broker-console benchmarks · node ${process.version} · ${new Date().toISOString()}${sections}`);
for (const [name, run] of SECTIONS) if (wanted.length === 0 || wanted.includes(name)) await run();
const doc = join(ROOT, 'docs', 'performance.md');
const text = readFileSync(doc, 'utf8');
const block = /```\nbroker-console benchmarks[^`]*```/;
if (block.test(text))
  writeFileSync(
    doc,
    text.replace(block, () => `\`\`\`\n${printed.join('\n')}\n\`\`\``),
  );
else print(`bench: no bench block in ${doc} to replace`);
