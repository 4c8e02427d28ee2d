// Issue 8, point 5: amounts as the service wrote them, what the totals may add, and times the service can take.
import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECIMAL_TEXT, decimalForBig, isDecimalAmount } from '../../src/api/decimal';
import { answerExcerpt, quoteNumbers, serviceErrorFromBody } from '../../src/api/http';
import { parseTime } from '../../src/api/timeInput';
import { validateTransferQuery } from '../../src/api/validation';

describe('decimal amounts', () => {
  it('knows every form a decimal may take, and what is not one', () => {
    for (const text of ['1', '1.5', '1e-7', '+3.', '.5', '-0', '-.5', '3.', '2.5E+3', '0.10000000000000000001', '+0.0e0']) {
      expect(isDecimalAmount(text), text).toBe(true);
    }
    for (const text of ['', ' 1', '1 ', '1,5', '0x10', 'Infinity', 'NaN', '-', '+', '.', 'e5', '1e', '1e+', '--1', 'N/A', '１', '1e1000', 'x'.repeat(5)]) {
      expect(isDecimalAmount(text), text).toBe(false);
    }
  });

  it('gives big.js a form it reads, with the same value', () => {
    expect(new Big(decimalForBig('+3.') ?? 'x').toFixed()).toBe('3');
    expect(new Big(decimalForBig('.5') ?? 'x').toFixed()).toBe('0.5');
    expect(new Big(decimalForBig('1e-7') ?? 'x').toFixed()).toBe('0.0000001');
    expect(new Big(decimalForBig('-0') ?? 'x').toFixed()).toBe('0');
    expect(decimalForBig('1e101')).toBeUndefined();
    expect(decimalForBig('1'.repeat(101))).toBeUndefined();
  });

  it('every decimal text is read by big.js; every text big.js refuses is not a decimal (property)', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '2', '9'), minLength: 0, maxLength: 6 });
    const decimal = fc
      .tuple(fc.constantFrom('', '+', '-'), digits, fc.constantFrom('', '.'), digits, fc.constantFrom('', 'e', 'E-', 'e+'), fc.integer({ min: 0, max: 120 }))
      .map(([sign, a, point, b, e, exp]) => `${sign}${a}${point}${b}${e === '' ? '' : `${e}${exp}`}`);
    fc.assert(
      fc.property(fc.oneof(decimal, fc.string()), (text) => {
        const forBig = decimalForBig(text);
        if (forBig === undefined) return;
        expect(DECIMAL_TEXT.test(text)).toBe(true);
        expect(() => new Big(forBig)).not.toThrow();
      }),
    );
  });
});

describe('numbers kept as written', () => {
  it('quotes the numeric values of the named keys, and nothing inside strings', () => {
    expect(quoteNumbers('[{"amount":0.10,"timestamp":1},{"amount" : -1e-7 }]', ['amount'])).toBe('[{"amount":"0.10","timestamp":1},{"amount" : "-1e-7" }]');
    const tricky = '[{"note":"\\"amount\\":1","amount":"2"}]';
    expect(quoteNumbers(tricky, ['amount'])).toBe(tricky);
    expect(JSON.parse(quoteNumbers('[{"amount":12345678901234567890.123456789}]', ['amount']))).toEqual([{ amount: '12345678901234567890.123456789' }]);
  });
});

describe('answer excerpts', () => {
  it('are short, terminal-safe, and hide anything named like a secret', () => {
    expect(answerExcerpt('{"apiKey":"k","secretKey":"TOPSECRET","x":1}', 44, true)).toBe(`'{"apiKey":"k","secretKey":"(hidden)","x":1}' (44 bytes)`);
    expect(answerExcerpt('{"secret_key":"TOPSEC', 21, false)).toBe(`'{"secret_key":"(hidden)"' (at least 21 bytes)`);
    const long = answerExcerpt(`\x1b]0;x\x07${'a'.repeat(500)}`, 507, true);
    expect(long).not.toMatch(/[\x00-\x1f]/);
    expect(long.length).toBeLessThan(90);
  });

  it('an error envelope cut at the error-body limit still gives its code and message', () => {
    const error = serviceErrorFromBody('list keys', 400, `{"code":700004,"msg":"Mandatory parameter ${'x'.repeat(100)}`);
    expect(error).toMatchObject({ code: 700004 });
    expect(error.serviceMessage).toMatch(/^Mandatory parameter x+$/);
  });
});

describe('times the service can take', () => {
  const now = Date.UTC(2026, 0, 1);
  it.each(['1970-01-01T00:00+14:00', '1970-01-01T00:00:00.000+00:01', '1969-12-31', '1969-12-31T23:59Z', '1970-01-01 05:00 +06:00'])('%s is before the epoch: refused', (text) => {
    const parsed = parseTime(text, now);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(/before 1970|year before 1970/);
  });

  it('the epoch itself and after are taken', () => {
    expect(parseTime('1970-01-01T00:00Z', now)).toEqual({ ok: true, ms: 0 });
    expect(parseTime('1970-01-01T00:00-01:00', now)).toEqual({ ok: true, ms: 3_600_000 });
  });

  it('an end before the start is refused; equal is fine', () => {
    const base = { fromAccountType: 'SPOT', toAccountType: 'FUTURE' };
    const bad = validateTransferQuery({ ...base, start: '2026-01-02T00:00Z', end: '2026-01-01T00:00Z' }, now);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.field)).toEqual(['endTime']);
    expect(validateTransferQuery({ ...base, start: '2026-01-01T00:00Z', end: '2026-01-01T00:00Z' }, now).ok).toBe(true);
  });
});
