// One page of prefetch: the next page is asked for while the current one is visited
// (written), pages are still visited in order and whole, the stop rules send no extra request, a visit that
// fails cancels the page fetched ahead, and a fetch that fails surfaces only after the page before it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrokerApi } from '../../src/api/contract';
import { createBrokerApi } from '../../src/api/operations';
import { forEachTransferPage } from '../../src/export/transferPages';
import { wireTransfer } from './pagingServers';

interface Arrival {
  page: number;
  at: number;
}

/** `total` transfers in pages; page `failPage` answers 500; each answer after `delayMs`. Arrival times kept. */
async function pagesServer(options: { total: number; failPage?: number; delayMs?: number }) {
  const arrivals: Arrival[] = [];
  let closedEarly = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page'));
    const limit = Number(url.searchParams.get('limit'));
    arrivals.push({ page, at: Date.now() });
    res.on('close', () => {
      if (!res.writableFinished) closedEarly += 1;
    });
    setTimeout(() => {
      if (res.destroyed) return;
      if (page === options.failPage) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":500,"msg":"boom"}');
        return;
      }
      const count = Math.max(0, Math.min(limit, options.total - (page - 1) * limit));
      const rows = Array.from({ length: count }, (_, i) => wireTransfer(`p${page}-${i}`, 1_763_726_400_000 - page * 1000 - i));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
    }, options.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api = createBrokerApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', secretKey: 's', maxTries: 1 });
  cleanups.push(async () => {
    await api.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
  return { api, arrivals, closedEarly: () => closedEarly };
}

/** The same pages (no failures, no delay) served by a child process that prints each arrival. */
async function childServer(total: number) {
  const script = `
    const { createServer } = require('node:http');
    const server = createServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      process.stdout.write('arrive ' + page + ' ' + Date.now() + '\\n');
      const count = Math.max(0, Math.min(limit, ${total} - (page - 1) * limit));
      const rows = Array.from({ length: count }, (_, i) => (${wireTransfer.toString()})('p' + page + '-' + i, 1763726400000 - page * 1000 - i));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
    process.stdin.on('end', () => process.exit(0)).resume();`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const check = (): void => {
      const match = /port (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const api = createBrokerApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', secretKey: 's', maxTries: 1 });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    await api.close();
    child.stdin!.end();
    await exited;
  });
  return {
    api,
    arrivals: async (): Promise<Arrival[]> => [...output.matchAll(/arrive (\d+) ([\d.]+)/g)].map((m) => ({ page: Number(m[1]), at: Number(m[2]) })),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const query = { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 10 };
// The system clock as both processes read it at the moment (each process's timeOrigin is fixed at its start, and
// the clock may be adjusted between two starts, as on a machine just booted).
const now = (): number => Date.now();
/** Holds this thread for `ms` without yielding, as a visit formatting a page would, but without spinning a core. */
const busy = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

describe('forEachTransferPage fetches one page ahead', () => {
  it('the next page is asked for before the current one is written; pages come in order, whole', async () => {
    // The server in a process of its own, so it notes an arrival while this process is busy.
    const { api, arrivals } = await childServer(75);
    const visits: { page: number; ids: string[]; busyEnd: number }[] = [];
    const result = await forEachTransferPage(api, query, async ({ page, rows }) => {
      // A visit that formats without yielding (the worst case for a fetch ahead), then writes. Long enough that
      // the server process, on a machine whose cores the rest of the suite keeps busy, is scheduled in time to
      // note the next page's arrival (at 25 ms it sometimes was not: the arrival came 3 ms too late).
      busy(100);
      const busyEnd = now();
      await new Promise((resolve) => setTimeout(resolve, 2));
      visits.push({ page, ids: rows.map((r) => r.tranId), busyEnd });
    });
    expect(result).toEqual({ pages: 8, rows: 75 });
    expect(visits.map((v) => v.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(visits.flatMap((v) => v.ids)).toEqual(Array.from({ length: 75 }, (_, i) => `p${Math.floor(i / 10) + 1}-${i % 10}`));
    const seen = await arrivals();
    expect(seen.map((a) => a.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Page n+1 reached the server while page n was being formatted (well before that work ended), not after.
    for (const visit of visits.slice(0, -1)) {
      const next = seen.find((a) => a.page === visit.page + 1)!;
      expect(next.at).toBeLessThan(visit.busyEnd - 10);
    }
  });

  it('the stop rules send no request past them: a short page, --max-pages', async () => {
    const short = await pagesServer({ total: 30 });
    // 30 rows in pages of 10: page 4 is empty (short), and nothing is asked after it.
    await expect(forEachTransferPage(short.api, query, async () => undefined)).resolves.toEqual({ pages: 4, rows: 30 });
    expect(short.arrivals.map((a) => a.page)).toEqual([1, 2, 3, 4]);
    const bounded = await pagesServer({ total: 1000 });
    await expect(forEachTransferPage(bounded.api, query, async () => undefined, { maxPages: 3 })).rejects.toMatchObject({ reason: 'max-pages', pages: 3 });
    expect(bounded.arrivals.map((a) => a.page)).toEqual([1, 2, 3]);
  });

  it('a visit that fails: its error is the one thrown, and the page fetched ahead is cancelled, never visited', async () => {
    const { api, arrivals, closedEarly } = await pagesServer({ total: 1000, delayMs: 200 });
    const visited: number[] = [];
    const error = await forEachTransferPage(api, query, async ({ page }) => {
      visited.push(page);
      if (page === 2) throw new Error('disk full');
    }).catch((e: unknown) => e);
    expect(error).toEqual(new Error('disk full'));
    expect(visited).toEqual([1, 2]);
    // Page 3 was asked for while page 2 was visited; its answer (200 ms away) was not waited for: its connection
    // is closed before the answer (on a loaded machine the request may reach the server a moment after the throw).
    await expect.poll(() => arrivals.map((a) => a.page)).toEqual([1, 2, 3]);
    await expect.poll(() => closedEarly()).toBe(1);
  });

  it('a fetch that fails: the page before it is visited whole first, then the error', async () => {
    const { api } = await pagesServer({ total: 1000, failPage: 3 });
    const events: string[] = [];
    const error = await forEachTransferPage(api, query, async ({ page, rows }) => {
      events.push(`start ${page}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push(`end ${page} (${rows.length})`);
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^list transfers failed \(HTTP 500 code 500\): boom/);
    expect(events).toEqual(['start 1', 'end 1 (10)', 'start 2', 'end 2 (10)']);
  });

  it('the caller cancels while a page is visited: the fetch ahead ends as cancelled', async () => {
    const { api } = await pagesServer({ total: 1000, delayMs: 100 });
    const abort = new AbortController();
    const error = await forEachTransferPage(
      api,
      query,
      async ({ page }) => {
        if (page === 1) abort.abort();
      },
      abort.signal,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted' });
  });

  it('prefetch: false asks for each page only after the previous one was visited', async () => {
    const { api, arrivals } = await pagesServer({ total: 35 });
    const ends = new Map<number, number>();
    await forEachTransferPage(
      api as BrokerApi,
      query,
      async ({ page }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        ends.set(page, now());
      },
      { prefetch: false },
    );
    for (const a of arrivals.slice(1)) expect(a.at).toBeGreaterThanOrEqual(ends.get(a.page - 1)!);
  });
});
