import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { formatLocalTime } from '../../src/api/timeInput';
import { OutputSink, formatTable, pad, tableLine } from '../../src/commands/output';
import { csvField, csvRecord } from '../../src/format/csv';
import { AssetTotals } from '../../src/export/totals';
import type { Transfer } from '../../src/api/types';

/** A reference RFC 4180 reader for one record (fields separated by commas, CRLF at the end). */
function readRecord(text: string): string[] {
  expect(text.endsWith('\r\n')).toBe(true);
  const body = text.slice(0, -2);
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (body[i] === '"') {
      i += 1;
      for (;;) {
        if (body[i] === '"' && body[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (body[i] === '"') {
          i += 1;
          break;
        } else {
          if (i >= body.length) throw new Error('unterminated quote');
          field += body[i];
          i += 1;
        }
      }
    } else {
      while (i < body.length && body[i] !== ',') {
        expect(body[i]).not.toMatch(/["\r\n]/);
        field += body[i];
        i += 1;
      }
    }
    fields.push(field);
    if (i >= body.length) return fields;
    expect(body[i]).toBe(',');
    i += 1;
  }
}

describe('CSV (RFC 4180)', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\rhere', '"cr\rhere"'],
    ['-1.50', '-1.50'],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
  it('records end with CRLF', () => {
    expect(csvRecord(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
  it('property: any record reads back to the same fields', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ',', '"', '\r', '\n', ' ', 'é', '.', '-') });
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 8 }), (fields) => {
        expect(readRecord(csvRecord(fields))).toEqual(fields);
      }),
      { numRuns: 500 },
    );
  });
  it('property: decimal amount strings are written exactly as given', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat(18), (units, decimals) => {
        const digits = (units < 0n ? -units : units).toString().padStart(decimals + 1, '0');
        const amount = `${units < 0n ? '-' : ''}${decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`}`;
        expect(csvField(amount)).toBe(amount);
      }),
    );
  });
});

describe('tables', () => {
  it('pads to the widest cell, two spaces apart, no trailing spaces', async () => {
    expect(
      await formatTable(
        [{ header: 'a' }, { header: 'bb', align: 'right' }, { header: 'c' }],
        [
          ['xxx', '1', ''],
          ['y', '222', 'z'],
        ],
      ),
    ).toBe('a     bb  c\nxxx    1\ny    222  z\n');
  });
  it('fixed-width lines for streaming', async () => {
    expect(
      await tableLine(
        [
          { header: 'x', width: 4 },
          { header: 'y', width: 5, align: 'right' },
        ],
        ['ab', '12'],
        [4, 5],
      ),
    ).toBe('ab       12');
    expect(await pad('toolong', 3)).toBe('toolong');
  });
  it('pads by display width: CJK and emoji take two cells, combining marks none', async () => {
    expect(await pad('交易', 6)).toBe('交易  ');
    expect(await pad('😀', 3, 'right')).toBe(' 😀');
    expect(await pad('e\u0301', 2)).toBe('e\u0301 ');
  });
  it('formatTable aligns CJK and emoji cells and sanitises every cell to one line', async () => {
    const table = await formatTable(
      [{ header: 'note' }, { header: 'key' }],
      [
        ['交易机器人', 'K1'],
        ['👩‍💻', 'K2'],
        ['a\r\nb\x1b]0;t\x07', 'K3'],
      ],
    );
    const lines = table.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('a␍␊b␛]0;t␇  K3');
    expect(lines[1]).toBe('交易机器人  K1');
    expect(lines[2]).toBe('👩‍💻          K2');
    expect(await tableLine([{ header: 'x' }], ['\u202Eevil'], [4])).toBe('<U+202E>evil');
  });
});

describe('times', () => {
  it('local time with minutes, or seconds', () => {
    const ms = new Date(2026, 10, 20, 14, 3, 9).getTime();
    expect(formatLocalTime(ms)).toBe('2026-11-20 14:03');
    expect(formatLocalTime(ms, true)).toBe('2026-11-20 14:03:09');
    expect(formatLocalTime(Number.NaN)).toBe('?');
  });
});

describe('per-asset totals', () => {
  const transfer = (asset: string, amount: string): Transfer => ({
    tranId: '1',
    fromAccount: '',
    toAccount: '',
    clientTranId: '',
    asset,
    amount,
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: 0,
  });
  it('are decimal-exact, in plain notation, sorted by asset', () => {
    const totals = new AssetTotals();
    for (const [asset, amount] of [
      ['USDT', '0.1'],
      ['USDT', '0.2'],
      ['BTC', '0.00000001'],
      ['BTC', '0.00000002'],
      ['USDT', '1e2'],
    ] as const) {
      totals.add(transfer(asset, amount));
    }
    totals.add(transfer('ETH', 'n/a'));
    expect(totals.entries()).toEqual([
      ['BTC', '0.00000003'],
      ['USDT', '100.3'],
    ]);
    expect(totals.unparsable).toBe(1);
  });

  it('read every form a decimal may be written in (1e-7, +3., .5, -0); anything else is counted apart, never fails', () => {
    const totals = new AssetTotals();
    for (const amount of ['1e-7', '+3.', '.5', '-0', '2.5E+1', '+.25']) totals.add(transfer('BTC', amount));
    for (const amount of ['N/A', '', '1,5', 'Infinity', '1e999999999', '0x10']) totals.add(transfer('BTC', amount));
    expect(totals.entries()).toEqual([['BTC', '28.7500001']]);
    expect(totals.counted).toBe(6);
    expect(totals.unparsable).toBe(6);
  });
});

describe('a created secret written to a file', () => {
  it('is on the disk before it is said delivered: writeFlushed syncs a regular file, a plain write does not', async () => {
    const fs = process.getBuiltinModule('node:fs');
    const folder = fs.mkdtempSync(join(tmpdir(), 'bc-output-sync-'));
    const fd = fs.openSync(join(folder, 'key.txt'), 'w');
    const synced = vi.spyOn(fs, 'fsyncSync');
    try {
      const stream = Object.assign(new PassThrough(), { fd });
      const sink = new OutputSink(stream);
      await sink.write('a row\n');
      expect(synced).not.toHaveBeenCalled();
      await sink.writeFlushed('secretKey    abc\n');
      expect(synced).toHaveBeenCalledWith(fd);
      expect(fs.readFileSync(join(folder, 'key.txt'), 'utf8')).toBe('a row\nsecretKey    abc\n');
    } finally {
      synced.mockRestore();
      fs.closeSync(fd);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
