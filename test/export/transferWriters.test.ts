// The writers shared by `transfers --format csv|json` and the console's export: exact data for files and
// pipes, formula cells neutralised in CSV, control and bidi characters escaped in JSON, sanitised for a terminal.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { anyText } from '../arbitraries';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrokerApi } from '../../src/api/contract';
import type { Transfer } from '../../src/api/types';
import { isPlainDecimal, neutraliseCsvCell } from '../../src/format/csv';
import { fileExporter } from '../../src/export/fileExporter';
import { CSV_FIELDS, csvWriter, jsonWriter } from '../../src/export/transferWriters';
import { FORMULAS, HOSTILE, UNSAFE_IN_LINES, parseCsv } from '../commands/hostile';
import { transfer } from './transfer';

const folder = mkdtempSync(join(tmpdir(), 'broker-export-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const hostileRows: Transfer[] = [
  ...HOSTILE.map(([, h], i) => transfer({ tranId: String(i), status: h, asset: h, fromAccount: FORMULAS[i % FORMULAS.length]! })),
  transfer({ tranId: '=1+1', amount: '-0.5', asset: '@SUM(A1)', status: '+cmd', clientTranId: '-2+3', toSymbol: '\tx', fromSymbol: '\rCR' }),
];

async function written(rows: readonly Transfer[], format: 'csv' | 'json', terminal = false): Promise<string> {
  let text = '';
  const write = async (chunk: string): Promise<void> => {
    text += chunk;
  };
  const writer = format === 'csv' ? csvWriter(write, { terminal }) : jsonWriter(write, { terminal });
  for (const row of rows) await writer.row(row);
  await writer.end();
  return text;
}

const expectedCell = (field: (typeof CSV_FIELDS)[number], raw: string): string =>
  (field === 'amount' || field === 'timestamp') && isPlainDecimal(raw) ? raw : /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;

describe('CSV neutralisation', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', false, '\'=HYPERLINK("http://x","y")'],
    ['+cmd|x', false, "'+cmd|x"],
    ['-2+3', false, "'-2+3"],
    ['@SUM(A1)', false, "'@SUM(A1)"],
    ['\tx', false, "'\tx"],
    ['\rx', false, "'\rx"],
    ['plain', false, 'plain'],
    ['a=b', false, 'a=b'],
    ['-12.5', true, '-12.5'],
    ['+5', true, '+5'],
    ['.5', true, '.5'],
    ['-12.5', false, "'-12.5"],
    ['-1+1', true, "'-1+1"],
    ['=1', true, "'=1"],
    ['-1e5', true, "'-1e5"],
  ])('%j (numeric column: %s) → %j', (value, numeric, expected) => {
    expect(neutraliseCsvCell(value, numeric)).toBe(expected);
  });

  it('a file or pipe gets every cell exactly, formula cells with a leading quote, plain amounts untouched', async () => {
    const records = parseCsv(await written(hostileRows, 'csv'));
    expect(records[0]).toEqual([...CSV_FIELDS]);
    hostileRows.forEach((t, i) => CSV_FIELDS.forEach((f, j) => expect(records[i + 1]![j]).toBe(expectedCell(f, String(t[f])))));
    expect(records.map((r) => r[CSV_FIELDS.indexOf('amount')])).toEqual(['amount', ...hostileRows.map((t) => t.amount)]);
  });

  it('property: any transfer reads back exactly, but for the quote put before formula cells', async () => {
    const text = anyText({ maxLength: 30 });
    const decimal = fc.tuple(fc.constantFrom('', '-', '+'), fc.nat(), fc.nat(99)).map(([s, a, b]) => `${s}${a}.${b}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tranId: text,
            fromAccount: text,
            toAccount: text,
            clientTranId: text,
            asset: text,
            amount: fc.oneof(decimal, text),
            status: text,
            fromSymbol: text,
          }),
          { maxLength: 5 },
        ),
        async (parts) => {
          const rows = parts.map((p) => transfer(p));
          const records = parseCsv(await written(rows, 'csv'));
          expect(records).toHaveLength(rows.length + 1);
          rows.forEach((t, i) => CSV_FIELDS.forEach((f, j) => expect(records[i + 1]![j]).toBe(expectedCell(f, String(t[f])))));
        },
      ),
    );
  });

  it('for a terminal: sanitised (one line per record), still neutralised', async () => {
    const text = await written(hostileRows, 'csv', true);
    expect(text.replace(/\r\n/g, '\n')).not.toMatch(UNSAFE_IN_LINES);
    expect(text.split('\r\n')).toHaveLength(hostileRows.length + 2);
    expect(text).toContain("'=1+1");
  });
});

describe('JSON', () => {
  it('exact data, with C1, DEL, U+2028 and bidi controls escaped as \\u sequences', async () => {
    const text = await written(hostileRows, 'json');
    expect(text).not.toMatch(UNSAFE_IN_LINES);
    expect(JSON.parse(text)).toEqual(hostileRows);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\u2028');
    expect(text).toContain('\\u007f');
  });

  it('property: any transfer round-trips, and the text holds no raw control or bidi character', async () => {
    const text = anyText({ maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ asset: text, status: text, toAccount: text }), { maxLength: 4 }), async (parts) => {
        const rows = parts.map((p) => transfer(p));
        const json = await written(rows, 'json');
        expect(json).not.toMatch(UNSAFE_IN_LINES);
        expect(JSON.parse(json)).toEqual(rows);
      }),
    );
  });
});

describe("the console's export to files", () => {
  const api = (rows: Transfer[]): BrokerApi => ({
    listSubAccountKeys: () => Promise.reject(new Error('not used')),
    createSubAccountKey: () => Promise.reject(new Error('not used')),
    listUniversalTransfers: () => Promise.resolve(rows),
    clockOffsetMs: () => 0,
    reportCutShort: () => undefined,
    heldBack: () => undefined,
    close: () => Promise.resolve(),
  });
  const query = { fromAccountType: 'SPOT', toAccountType: 'FUTURE' };

  it.each(['page', 'all'] as const)('CSV (%s): formula cells neutralised, other data exactly as sent (files are not terminals)', async (scope) => {
    const exporter = fileExporter(api(hostileRows), folder, () => Date.now());
    const result = await exporter.run({ query, scope, format: 'csv' }, () => undefined, new AbortController().signal);
    const records = parseCsv(readFileSync(result.path, 'utf8'));
    hostileRows.forEach((t, i) => CSV_FIELDS.forEach((f, j) => expect(records[i + 1]![j]).toBe(expectedCell(f, String(t[f])))));
    expect(records.map((r) => r[CSV_FIELDS.indexOf('status')])).toContain('\x1b]0;pwned\x07');
  });

  it('JSON: exact data, escaped', async () => {
    const exporter = fileExporter(api(hostileRows), folder, () => Date.now() + 1000);
    const result = await exporter.run({ query, scope: 'page', format: 'json' }, () => undefined, new AbortController().signal);
    const text = readFileSync(result.path, 'utf8');
    expect(text).not.toMatch(UNSAFE_IN_LINES);
    expect(JSON.parse(text)).toEqual(hostileRows);
  });
});
