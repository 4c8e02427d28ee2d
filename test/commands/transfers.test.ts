// transfers, run in-process against a real sandbox: paging, formats, totals, backpressure, EPIPE.
import { Writable } from 'node:stream';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerApi } from '../../src/api/contract';
import type { Transfer } from '../../src/api/types';
import { EXIT } from '../../src/commands/context';
import { runTransfers } from '../../src/commands/transfers';
import { CSV_FIELDS } from '../../src/export/transferWriters';
import type { RunningSandbox } from '../../src/sandbox/types';
import { fetchAllTransfers, requestCount, testContext, transferPagesRequested } from './helpers';
import { parseCsv } from './hostile';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let spotToFuture: Transfer[];
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 3, rateLimit: { max: 100_000, windowMs: 1000 } });
  spotToFuture = await fetchAllTransfers(sandbox, { fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
});
afterAll(async () => {
  await sandbox.close();
});

describe('transfers --all', () => {
  it('the seeded data spans several pages of 100', () => {
    expect(spotToFuture.length).toBeGreaterThan(250);
  });

  it('--format csv writes every matching transfer, requesting pages 1..n in order', async () => {
    const pagesBefore = transferPagesRequested(sandbox).length;
    const { ctx, out, err } = testContext(sandbox);
    const code = await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '100', format: 'csv' }, ctx);
    expect(err.text()).toBe('');
    expect(code).toBe(EXIT.ok);
    const [header, ...rows] = parseCsv(out.text());
    expect(header).toEqual([...CSV_FIELDS]);
    expect(rows.map((r) => r[0])).toEqual(spotToFuture.map((t) => t.tranId));
    expect(rows.map((r) => r[5])).toEqual(spotToFuture.map((t) => t.amount));
    const n = Math.floor(spotToFuture.length / 100) + 1;
    expect(transferPagesRequested(sandbox).slice(pagesBefore)).toEqual(Array.from({ length: n }, (_, i) => String(i + 1)));
  });

  it('--format json is one valid array with every transfer', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'spot', toType: 'future', all: true, format: 'json' }, ctx)).toBe(EXIT.ok);
    const parsed = JSON.parse(out.text()) as Transfer[];
    expect(parsed).toEqual(spotToFuture);
  });

  it('json with no matches is []', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURES', toAccount: 'nobody12345', all: true, format: 'json' }, ctx)).toBe(EXIT.ok);
    expect(JSON.parse(out.text())).toEqual([]);
  });

  it('reports progress on stderr only when it is a terminal', async () => {
    const { ctx, err } = testContext(sandbox, { stderrIsTTY: true });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '100', format: 'csv' }, ctx)).toBe(EXIT.ok);
    expect(err.text().split('\n')[0]).toBe('page 1: 100 rows');
  });

  it('awaits drain: never more than one write is buffered, however slow the reader', async () => {
    let maxBuffered = 0;
    let largestWrite = 0;
    const slow = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _enc, done) {
        largestWrite = Math.max(largestWrite, chunk.length);
        setImmediate(done);
      },
    });
    const originalWrite = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const result = originalWrite(chunk);
      maxBuffered = Math.max(maxBuffered, slow.writableLength);
      return result;
    }) as typeof slow.write;
    const { ctx } = testContext(sandbox, { stdout: slow });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '100', format: 'csv' }, ctx)).toBe(EXIT.ok);
    expect(maxBuffered).toBeLessThanOrEqual(Math.max(256, largestWrite) * 2);
  });

  it('stops quietly when the reader goes away (EPIPE), fetching nothing past the page fetched ahead', async () => {
    let written = 0;
    const closing = new Writable({
      write(chunk: Buffer, _enc, done) {
        written += chunk.length;
        if (written > 2000) {
          const error: NodeJS.ErrnoException = new Error('write EPIPE');
          error.code = 'EPIPE';
          done(error);
        } else done();
      },
    });
    const before = requestCount(sandbox);
    const { ctx, err } = testContext(sandbox, { stdout: closing });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '100', format: 'csv' }, ctx)).toBe(EXIT.ok);
    expect(err.text()).toBe('');
    // Page 2 was asked for while page 1 was written (one page ahead); it is cancelled, and nothing after it is asked.
    expect(requestCount(sandbox) - before).toBeLessThanOrEqual(2);
  });

  it('a write that fails (a full disk): exit 1, stdout named and the reason in words', async () => {
    const full = new Writable({
      write(_chunk: Buffer, _enc, done) {
        done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      },
    });
    const { ctx, err } = testContext(sandbox, { stdout: full });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', limit: '5', format: 'csv' }, ctx)).toBe(EXIT.failure);
    expect(err.text()).toBe('error: could not write the output to stdout: no space left on device\n');
  });

  it('stops, exit 1, when the service repeats a page instead of paging', async () => {
    const samePage = spotToFuture.slice(0, 2);
    let calls = 0;
    const fake: BrokerApi = {
      listSubAccountKeys: () => Promise.reject(new Error('unused')),
      createSubAccountKey: () => Promise.reject(new Error('unused')),
      listUniversalTransfers: () => {
        calls += 1;
        return Promise.resolve(samePage);
      },
      clockOffsetMs: () => 0,
      reportCutShort: () => undefined,
      heldBack: () => undefined,
      close: () => Promise.resolve(),
    };
    const { ctx, err } = testContext(sandbox, { createApi: () => fake });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '2', format: 'csv' }, ctx)).toBe(EXIT.failure);
    expect(err.text()).toMatch(/^error: page 2 repeats page 1 .*\(after 1 page, 2 rows written\)\n$/);
    expect(calls).toBe(2);
  });

  it('a failure mid-way says how far it got, exit 1', async () => {
    // page 1 answers, page 2 fails (maxTries 1 in the test context).
    const { ctx, err } = testContext(sandbox);
    sandbox.queueFaults({ kind: 'delay', ms: 0 }, { kind: 'status', status: 400, code: 700004, msg: 'bad page' });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '100', format: 'csv' }, ctx)).toBe(EXIT.failure);
    expect(err.text()).toMatch(/^error: .*\(after 1 page, 100 rows written\)\n$/);
  });
});

describe('transfers, one page as a table', () => {
  it('prints fixed-width rows, decimal-exact per-asset totals and whether more pages exist', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', limit: '50' }, ctx)).toBe(EXIT.ok);
    const text = out.text();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^time\s+tranId\s+from\s+fromAccount\s+to\s+toAccount\s+asset\s+amount\s+status\s+clientTranId$/);
    const page = spotToFuture.slice(0, 50);
    for (const [i, t] of page.entries()) expect(lines[i + 1]).toContain(t.tranId);
    // Only SUCCESS transfers moved money: the totals count them alone and say how many that is.
    const sums = new Map<string, Big>();
    const success = page.filter((t) => t.status === 'SUCCESS');
    for (const t of success) sums.set(t.asset, (sums.get(t.asset) ?? new Big(0)).plus(t.amount));
    expect(text).toContain(`totals of page 1, SUCCESS only, ${success.length} of 50 rows:`);
    if (success.length < page.length) expect(text).toMatch(/^ {2}not counted: \d+ \w+/m);
    for (const [asset, sum] of sums) expect(text).toMatch(new RegExp(`^  ${asset}\\s+${sum.toFixed().replace('.', '\\.')}$`, 'm'));
    expect(text).toContain('more pages: --page 2, or --all for every page');
  });

  it('says "no more pages" on a short page', async () => {
    const last = Math.ceil(spotToFuture.length / 100);
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', limit: '100', page: String(last) }, ctx)).toBe(EXIT.ok);
    expect(out.text().trimEnd().endsWith('no more pages')).toBe(true);
  });

  it('no matches', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURES', toAccount: 'nobody12345' }, ctx)).toBe(EXIT.ok);
    expect(out.text()).toBe('no transfers match\n');
  });

  it('sends only what was given: one page, no page or limit parameters by default', async () => {
    const before = sandbox.requests().length;
    const { ctx } = testContext(sandbox);
    await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format: 'json' }, ctx);
    const sent = sandbox.requests().slice(before);
    expect(sent).toHaveLength(1);
    const query = new URLSearchParams(sent[0]?.query);
    expect(query.get('page')).toBeNull();
    expect(query.get('limit')).toBeNull();
  });
});

describe('transfers account types', () => {
  const sentTypes = (from: number): Array<[string | null, string | null]> =>
    sandbox
      .requests()
      .slice(from)
      .map((r) => new URLSearchParams(r.query))
      .map((q) => [q.get('fromAccountType'), q.get('toAccountType')]);

  it("FUTURES (documented) and FUTURE (the answers' spelling) are each sent as typed and give the same transfers", async () => {
    const before = requestCount(sandbox);
    const futures = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURES', all: true, format: 'json' }, futures.ctx)).toBe(EXIT.ok);
    const future = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'future', all: true, format: 'json' }, future.ctx)).toBe(EXIT.ok);
    expect(JSON.parse(futures.out.text())).toEqual(spotToFuture);
    expect(JSON.parse(future.out.text())).toEqual(spotToFuture);
    expect(new Set(sentTypes(before).map(([, to]) => to))).toEqual(new Set(['FUTURES', 'FUTURE']));
  });

  it('a type the service does not have fails loudly: exit 1, its parameter error naming the field, one request', async () => {
    const before = requestCount(sandbox);
    const { ctx, out, err } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'MARGIN', format: 'json' }, ctx)).toBe(EXIT.failure);
    expect(err.text()).toMatch(
      /^error: list transfers failed \(HTTP 400 code 700004\): Mandatory parameter 'toAccountType' was not sent, was empty\/null, or malformed\. — /,
    );
    expect(out.text()).toBe('');
    expect(sentTypes(before)).toEqual([['SPOT', 'MARGIN']]);
  });
});

describe('transfers input errors: exit 2, field named, nothing sent', () => {
  it.each([
    [{ toType: 'FUTURE' }, 'error: --from-type: required'],
    [{ fromType: 'SPOT' }, 'error: --to-type: required'],
    [{ fromType: 'SP0T', toType: 'FUTURE' }, "error: --from-type: 'SP0T' is not an account type"],
    [{ fromType: 'SPOT', toType: 'FUTURES 2' }, "error: --to-type: 'FUTURES 2' is not an account type (letters and _ only, e.g. SPOT, FUTURES)"],
    [{ fromType: 'SPOT', toType: 'FUTURE', fromAccount: 'a b' }, 'error: --from-account: must not contain spaces'],
    [{ fromType: 'SPOT', toType: 'FUTURE', toAccount: 'a\tb' }, 'error: --to-account: must not contain control characters'],
    [{ fromType: 'SPOT', toType: 'FUTURE', start: 'yesterday' }, "error: --start: 'yesterday' is not a time"],
    [{ fromType: 'SPOT', toType: 'FUTURE', end: '1700000000' }, "error: --end: '1700000000' looks like epoch seconds"],
    [{ fromType: 'SPOT', toType: 'FUTURE', start: '1d', end: '2d' }, 'error: --end: must not be before --start'],
    [{ fromType: 'SPOT', toType: 'FUTURE', clientTranId: 'abc' }, 'error: --client-tran-id: must be exactly 32 letters and digits (got 3)'],
    [{ fromType: 'SPOT', toType: 'FUTURE', page: '0' }, 'error: --page: must be a whole number of 1 or more (got 0)'],
    [{ fromType: 'SPOT', toType: 'FUTURE', limit: '501' }, 'error: --limit: must be a whole number from 1 to 500 (got 501)'],
    [{ fromType: 'SPOT', toType: 'FUTURE', format: 'xml' }, "error: --format: must be table, json or csv (got 'xml')"],
  ])('%j → %s', async (options, expected) => {
    const before = requestCount(sandbox);
    const { ctx, out, err } = testContext(sandbox);
    expect(await runTransfers(options, ctx)).toBe(EXIT.usage);
    expect(err.text().startsWith(expected)).toBe(true);
    expect(out.text()).toBe('');
    expect(requestCount(sandbox)).toBe(before);
  });
});
