// Exports write in blocks: a page is one write (or one per 64 Ki characters), the bytes
// are exactly those the row-by-row writers gave, and a slow reader holds the writer back (back-pressure).
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { anyText } from '../arbitraries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transfer } from '../../src/api/types';
import { EXIT } from '../../src/commands/context';
import { OutputSink, tableLine } from '../../src/commands/output';
import { csvRecord } from '../../src/format/csv';
import { TABLE_COLUMNS, runTransfers, transferTableLine } from '../../src/commands/transfers';
import { BLOCK_CHARS, CSV_FIELDS, type RowWriter, type TextSink, csvCells, csvLine, csvWriter, jsonWriter } from '../../src/export/transferWriters';
import type { RunningSandbox } from '../../src/sandbox/types';
import { fetchAllTransfers, testContext } from '../commands/helpers';
import { FORMULAS, HOSTILE } from '../commands/hostile';
import { transfer } from './transfer';
import { ownSandbox } from '../sandbox/helpers';

const hostileRows: Transfer[] = [
  ...HOSTILE.map(([, h], i) => transfer({ tranId: String(i), status: h, asset: h, fromAccount: FORMULAS[i % FORMULAS.length]!, clientTranId: `a"b,c${h}` })),
  transfer({ tranId: '=1+1', amount: '-0.5', asset: '@SUM(A1)', status: '+cmd', clientTranId: '-2+3', toSymbol: '\tx', fromSymbol: '\rCR' }),
  transfer({ amount: '=1', tranId: '"quoted"' }),
  transfer({ amount: '+5', toAccount: '-' }),
];

/** 1,234 ordinary rows (about 140 characters each in CSV), then the hostile ones. */
const manyRows: Transfer[] = [
  ...Array.from({ length: 1234 }, (_, i) =>
    transfer({
      tranId: `${660_000_000_000_000_000n + BigInt(i)}`,
      clientTranId: `c${i}`.padEnd(32, 'x'),
      amount: `${i}.${i % 97}`,
      timestamp: 1_763_000_000_000 + i,
    }),
  ),
  ...hostileRows,
];

/** A sink that keeps every write. */
function recorder(): { sink: TextSink; writes: string[]; text(): string } {
  const writes: string[] = [];
  return { sink: async (text) => void writes.push(text), writes, text: () => writes.join('') };
}

async function rowByRow(make: (sink: TextSink) => RowWriter, rows: readonly Transfer[]): Promise<{ text: string; writes: number }> {
  const r = recorder();
  const writer = make(r.sink);
  for (const row of rows) await writer.row(row);
  await writer.end();
  return { text: r.text(), writes: r.writes.length };
}

async function inPages(make: (sink: TextSink) => RowWriter, rows: readonly Transfer[], size: number): Promise<{ text: string; writes: string[] }> {
  const r = recorder();
  const writer = make(r.sink);
  for (let i = 0; i < rows.length; i += size) await writer.rows(rows.slice(i, i + size));
  await writer.end();
  return { text: r.text(), writes: r.writes };
}

describe('block writes give the bytes the row-by-row writers gave', () => {
  it('property: csvLine is csvRecord(csvCells(t)) for any transfer', () => {
    const text = anyText({ maxLength: 24 });
    const decimal = fc.tuple(fc.constantFrom('', '-', '+', '=', '@'), fc.nat(), fc.nat(999)).map(([s, a, b]) => `${s}${a}.${b}`);
    const cell = fc.oneof(text, decimal, fc.constantFrom(...FORMULAS, '', '"', ',', '\r\n', '-', '+1e5'));
    fc.assert(
      fc.property(
        fc.record({
          tranId: cell,
          fromAccount: cell,
          toAccount: cell,
          clientTranId: cell,
          asset: cell,
          amount: cell,
          fromAccountType: cell,
          toAccountType: cell,
          fromSymbol: cell,
          toSymbol: cell,
          status: cell,
          timestamp: fc.oneof(fc.nat(), fc.integer({ min: -5, max: 5 })),
        }),
        (t) => {
          expect(csvLine(t)).toBe(csvRecord(csvCells(t)));
        },
      ),
      { numRuns: 500 },
    );
    for (const t of manyRows) expect(csvLine(t)).toBe(csvRecord(csvCells(t)));
    expect(csvRecord(CSV_FIELDS)).toBe(`${CSV_FIELDS.join(',')}\r\n`);
  });

  it.each([
    ['csv', (s: TextSink) => csvWriter(s)],
    ['csv for a terminal', (s: TextSink) => csvWriter(s, { terminal: true })],
    ['json', (s: TextSink) => jsonWriter(s)],
    ['json for a terminal', (s: TextSink) => jsonWriter(s, { terminal: true })],
  ] as const)('%s: pages of 500 (and of 7, and empty) write the same text as one write per row', async (_name, make) => {
    const reference = await rowByRow(make, manyRows);
    expect(reference.writes).toBeGreaterThanOrEqual(manyRows.length);
    for (const size of [500, 7]) expect((await inPages(make, manyRows, size)).text).toBe(reference.text);
    expect((await inPages(make, [], 500)).text).toBe((await rowByRow(make, [])).text);
  });

  it('one write per page below 64 Ki characters; a larger page in blocks of 64 Ki (and a row)', async () => {
    const small = await inPages((s) => csvWriter(s), manyRows.slice(0, 400), 100);
    expect(small.writes).toHaveLength(4);
    // 1,250 rows of ~140 characters in one page: ~175 Ki characters, so three blocks.
    const large = await inPages((s) => csvWriter(s), manyRows, 5000);
    const longest = Math.max(...manyRows.map((t) => csvLine(t).length));
    const total = large.writes.reduce((n, w) => n + w.length, 0);
    expect(large.writes).toHaveLength(Math.ceil(total / BLOCK_CHARS));
    for (const block of large.writes.slice(0, -1)) {
      expect(block.length).toBeGreaterThanOrEqual(BLOCK_CHARS);
      expect(block.length).toBeLessThan(BLOCK_CHARS + longest);
    }
  });

  it('a slow reader holds the writer back: never more than one block past the stream’s buffer', async () => {
    let maxBuffered = 0;
    let waits = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk: Buffer, _encoding, done) {
        setTimeout(done, 1);
      },
    });
    const write = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const ok = write(chunk);
      maxBuffered = Math.max(maxBuffered, slow.writableLength);
      if (!ok) waits += 1;
      return ok;
    }) as typeof slow.write;
    const out = new OutputSink(slow);
    const writer = csvWriter((text) => out.write(text));
    const pages = 12;
    for (let i = 0; i < pages; i++) await writer.rows(manyRows.slice(0, 1000));
    await writer.end();
    const longest = Math.max(...manyRows.map((t) => csvLine(t).length));
    expect(waits).toBeGreaterThanOrEqual(pages);
    expect(maxBuffered).toBeLessThan(16 * 1024 + BLOCK_CHARS + longest);
    out.release();
  });
});

describe('the transfers command writes in blocks, the same bytes', () => {
  let sandbox: RunningSandbox;
  let expected: Transfer[];
  beforeAll(async () => {
    sandbox = await ownSandbox({ seed: 5, rateLimit: { max: 1_000_000, windowMs: 1000 } });
    expected = await fetchAllTransfers(sandbox, { fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  /** The command's stdout, and how many writes reached it. */
  async function run(format: string, limit: string): Promise<{ text: string; writes: number }> {
    let writes = 0;
    const { ctx, out } = testContext(sandbox);
    const write = out.stream.write.bind(out.stream);
    out.stream.write = ((chunk: string) => {
      writes += 1;
      return write(chunk);
    }) as typeof out.stream.write;
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit, format }, ctx)).toBe(EXIT.ok);
    return { text: out.text(), writes };
  }

  it('csv and json: what one write per row gave, in one write per page', async () => {
    const pages = Math.floor(expected.length / 100) + 1;
    for (const [format, make] of [
      ['csv', (s: TextSink) => csvWriter(s)],
      ['json', (s: TextSink) => jsonWriter(s)],
    ] as const) {
      const { text, writes } = await run(format, '100');
      expect(text).toBe((await rowByRow(make, expected)).text);
      // One per page, plus the JSON's closing bracket.
      expect(writes).toBeLessThanOrEqual(pages + 1);
    }
  });

  it('table: the header and one line per transfer, then the totals; one write per page', async () => {
    const { text, writes } = await run('table', '250');
    const header = `${await tableLine(
      TABLE_COLUMNS,
      TABLE_COLUMNS.map((c) => c.header),
      TABLE_COLUMNS.map((c) => c.width ?? 0),
    )}\n`;
    expect(text.startsWith(header + (await Promise.all(expected.map(transferTableLine))).map((line) => `${line}\n`).join(''))).toBe(true);
    expect(text).toMatch(/\ntotals, SUCCESS only, [\d,]+ of [\d,]+ rows \(\d+ pages\):\n/);
    expect(writes).toBeLessThanOrEqual(Math.floor(expected.length / 250) + 2);
  });
});
