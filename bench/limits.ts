// Pacing under the service's limit: the export's pages, the chart's scan, discover and the key audit, each for
// a long run against a sandbox whose limit is the documented one scaled down (100 per 2 s instead of 500 per
// 10 s: the same rate, so a run of several windows takes seconds), with the client told the same scaled limit.
// The figure is the rate achieved over the limit's rate, with the 429s and 418s the sandbox answered.
import { createBrokerApi } from '../src/api/operations';
import type { BrokerApi } from '../src/api/contract';
import { fetchAudit } from '../src/audit/fetchAudit';
import { SummaryBuilder } from '../src/export/summary';
import { summarizePages } from '../src/export/summaryPages';
import { scanSubAccounts } from '../src/export/subAccountScan';
import { forEachTransferPage } from '../src/export/transferPages';
import { startSandbox } from '../src/sandbox/server';
import type { RunningSandbox } from '../src/sandbox/types';
import { row } from './util';

/** The documented 500 per 10 s, scaled down fivefold in time (the same 50 a second). */
const LIMIT = { max: 100, windowMs: 2000 };
/** Requests in each run: four windows' worth. */
const REQUESTS = 400;
const QUERY = { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 10 } as const;

export interface PacedRun {
  requests: number;
  ms: number;
  /** When each request was sent, ms from the first. */
  sentAt: number[];
  rateLimited: number;
  banned: number;
}

/**
 * The rate achieved over the whole windows of the run, per second: the requests sent in the first k windows
 * from the first request (k as many as the run lasted), over k windows. The last window, partly used, is left out.
 */
export function achievedRate(run: PacedRun, windowMs = LIMIT.windowMs): number {
  const windows = Math.floor(run.ms / windowMs);
  if (windows === 0) return run.requests / ((run.ms + windowMs) / 1000);
  return run.sentAt.filter((t) => t < windows * windowMs).length / ((windows * windowMs) / 1000);
}

/** Runs `work` against a fresh sandbox limited to LIMIT, stopping it once REQUESTS were answered. */
export async function pacedRun(
  work: (api: BrokerApi, names: string[], signal: AbortSignal) => Promise<unknown>,
  limit = LIMIT,
  requests = REQUESTS,
  told = true,
): Promise<PacedRun> {
  const sandbox: RunningSandbox = await startSandbox({ seed: 1, rateLimit: limit });
  const stop = new AbortController();
  let measuring = false;
  let answered = 0;
  let first: number | undefined;
  let last = 0;
  const sent: number[] = [];
  const api = createBrokerApi({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    secretKey: sandbox.secretKey,
    // Not told: the client keeps to its default 20 a second and learns the sandbox's limit from its 429.
    ...(told ? { serviceLimit: { requests: limit.max, periodMs: limit.windowMs } } : {}),
    onExchange: (exchange) => {
      if (exchange.notSent || !measuring) return;
      const at = performance.now();
      first ??= at - exchange.latencyMs;
      sent.push(at - exchange.latencyMs - first);
      last = at - exchange.latencyMs;
      answered += 1;
      if (answered >= requests) stop.abort(new Error('enough'));
    },
  });
  try {
    // Warm-up (the history laid out, the code compiled, a connection open), then a fresh window.
    await api.listUniversalTransfers({ ...QUERY, limit: 1 });
    await api.listSubAccountKeys(sandbox.subAccounts[0]!);
    await new Promise((resolve) => setTimeout(resolve, Math.min(limit.windowMs, 2000) + 100));
    measuring = true;
    await work(api, sandbox.subAccounts, stop.signal).catch((error: unknown) => {
      if (!stop.signal.aborted) throw error;
    });
    const statuses = sandbox.requests().map((r) => r.status);
    return {
      requests: answered,
      ms: last - (first ?? last),
      sentAt: sent,
      rateLimited: statuses.filter((s) => s === 429).length,
      banned: statuses.filter((s) => s === 418).length,
    };
  } finally {
    await api.close();
    await sandbox.close();
  }
}

/** The four paced workloads, by name. */
export const WORKLOADS: [string, (api: BrokerApi, names: string[], signal: AbortSignal) => Promise<unknown>][] = [
  ['export, all pages (10 a page)', (api, _names, signal) => forEachTransferPage(api, QUERY, async () => undefined, { signal, maxPages: 10_000 })],
  ["the chart's scan (10 a page)", (api, _names, signal) => summarizePages(api, QUERY, new SummaryBuilder(), { signal, maxPages: 10_000 })],
  ['discover (10 a page, 30 days)', (api, names, signal) => scanSubAccounts(api, { days: 30, now: Date.now(), names, signal, pageSize: 10 })],
  [
    'key audit (4 at once)',
    (api, names, signal) =>
      fetchAudit(
        api,
        Array.from({ length: REQUESTS + 10 }, (_, i) => names[i % names.length]!),
        { now: Date.now(), maxAgeMs: 90 * 86_400_000, signal, concurrency: 4 },
      ),
  ],
];

export async function pacedWorkloads(): Promise<void> {
  const limitRate = LIMIT.max / (LIMIT.windowMs / 1000);
  for (const [name, work] of WORKLOADS) {
    const run = await pacedRun(work);
    const rate = achievedRate(run);
    row(`${name}, ${LIMIT.max}/${LIMIT.windowMs / 1000}s`, `${rate.toFixed(1)}/s`, `limit ${limitRate}/s`, rate / limitRate);
    console.log(`  ${run.requests} requests in ${(run.ms / 1000).toFixed(2)} s · 429: ${run.rateLimited} · 418: ${run.banned}`);
  }
  // A limit the client is not told (a fifth of the documented one, in its 10 s windows): learned from one 429.
  const unknown = { max: 100, windowMs: 10_000 };
  const [name, work] = WORKLOADS[0]!;
  const run = await pacedRun(work, unknown, 3 * unknown.max, false);
  const rate = achievedRate(run, unknown.windowMs);
  const unknownRate = unknown.max / (unknown.windowMs / 1000);
  row(`${name}, ${unknown.max}/10s learned`, `${rate.toFixed(1)}/s`, `limit ${unknownRate}/s`, rate / unknownRate);
  console.log(
    `  ${run.requests} requests in ${(run.ms / 1000).toFixed(2)} s · 429: ${run.rateLimited} · 418: ${run.banned} (the client knows only its default 20 a second)`,
  );
}
