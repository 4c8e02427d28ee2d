// Exports end: paging stops at a short page, at a page repeating ANY earlier page, and
// after a bounded number of pages; the console's file export keeps what it wrote, honestly named.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BrokerError } from '../../src/api/errors';
import { createBrokerApi } from '../../src/api/operations';
import type { Transfer } from '../../src/api/types';
import { fileExporter } from '../../src/export/fileExporter';
import { PartialExport } from '../../src/export/types';
import { MAX_TRANSFERS, PagingStopped, SEEN_SLOTS_MAX, SeenTransfers, defaultMaxPages, forEachTransferPage } from '../../src/export/transferPages';
import { type PagingMode, type PagingServer, startPagingServer, wireTransfer } from './pagingServers';
import { mountFullDisk } from '../config/fullDisk';

const folder = mkdtempSync(join(tmpdir(), 'broker-export-end-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
// A 64 KiB tmpfs to fill (root and mount(2)); where it cannot be had, its test says SKIPPED and why.
const fullDisk = mountFullDisk(64);
if (!fullDisk.ok) console.warn(`SKIPPED export full-disk test: ${fullDisk.reason}`);
afterAll(() => {
  if (fullDisk.ok) fullDisk.disk.unmount();
});

let server: PagingServer | undefined;
const apis: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const api of apis.splice(0)) await api.close();
  await server?.close();
  server = undefined;
});

// Paging, not pacing, is under test here: a budget far above the documented one lets 2,000 pages go unpaced.
const serviceLimit = { requests: 100_000, periodMs: 10_000 };

async function apiFor(mode: PagingMode, options: { total?: number; lean?: boolean } = {}) {
  server = await startPagingServer(mode, options);
  const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1, serviceLimit });
  apis.push(api);
  return { api, server };
}

const query = { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 10 };
const rowsOf = (ids: string[]): Transfer[] => ids.map((id, i) => wireTransfer(id, 1_700_000_000_000 + i) as unknown as Transfer);

describe('the page bound', () => {
  it('defaults to room for MAX_TRANSFERS transfers: 2,000 pages of 500', () => {
    expect(MAX_TRANSFERS).toBe(1_000_000);
    expect(defaultMaxPages()).toBe(2000);
    expect(defaultMaxPages(500)).toBe(2000);
    expect(defaultMaxPages(100)).toBe(10_000);
    expect(defaultMaxPages(3)).toBe(333_334);
  });
});

describe('SeenTransfers: any earlier page, bounded memory', () => {
  it('catches a repeat of any earlier page, not only the previous one, and names that page', () => {
    const seen = new SeenTransfers();
    expect(seen.checkPage(rowsOf(['a1', 'a2']), 1, 2)).toEqual({ skip: 0 });
    expect(seen.checkPage(rowsOf(['b1', 'b2']), 2, 2)).toEqual({ skip: 0 });
    expect(seen.checkPage(rowsOf(['c1', 'c2']), 3, 2)).toEqual({ skip: 0 });
    expect(seen.checkPage(rowsOf(['x', 'a2']), 4, 2)).toEqual({ repeat: { tranId: 'a2', page: 1 }, skip: 0 });
    expect(seen.checkPage(rowsOf(['b1', 'y']), 4, 2)).toEqual({ repeat: { tranId: 'b1', page: 2 }, skip: 0 });
    // A repeat inside one page is not a repeat of a page.
    const again = new SeenTransfers();
    expect(again.checkPage(rowsOf(['d', 'd']), 1, 2)).toEqual({ skip: 0 });
    expect(again.size).toBe(1);
  });

  it('rows at the top of a page that the page before brought are skipped (newer transfers pushed them down); anywhere else they are a repeat', () => {
    const seen = new SeenTransfers();
    seen.checkPage(rowsOf(['h0', 'h1', 'h2', 'h3']), 1, 4);
    // Two transfers arrived: the page before's last two rows come again at the top of this one.
    expect(seen.checkPage(rowsOf(['h2', 'h3', 'h4', 'h5']), 2, 4)).toEqual({ skip: 2 });
    expect(seen.size).toBe(6);
    // Not at the top, or from two pages back, or the whole page: a repeat.
    expect(seen.checkPage(rowsOf(['h6', 'h5', 'h7']), 3, 3)).toEqual({ repeat: { tranId: 'h5', page: 2 }, skip: 0 });
    expect(seen.checkPage(rowsOf(['h1', 'h6', 'h7']), 3, 3)).toEqual({ repeat: { tranId: 'h1', page: 1 }, skip: 0 });
    expect(seen.checkPage(rowsOf(['h4', 'h5']), 3, 2)).toEqual({ repeat: { tranId: 'h4', page: 2 }, skip: 0 });
    // A short page (the last) of pushed-down rows only: skipped whole (a service ignoring page answers a full one).
    expect(seen.checkPage(rowsOf(['h4', 'h5']), 3, 4)).toEqual({ skip: 2 });
  });

  it('a million distinct tranIds: no false repeat, 24 MiB at most, and it stops growing at its cap', () => {
    const seen = new SeenTransfers();
    const batch: Transfer[] = [];
    for (let page = 1; page <= 2000; page += 1) {
      batch.length = 0;
      for (let i = 0; i < 500; i += 1) batch.push({ tranId: `${1_000_000_000 + page * 500 + i}` } as Transfer);
      expect(seen.checkPage(batch, page, 500)).toEqual({ skip: 0 });
    }
    expect(seen.size).toBe(1_000_000);
    expect(seen.bytes).toBeLessThanOrEqual(SEEN_SLOTS_MAX * 12);
    expect(SEEN_SLOTS_MAX * 12).toBe(24 * 1024 * 1024);
    // Past the cap (half the slots), new transfers are checked but no longer remembered.
    for (let page = 2001; page <= 2200; page += 1) {
      batch.length = 0;
      for (let i = 0; i < 500; i += 1) batch.push({ tranId: `${1_000_000_000 + page * 500 + i}` } as Transfer);
      expect(seen.checkPage(batch, page, 500)).toEqual({ skip: 0 });
    }
    expect(seen.size).toBe(SEEN_SLOTS_MAX / 2);
    expect(seen.bytes).toBe(SEEN_SLOTS_MAX * 12);
    expect(seen.checkPage([{ tranId: '1000000500' } as Transfer, { tranId: 'new' } as Transfer], 2201, 500)).toEqual({
      repeat: { tranId: '1000000500', page: 1 },
      skip: 0,
    });
  });
});

describe('forEachTransferPage against hostile servers (real HTTP)', () => {
  it('a well-behaved service: stops at the first short page', async () => {
    const { api, server } = await apiFor('finite', { total: 25 });
    const result = await forEachTransferPage(api, query, async () => undefined);
    expect(result).toEqual({ pages: 3, rows: 25 });
    expect(server.pagesAsked()).toEqual([1, 2, 3]);
  });

  it('a service whose pages are always full and new: stops after maxPages requests, exactly', async () => {
    const { api, server } = await apiFor('endless');
    const visited: number[] = [];
    const error = await forEachTransferPage(api, query, async ({ page }) => void visited.push(page), { maxPages: 25 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PagingStopped);
    expect(error).toMatchObject({ reason: 'max-pages', pages: 25, rows: 250, maxPages: 25 });
    expect((error as Error).message).toBe('stopped after 25 pages, the most allowed: every page was full, so there may be more');
    expect(server.requests()).toBe(25);
    expect(visited).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('without maxPages, the default bound: 2,000 full pages of 500 (a million rows), then stop', async () => {
    const { api, server } = await apiFor('endless', { lean: true });
    let rows = 0;
    const error = await forEachTransferPage(api, { ...query, limit: 500 }, async (visit) => void (rows += visit.rows.length)).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'max-pages', pages: 2000, maxPages: 2000 });
    expect(server.requests()).toBe(2000);
    expect(rows).toBe(1_000_000);
  }, 120_000);

  it('a history of exactly one full page, then 3 arrivals: page 2 holds only pushed-down rows, skipped; the export ends whole', async () => {
    const { api, server } = await apiFor('arriving', { total: 10 });
    const ids: string[] = [];
    const result = await forEachTransferPage(api, query, async ({ rows }) => void ids.push(...rows.map((r) => r.tranId)));
    expect(server.requests()).toBe(2);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `h-${i}`));
    expect(result).toEqual({ pages: 2, rows: 10 });
  });

  it('transfers arriving during the export (newest first): each transfer of the history once, none of the new ones, no false repeat', async () => {
    const { api, server } = await apiFor('arriving', { total: 35 });
    const ids: string[] = [];
    const result = await forEachTransferPage(api, query, async ({ rows }) => void ids.push(...rows.map((r) => r.tranId)));
    expect(server.requests()).toBe(4);
    expect(ids).toEqual(Array.from({ length: 35 }, (_, i) => `h-${i}`));
    expect(result).toEqual({ pages: 4, rows: 35 });
  });

  it.each([
    ['alternate', 3, 'page 3 repeats page 1', 2],
    ['cycle3', 4, 'page 4 repeats page 1', 3],
    ['ignorePage', 2, 'page 2 repeats page 1', 1],
  ] as const)('%s: stopped at the first repeated page (%i requests), its rows never visited', async (mode, requests, message, pages) => {
    const { api, server } = await apiFor(mode);
    const ids: string[] = [];
    const error = await forEachTransferPage(api, query, async ({ rows }) => void ids.push(...rows.map((r) => r.tranId))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PagingStopped);
    expect(error).toMatchObject({ reason: 'repeated', pages, rows: pages * 10 });
    expect((error as Error).message).toMatch(
      new RegExp(`^${message} \\(transfer [ABC]-0 came on both; the service may ignore the page parameter\\); stopped$`),
    );
    expect(server.requests()).toBe(requests);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

// The console's "all pages" export asks for pages of 500 whatever the screen's page size (here 10).
describe("the console's file export of all pages", () => {
  const exportAll = async (mode: PagingMode, format: 'csv' | 'json', maxPages?: number) => {
    const { api, server } = await apiFor(mode);
    const dir = mkdtempSync(join(folder, `${mode}-`));
    const exporter = fileExporter(api, dir);
    const error = await exporter
      .run({ query, scope: 'all', format, ...(maxPages === undefined ? {} : { maxPages }) }, () => undefined, new AbortController().signal)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    return { error, server, dir, files: readdirSync(dir) };
  };

  it('endless full pages: stops at maxPages, keeps a complete CSV of what came, named -incomplete', async () => {
    const { error, server, dir, files } = await exportAll('endless', 'csv', 7);
    expect(error).toBeInstanceOf(PagingStopped);
    expect(server.requests()).toBe(7);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^transfers-.*-all-incomplete\.csv$/);
    const path = join(dir, files[0]!);
    expect(error!.message).toBe(
      `stopped after 7 pages, the most allowed: every page was full, so there may be more; the 3,500 rows of 7 pages so far are in ${path} (incomplete)`,
    );
    expect(server.pagesAsked()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(3501);
    expect(lines[0]).toMatch(/^tranId,/);
  });

  it('two alternating pages: stops at page 3, the JSON kept is a valid array of the 1,000 distinct rows', async () => {
    const { error, server, dir, files } = await exportAll('alternate', 'json');
    expect(server.requests()).toBe(3);
    expect(files).toEqual([expect.stringMatching(/-all-incomplete\.json$/)]);
    expect(error!.message).toMatch(
      /^page 3 repeats page 1 \(transfer A-0 came on both; the service may ignore the page parameter\); the 1,000 rows of 2 pages so far are in .*-all-incomplete\.json \(incomplete\)$/,
    );
    const rows = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as Transfer[];
    expect(rows.map((r) => r.tranId)).toEqual([...Array.from({ length: 500 }, (_, i) => `A-${i}`), ...Array.from({ length: 500 }, (_, i) => `B-${i}`)]);
  });

  it("a service failing at page 3: the 2 pages written stay, a valid CSV named -incomplete; the error is the service's", async () => {
    server = await startPagingServer('endless', { failFrom: 3 });
    const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1 });
    apis.push(api);
    const dir = mkdtempSync(join(folder, 'fails-'));
    const error = await fileExporter(api, dir)
      .run({ query, scope: 'all', format: 'csv' }, () => undefined, new AbortController().signal)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error).toBeInstanceOf(PartialExport);
    const partial = error as PartialExport;
    expect(partial.failure).toBeInstanceOf(BrokerError);
    expect((partial.failure as BrokerError).status).toBe(500);
    expect(partial).toMatchObject({ pages: 2, rows: 1000 });
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^transfers-.*-all-incomplete\.csv$/)]);
    expect(partial.kept).toBe(join(dir, files[0]!));
    const lines = readFileSync(partial.kept, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(1001);
    expect(lines.at(-1)).toMatch(/^p2-499,/);
  });

  it('a service failing at the first page: no file is left', async () => {
    server = await startPagingServer('endless', { failFrom: 1 });
    const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1 });
    apis.push(api);
    const dir = mkdtempSync(join(folder, 'fails-first-'));
    const error = await fileExporter(api, dir)
      .run({ query, scope: 'all', format: 'json' }, () => undefined, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrokerError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(!fullDisk.ok)('a disk that fills up part way: the error says so in words, how far it got, and that the file was removed', async () => {
    if (!fullDisk.ok) return;
    const { disk } = fullDisk;
    disk.free();
    server = await startPagingServer('endless');
    const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1, serviceLimit });
    apis.push(api);
    // 64 KiB hold a few pages of 500 rows (~110 bytes each) at most.
    const error = await fileExporter(api, disk.dir)
      .run({ query, scope: 'all', format: 'csv' }, () => undefined, new AbortController().signal)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(
      /^the export file could not be written \(no space left on device\)( after \d+ pages? \([\d,]+ rows\))?: the partial file was removed$/,
    );
    expect(readdirSync(disk.dir)).toEqual([]);
  });

  it.skipIf(!fullDisk.ok)('a disk already full: the error says so in words, and no file is left, not even an empty one', async () => {
    if (!fullDisk.ok) return;
    const { disk } = fullDisk;
    disk.fill();
    try {
      server = await startPagingServer('endless');
      const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1, serviceLimit });
      apis.push(api);
      for (const format of ['csv', 'json'] as const) {
        const error = await fileExporter(api, disk.dir)
          .run({ query, scope: 'all', format }, () => undefined, new AbortController().signal)
          .then(
            () => undefined,
            (e: unknown) => e as Error,
          );
        expect(error?.message).toBe(`the export file could not be created in ${disk.dir} (no space left on device): nothing was written`);
        expect(readdirSync(disk.dir)).toEqual(['filler']);
      }
    } finally {
      disk.free();
    }
  });

  it('a finite history still exports whole, under its usual name', async () => {
    server = await startPagingServer('finite', { total: 1015 });
    const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1 });
    apis.push(api);
    const dir = mkdtempSync(join(folder, 'finite-'));
    const result = await fileExporter(api, dir).run({ query, scope: 'all', format: 'csv' }, () => undefined, new AbortController().signal);
    expect(result).toMatchObject({ rows: 1015, pages: 3 });
    expect(server.pagesAsked()).toEqual([1, 2, 3]);
    expect(readFileSync(result.path, 'utf8').trimEnd().split('\r\n')).toHaveLength(1016);
    expect(result.path).toMatch(/-all\.csv$/);
    expect(existsSync(result.path)).toBe(true);
  });
});
