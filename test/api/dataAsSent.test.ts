// Data as sent (docs/data-as-sent.md): amounts as the service wrote them, what the totals may add, and times the service can take.
import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECIMAL_TEXT, decimalForBig, isDecimalAmount } from '../../src/api/decimal';
import { answerExcerpt, quoteNumbers, readSuccess, serviceErrorFromBody } from '../../src/api/answers';
import { toSubAccountKey, toTransfer } from '../../src/api/operations';
import { WireCreatedKey, WireKeyList, WireTransferList, plainTransferList } from '../../src/api/schemas';
import { DATE_RANGE_MS, isoTime, serviceTimeFromText, timeOrder } from '../../src/api/serviceTime';
import { formatLocalTime, parseTime } from '../../src/api/timeInput';
import { ageInDays } from '../../src/audit/keyAudit';
import { localDay } from '../../src/export/summary';
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
  it.each(['1970-01-01T00:00+14:00', '1970-01-01T00:00:00.000+00:01', '1969-12-31', '1969-12-31T23:59Z', '1970-01-01 05:00 +06:00'])(
    '%s is before the epoch: refused',
    (text) => {
      const parsed = parseTime(text, now);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/before 1970|year before 1970/);
    },
  );

  it('the epoch itself and after are taken', () => {
    expect(parseTime('1970-01-01T00:00Z', now)).toEqual({ ok: true, ms: 0 });
    expect(parseTime('1970-01-01T00:00-01:00', now)).toEqual({ ok: true, ms: 3_600_000 });
  });

  it('an end before the start is refused; equal is fine', () => {
    const base = { fromAccountType: 'SPOT', toAccountType: 'FUTURE' };
    const bad = validateTransferQuery({ ...base, start: '2025-12-31T00:00Z', end: '2025-12-30T00:00Z' }, now);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.field)).toEqual(['endTime']);
    expect(validateTransferQuery({ ...base, start: '2025-12-31T00:00Z', end: '2025-12-31T00:00Z' }, now).ok).toBe(true);
  });
});

describe('ids and times beyond 2^53, as sent', () => {
  const record = (tranId: string, timestamp: string): string =>
    `{"tranId":${tranId},"asset":"USDT","amount":"1","fromAccountType":"SPOT","toAccountType":"FUTURE","status":"SUCCESS","timestamp":${timestamp}}`;
  const read = (text: string) =>
    readSuccess('list transfers', 200, quoteNumbers(text, ['amount']), WireTransferList, plainTransferList, ['tranId', 'clientTranId', 'timestamp']).map(
      toTransfer,
    );

  it('quotes only the numbers parsing could change for ids and times; every number for amounts', () => {
    const text = '[{"tranId":12,"timestamp":1763726400000,"amount":1},{"tranId":9007199254740993,"timestamp":1.5,"amount":0.10,"clientTranId":1e3}]';
    expect(quoteNumbers(text, ['amount'], ['tranId', 'clientTranId', 'timestamp'])).toBe(
      '[{"tranId":12,"timestamp":1763726400000,"amount":"1"},{"tranId":"9007199254740993","timestamp":"1.5","amount":"0.10","clientTranId":"1e3"}]',
    );
  });

  it('a numeric tranId above 2^53 keeps its digits, so two neighbours stay two', () => {
    expect(JSON.parse('9007199254740993')).toBe(9007199254740992);
    const rows = read(`[${record('9007199254740993', '1763726400000')},${record('9007199254740992', '1763726400001')}]`);
    expect(rows.map((r) => r.tranId)).toEqual(['9007199254740993', '9007199254740992']);
    expect(rows.map((r) => r.timestamp)).toEqual([1_763_726_400_000, 1_763_726_400_001]);
  });

  it('a time beyond the Date range, above 2^53 or with a fraction is kept as its text; one a Date holds is a number', () => {
    const times = ['8640000000000001', '9007199254740993', '99999999999999999999', '1763726400000.5', '1e21', '-8640000000000001'];
    const rows = read(`[${times.map((t, i) => record(String(i), t)).join(',')},${record('9', '-1')}]`);
    expect(rows.map((r) => r.timestamp)).toEqual([...times, -1]);
    expect(serviceTimeFromText('8640000000000000')).toBe(8_640_000_000_000_000);
    expect(serviceTimeFromText('01')).toBe('01');
  });

  it('shows such a time as the number that came, never throwing; orders it at the end of the Date range', () => {
    for (const time of ['99999999999999999999', '1763726400000.5', '-1e400', 8.64e15 + 2, Number.NaN]) {
      expect(() => formatLocalTime(time)).not.toThrow();
      expect(() => isoTime(time)).not.toThrow();
      expect(Number.isFinite(timeOrder(time))).toBe(true);
    }
    expect(formatLocalTime('99999999999999999999', true)).toBe('99999999999999999999');
    expect(isoTime('99999999999999999999')).toBe('99999999999999999999 (not a date)');
    expect(isoTime(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(timeOrder('99999999999999999999')).toBe(DATE_RANGE_MS);
    expect(timeOrder('-1e400')).toBe(-DATE_RANGE_MS);
    expect(localDay('99999999999999999999')).toBe('????-??-??');
    expect(ageInDays('-99999999999999999999', Date.UTC(2026, 0, 1))).toBeGreaterThan(100_000_000);
  });
});

describe('sibling shapes', () => {
  it('a listed key with createTime is read; with both spellings creatTime is taken; with neither the field is named', () => {
    const list = (text: string) => readSuccess('list keys', 200, text, WireKeyList, undefined, ['creatTime', 'createTime']).subAccount.map(toSubAccountKey);
    expect(list('{"subAccount":[{"apiKey":"k","createTime":1763726400000}]}')[0]?.createdAt).toBe(1_763_726_400_000);
    expect(list('{"subAccount":[{"apiKey":"k","creatTime":1,"createTime":2}]}')[0]?.createdAt).toBe(1);
    expect(list('{"subAccount":[{"apiKey":"k","creatTime":99999999999999999999}]}')[0]?.createdAt).toBe('99999999999999999999');
    expect(() => list('{"subAccount":[{"apiKey":"k"}]}')).toThrow(/creatTime: missing/);
  });

  it('a transfer list is read bare, as {"result":[…],"totalCount":n} or {"rows":[…],"total":n} (alone in an array too), and in the {"code":0,"data":…} envelope', () => {
    const one = '{"tranId":"7","asset":"USDT","amount":"1","fromAccountType":"SPOT","toAccountType":"FUTURE","status":"SUCCESS","timestamp":1}';
    for (const text of [
      `[${one}]`,
      `{"result":[${one}],"totalCount":1}`,
      `{"rows":[${one}],"total":1}`,
      // As a sibling's docs show it: the page object alone in an array.
      `[{"rows":[${one}],"total":1}]`,
      `[{"result":[${one}],"totalCount":1}]`,
      `{"code":0,"data":[${one}]}`,
      `{"code":"0","data":{"result":[${one}],"totalCount":1}}`,
    ]) {
      expect(
        readSuccess('list transfers', 200, text, WireTransferList, plainTransferList).map((t) => t.tranId),
        text,
      ).toEqual(['7']);
    }
  });

  it('a UTF-8 byte order mark before the answer is ignored, on a success and on an error', () => {
    const created = readSuccess('create key', 200, '\ufeff{"apiKey":"k","secretKey":"s","creatTime":"99999999999999999999"}', WireCreatedKey);
    expect(created).toMatchObject({ secretKey: 's', creatTime: '99999999999999999999' });
    expect(serviceErrorFromBody('list keys', 400, '\ufeff{"code":700002,"msg":"bad signature"}')).toMatchObject({
      code: 700002,
      serviceMessage: 'bad signature',
    });
  });
});
