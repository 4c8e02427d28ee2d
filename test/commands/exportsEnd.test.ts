// `transfers --all` always ends: hostile servers that never send a short page, that
// alternate two pages, or that cycle three; --max-pages and its default; the command line's --help says it.
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/commands/context';
import { runTransfers } from '../../src/commands/transfers';
import { type PagingMode, type PagingServer, pagingEnv, startPagingServer } from '../export/pagingServers';
import { runCli, testContext } from './helpers';

let server: PagingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(mode: PagingMode, extra: Record<string, string | boolean> = {}) {
  server = await startPagingServer(mode);
  const { ctx, out, err } = testContext(undefined, { env: pagingEnv(server) });
  const code = await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '10', format: 'csv', ...extra }, ctx);
  const records = out.text().trimEnd().split('\r\n');
  return { code, records, stderr: err.text(), requests: server.requests() };
}

describe('transfers --all against a service that never ends', () => {
  it('always-full pages: stops after --max-pages requests, exit 1, one line saying how far it got', async () => {
    const { code, records, stderr, requests } = await run('endless', { maxPages: '5' });
    expect(code).toBe(EXIT.failure);
    expect(requests).toBe(5);
    expect(stderr).toBe(
      'error: stopped after 5 pages (--max-pages 5): every page was full, so there may be more; narrow --start/--end or raise --max-pages (after 5 pages, 50 rows written)\n',
    );
    // What was written stays written: the header and the 50 rows of pages 1-5.
    expect(records).toHaveLength(51);
  });

  it('two alternating pages: stopped at page 3, exit 1, no row written twice', async () => {
    const { code, records, stderr, requests } = await run('alternate');
    expect(code).toBe(EXIT.failure);
    expect(requests).toBe(3);
    expect(stderr).toBe(
      'error: page 3 repeats page 1 (transfer A-0 came on both; the service may ignore the page parameter); stopped (after 2 pages, 20 rows written)\n',
    );
    const ids = records.slice(1).map((r) => r.split(',')[0]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('three pages in a cycle: the repeat of a page two back is caught too; the JSON written is a closed array', async () => {
    server = await startPagingServer('cycle3');
    const { ctx, out, err } = testContext(undefined, { env: pagingEnv(server) });
    const code = await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '10', format: 'json' }, ctx);
    expect(code).toBe(EXIT.failure);
    expect(server.requests()).toBe(4);
    expect(err.text()).toMatch(/^error: page 4 repeats page 1 .*\(after 3 pages, 30 rows written\)\n$/);
    expect(JSON.parse(out.text())).toHaveLength(30);
  });

  // The default bound itself (1,000,000 / --limit: 2,000 pages of 500) is run end to end, a million rows,
  // in test/export/transferPages.test.ts; through the command it would only add a 60 MB CSV to write.
  it.each([
    [{ maxPages: '0' }, "error: --max-pages: must be a whole number from 1 to 1000000 (got '0')"],
    [{ maxPages: 'ten' }, "error: --max-pages: must be a whole number from 1 to 1000000 (got 'ten')"],
    [{ maxPages: '1000001' }, "error: --max-pages: must be a whole number from 1 to 1000000 (got '1000001')"],
    [{ maxPages: '3', all: false }, 'error: --max-pages applies to --all and --summary only'],
  ])('%j: usage error, exit 2, nothing sent', async (extra, line) => {
    const { code, stderr, requests } = await run('endless', extra);
    expect(code).toBe(EXIT.usage);
    expect(stderr.split('\n')).toContain(line);
    expect(requests).toBe(0);
  });
});

describe('the command line', () => {
  it('--help names --max-pages and its default', async () => {
    const help = await runCli(['transfers', '--help']);
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('--max-pages <n> with --all or --summary: fetch at most N pages (default 2000 at 500 a page: room for 1,000,000 transfers)');
    expect(flat).toContain(
      'It stops with exit 1 when a page repeats transfers of any earlier page (rows that transfers arriving meanwhile pushed down a page are skipped, not a repeat), or after --max-pages full pages (default 1,000,000 / limit: 2000 pages of 500, 10000 of 100)',
    );
  });

  it('--all --max-pages 3 against a never-ending service: exit 1 after 3 requests', async () => {
    server = await startPagingServer('endless');
    const r = await runCli(
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--all', '--limit', '4', '--max-pages', '3', '--format', 'json'],
      pagingEnv(server),
    );
    expect(r.code).toBe(1);
    expect(server.requests()).toBe(3);
    expect(r.stderr).toMatch(/^error: stopped after 3 pages \(--max-pages 3\): .*\(after 3 pages, 12 rows written\)\n$/);
  });
});
