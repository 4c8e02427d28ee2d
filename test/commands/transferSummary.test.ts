// `transfers --summary` against the sandbox over real sockets: every page from --page on, summed per
// asset, status and local day; the sums equal an independent big.js sum of the same transfers fetched with our
// own signed requests; the JSON shape is pinned; a 429 in the middle is waited out and paced; a failure prints
// nothing on stdout; nonsense combinations are refused before anything is sent.
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import type { Transfer } from '../../src/api/types';
import { EXIT } from '../../src/commands/context';
import { SUMMARY_CSV_HEADER, type SummaryDocument } from '../../src/commands/transferSummary';
import { runTransfers } from '../../src/commands/transfers';
import type { RunningSandbox } from '../../src/sandbox/types';
import { fetchAllTransfers, requestCount, runBuiltCli, sandboxEnv, testContext, transferPagesRequested } from './helpers';
import { type OnFinished, sandboxFor, ownSandbox } from '../sandbox/helpers';
import { rateLimitAt } from '../export/rateLimitAt';
import { HOSTILE, TERMINAL_UNSAFE, fakeTty, parseCsv, startHostileServer } from './hostile';

const DAY = 86_400_000;
// A fixed anchor: the same history every run, laid out over the 120 days before it.
const ANCHOR = Date.UTC(2026, 10, 21, 9, 30);
const START = ANCHOR - 20 * DAY;
const END = ANCHOR - 2 * DAY;

let sandbox: RunningSandbox;
let matching: Transfer[];
const filter = { fromType: 'SPOT', toType: 'FUTURE', start: String(START), end: String(END) };
const HISTORY = { seed: 5, dataAnchorMs: ANCHOR, rateLimit: { max: 100_000, windowMs: 1000 } };
beforeAll(async () => {
  sandbox = await ownSandbox(HISTORY);
  matching = await fetchAllTransfers(sandbox, { fromAccountType: 'SPOT', toAccountType: 'FUTURE', startTime: String(START), endTime: String(END) });
});
afterAll(async () => sandbox.close());

/**
 * The same history on a sandbox of this test's own: the tests run at the same time, so one that counts the
 * requests sent or queues a fault must not share the sandbox with the others.
 */
const sandboxOfTest = (onTestFinished: OnFinished): Promise<RunningSandbox> => sandboxFor(onTestFinished, HISTORY);

// The local day of a time, as the test's own independent reckoning (remembered: every day is checked against every row).
const days = new Map<number, string>();
const dayOf = (ms: number): string => {
  let day = days.get(ms);
  if (day === undefined) days.set(ms, (day = new Date(ms).toLocaleDateString('sv-SE')));
  return day;
};
const success = (t: Transfer): boolean => t.status === 'SUCCESS';
const sumOf = (rows: readonly Transfer[]): string => rows.reduce((s, t) => s.plus(t.amount), new Big(0)).toFixed();

/** What the summary must say, from the transfers fetched independently: volume per asset and per day and asset. */
function expected(rows: readonly Transfer[]) {
  const assets = [...new Set(rows.map((t) => t.asset))].sort();
  return {
    assets: assets.map((asset) => ({
      asset,
      count: rows.filter((t) => t.asset === asset).length,
      volume: sumOf(rows.filter((t) => t.asset === asset && success(t))),
    })),
    day: (day: string, asset: string) => sumOf(rows.filter((t) => t.asset === asset && success(t) && dayOf(Number(t.timestamp)) === day)),
  };
}

async function summaryJson(extra: Record<string, string | boolean> = {}, target = sandbox): Promise<SummaryDocument> {
  const { ctx, out, err } = testContext(target);
  const code = await runTransfers({ ...filter, summary: true, format: 'json', ...extra }, ctx);
  expect(err.text()).toBe('');
  expect(code).toBe(EXIT.ok);
  return JSON.parse(out.text()) as SummaryDocument;
}

// Concurrent: the 429 test waits out a Retry-After and its pacing (~3 s); the others run meanwhile.
describe.concurrent('transfers --summary', () => {
  // First: the longest wait starts at once.
  it('a 429 in the middle: waited out once, then paced; the summary is still the whole', async () => {
    // The 429 comes at the 5th request whatever the machine's pace (a loaded one spreads the first requests over
    // two windows of a real limit); the service's own limit, above the pace the client learns from it, is never met.
    const limited = await ownSandbox({ seed: 5, dataAnchorMs: ANCHOR, rateLimit: { max: 8, windowMs: 1000 } });
    limited.queueFaults(...rateLimitAt(5));
    try {
      const { ctx, out, err } = testContext(limited, { createApi: (config) => createBrokerApi(config) });
      expect(await runTransfers({ ...filter, summary: true, limit: '50', format: 'json' }, ctx)).toBe(EXIT.ok);
      expect(err.text()).toBe('');
      const statuses = limited.requests().map((r) => r.status);
      expect(statuses.filter((x) => x === 429)).toHaveLength(1);
      expect(statuses.filter((x) => x === 200)).toHaveLength(Math.floor(matching.length / 50) + 1);
      const s = JSON.parse(out.text()) as SummaryDocument;
      expect(s.assets.map(({ asset, count, volume }) => ({ asset, count, volume }))).toEqual(expected(matching).assets);
    } finally {
      await limited.close();
    }
    // A loaded machine learns a slower pace from the 429 (its first requests went slower): room for it.
  }, 45_000);

  it('the history spans several pages of 100 and several assets and statuses', () => {
    expect(matching.length).toBeGreaterThan(300);
    expect(new Set(matching.map((t) => t.asset)).size).toBeGreaterThan(3);
    expect(new Set(matching.map((t) => t.status)).size).toBeGreaterThan(1);
  });

  it('--format json: the sums equal an independent sum of the same transfers, per asset and per day; every day of the range is there', async ({
    onTestFinished,
  }) => {
    const own = await sandboxOfTest(onTestFinished);
    const s = await summaryJson({ limit: '100' }, own);
    // Every page from 1, at --limit a page: the last one short.
    expect(transferPagesRequested(own)).toEqual(Array.from({ length: Math.floor(matching.length / 100) + 1 }, (_, i) => String(i + 1)));
    expect(s.pages).toBe(Math.floor(matching.length / 100) + 1);
    expect(s.rows).toBe(matching.length);
    const want = expected(matching);
    expect(s.assets.map(({ asset, count, volume }) => ({ asset, count, volume }))).toEqual(want.assets);
    for (const a of s.assets) for (const st of a.statuses) expect(st.sum).toBe(sumOf(matching.filter((t) => t.asset === a.asset && t.status === st.status)));
    expect(s.statuses.map((x) => x.count).reduce((a, b) => a + b, 0)).toBe(matching.length);
    // The days: from the start's day to the end's, one each, in order, the days without transfers included.
    const first = new Date(`${dayOf(START)}T00:00:00Z`).getTime();
    expect(s.days.map((d) => d.day)).toEqual(Array.from({ length: 19 }, (_, i) => new Date(first + i * DAY).toISOString().slice(0, 10)));
    for (const d of s.days) {
      expect(d.count).toBe(matching.filter((t) => dayOf(Number(t.timestamp)) === d.day).length);
      for (const a of d.assets) expect(a.volume).toBe(want.day(d.day, a.asset));
    }
  });

  it('pins the JSON shape', async () => {
    const s = await summaryJson({ limit: '500' });
    expect(Object.keys(s)).toEqual(['pages', 'timeZone', 'volumeStatus', 'rows', 'unparsable', 'assets', 'statuses', 'days']);
    expect(s.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(s.volumeStatus).toBe('SUCCESS');
    expect(s.unparsable).toBe(0);
    expect(Object.keys(s.assets[0]!)).toEqual(['asset', 'count', 'volume', 'statuses']);
    expect(Object.keys(s.assets[0]!.statuses[0]!)).toEqual(['status', 'count', 'sum']);
    expect(Object.keys(s.statuses[0]!)).toEqual(['status', 'count']);
    expect(Object.keys(s.days[0]!)).toEqual(['day', 'count', 'assets']);
    const busy = s.days.find((d) => d.assets.length > 0)!;
    expect(Object.keys(busy.assets[0]!)).toEqual(['asset', 'count', 'volume']);
    expect(typeof busy.assets[0]!.volume).toBe('string');
  });

  it('--format csv: the same numbers in one table of asset, asset-status, status and day rows', async () => {
    const s = await summaryJson();
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ ...filter, summary: true, format: 'csv' }, ctx)).toBe(EXIT.ok);
    const [header, ...rows] = parseCsv(out.text());
    expect(header).toEqual([...SUMMARY_CSV_HEADER]);
    const of = (kind: string) => rows.filter((r) => r[0] === kind);
    expect(of('asset').map((r) => [r[2], Number(r[4]), r[5]])).toEqual(s.assets.map((a) => [a.asset, a.count, a.volume]));
    expect(of('asset-status')).toHaveLength(s.assets.reduce((n, a) => n + a.statuses.length, 0));
    expect(of('status').map((r) => [r[3], Number(r[4])])).toEqual(s.statuses.map((x) => [x.status, x.count]));
    const dayRows = of('day');
    expect([...new Set(dayRows.map((r) => r[1]))]).toEqual(s.days.map((d) => d.day));
    for (const r of dayRows) {
      const day = s.days.find((d) => d.day === r[1])!;
      if (day.count === 0) expect(r.slice(2)).toEqual(['', '', '0', '']);
      else expect(r[5]).toBe(day.assets.find((a) => a.asset === r[2])!.volume);
    }
  });

  it('--format table: per asset, per status and per day, with what the volume counts and the time zone', async () => {
    const s = await summaryJson();
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ ...filter, summary: true }, ctx)).toBe(EXIT.ok);
    const text = out.text();
    expect(text.split('\n')[0]).toBe(
      `summary of ${s.rows} transfers (${s.pages} page${s.pages === 1 ? '' : 's'}) · volume: SUCCESS only · days in ${s.timeZone}`,
    );
    for (const a of s.assets) expect(text).toMatch(new RegExp(`^${a.asset} +${a.count} +${a.volume.replace('.', '\\.')}  `, 'm'));
    for (const x of s.statuses) expect(text).toMatch(new RegExp(`^${x.status} +${x.count}$`, 'm'));
    for (const d of s.days)
      expect(text).toMatch(
        new RegExp(`^${d.day} +${d.count === 0 ? '- +0' : `${d.assets[0]!.asset} +${d.assets[0]!.count} +${d.assets[0]!.volume.replace('.', '\\.')}`}`, 'm'),
      );
  });

  it('--page N: from that page on; the sums are of those pages only', async () => {
    const s = await summaryJson({ page: '2', limit: '100' });
    const rest = matching.slice(100);
    expect(s.rows).toBe(rest.length);
    expect(s.assets.map(({ asset, count, volume }) => ({ asset, count, volume }))).toEqual(expected(rest).assets);
  });

  it('a page that fails: exit 1, nothing on stdout, the error says how far it got', async ({ onTestFinished }) => {
    const own = await sandboxOfTest(onTestFinished);
    own.queueFaults({ kind: 'delay', ms: 0 }, { kind: 'status', status: 500 });
    const { ctx, out, err } = testContext(own);
    expect(await runTransfers({ ...filter, summary: true, limit: '100' }, ctx)).toBe(EXIT.failure);
    expect(out.text()).toBe('');
    expect(err.text()).toMatch(/^error: .*500.* \(after 1 page, 100 rows read; nothing printed\)\n$/);
  });

  it('--max-pages bounds it: more full pages than allowed is exit 1 with nothing printed', async () => {
    const { ctx, out, err } = testContext(sandbox);
    expect(await runTransfers({ ...filter, summary: true, limit: '100', maxPages: '2' }, ctx)).toBe(EXIT.failure);
    expect(out.text()).toBe('');
    expect(err.text()).toContain('stopped after 2 pages (--max-pages 2)');
  });

  it('nonsense is refused before anything is sent: --summary with --all, a bad format, a bad limit', async ({ onTestFinished }) => {
    const own = await sandboxOfTest(onTestFinished);
    const cases: Array<[Record<string, string | boolean>, string]> = [
      [{ all: true }, 'error: --summary reads every page from --page on by itself; --all streams the rows: give one of them'],
      [{ format: 'xml' }, "error: --format: must be table, json or csv (got 'xml')"],
      [{ limit: '501' }, 'error: --limit'],
      [{ maxPages: '0' }, 'error: --max-pages: must be a whole number'],
    ];
    for (const [extra, message] of cases) {
      const before = requestCount(own);
      const { ctx, out, err } = testContext(own);
      expect(await runTransfers({ ...filter, summary: true, ...extra }, ctx)).toBe(EXIT.usage);
      expect(err.text()).toContain(message);
      expect(out.text()).toBe('');
      expect(requestCount(own)).toBe(before);
    }
  });

  it('hostile asset and status text: sanitised on a terminal, neutralised in CSV, exact in JSON to a pipe', async () => {
    const server = await startHostileServer();
    try {
      const [, evil] = HOSTILE.find(([name]) => name.includes('OSC')) ?? HOSTILE[0]!;
      server.transfers = [
        {
          tranId: '1',
          fromAccount: '',
          toAccount: 'x',
          clientTranId: '',
          asset: evil,
          amount: '1.25',
          fromAccountType: 'SPOT',
          toAccountType: 'FUTURE',
          fromSymbol: '',
          toSymbol: '',
          status: 'SUCCESS',
          timestamp: END - DAY,
        },
        {
          tranId: '2',
          fromAccount: '',
          toAccount: 'x',
          clientTranId: '',
          asset: '=1+1',
          amount: '2',
          fromAccountType: 'SPOT',
          toAccountType: 'FUTURE',
          fromSymbol: '',
          toSymbol: '',
          status: evil,
          timestamp: END - DAY,
        },
      ];
      const tty = fakeTty();
      const table = testContext(undefined, { env: server.env, stdout: tty.stream, stdoutIsTTY: true });
      expect(await runTransfers({ ...filter, summary: true }, table.ctx)).toBe(EXIT.ok);
      expect(tty.text().replace(/\n/g, '')).not.toMatch(TERMINAL_UNSAFE);
      expect(tty.text()).toContain('1.25');
      const csv = testContext(undefined, { env: server.env });
      expect(await runTransfers({ ...filter, summary: true, format: 'csv' }, csv.ctx)).toBe(EXIT.ok);
      const assets = parseCsv(csv.out.text())
        .filter((r) => r[0] === 'asset')
        .map((r) => r[2]);
      expect(assets).toContain("'=1+1");
      const json = testContext(undefined, { env: server.env });
      expect(await runTransfers({ ...filter, summary: true, format: 'json' }, json.ctx)).toBe(EXIT.ok);
      expect((JSON.parse(json.out.text()) as SummaryDocument).assets.map((a) => a.asset)).toContain(evil);
    } finally {
      await server.close();
    }
  });

  it('the built binary: days are local days of TZ, and the JSON says which zone', async () => {
    // A process of its own: its TZ is not this one's (Date and Intl read the process's zone).
    const run = await runBuiltCli(
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--start', String(START), '--end', String(END), '--summary', '--json'],
      { ...sandboxEnv(sandbox), TZ: 'Pacific/Kiritimati' },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const s = JSON.parse(run.stdout) as SummaryDocument;
    expect(s.timeZone).toBe('Pacific/Kiritimati');
    // One formatter, each row's day reckoned once (a toLocaleDateString with a zone builds a formatter per call).
    const inKiritimati = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Pacific/Kiritimati' });
    const day = (ms: number) => inKiritimati.format(ms);
    expect(s.days[0]!.day).toBe(day(START));
    const rowDays = matching.map((t) => day(Number(t.timestamp)));
    for (const d of s.days) expect(d.count).toBe(rowDays.filter((rowDay) => rowDay === d.day).length);
  }, 60_000);
});
