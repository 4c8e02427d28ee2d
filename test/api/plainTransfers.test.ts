// The transfer history's quick reading (plainTransferList) gives exactly the schema's output whenever it gives
// any, and gives one for the shape the service and the sandbox send; anything odd goes to the schema.
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { WireTransferList, plainTransferList } from '../../src/api/schemas';
import { fetchAllTransfers } from '../commands/helpers';
import { ownSandbox } from '../sandbox/helpers';

const FIELDS = [
  'tranId',
  'fromAccount',
  'toAccount',
  'clientTranId',
  'asset',
  'amount',
  'fromAccountType',
  'toAccountType',
  'fromSymbol',
  'toSymbol',
  'fromsymbol',
  'tosymbol',
  'status',
  'timestamp',
] as const;

// What a field may hold: the usual values and every odd one the schema tolerates or refuses.
const fieldValue = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 2, arbitrary: fc.constantFrom(null, undefined) },
  { weight: 2, arbitrary: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 2e12 }), fc.double(), fc.constantFrom(1.5, -0, 2 ** 53, 1e21)) },
  { weight: 1, arbitrary: fc.constantFrom('1763726400000', '12a', '', true, [], {}, ['x']) },
);

const usual = fc.record({
  tranId: fc.string({ maxLength: 8 }),
  fromAccount: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  toAccount: fc.string({ maxLength: 8 }),
  clientTranId: fc.constantFrom('', 'c-1', null),
  asset: fc.constantFrom('USDT', 'BTC', '漢'),
  amount: fc.constantFrom('1.5', '0.10', '-3', ''),
  fromAccountType: fc.constant('SPOT'),
  toAccountType: fc.constant('FUTURE'),
  fromSymbol: fc.constant(''),
  toSymbol: fc.constant(''),
  status: fc.constantFrom('SUCCESS', 'FAILED'),
  timestamp: fc.integer({ min: 0, max: 2e12 }),
});

/** A record with any of its fields replaced, left out, or joined by one the schema does not know. */
const anyRecord = fc
  .tuple(usual, fc.dictionary(fc.constantFrom(...FIELDS, 'extra'), fieldValue, { maxKeys: 3 }), fc.subarray([...FIELDS], { maxLength: 2 }))
  .map(([base, changed, dropped]) => {
    const record: Record<string, unknown> = { ...base, ...changed };
    for (const key of dropped) delete record[key];
    return record;
  });

describe('the symbols as the field table spells them', () => {
  it('fromsymbol/tosymbol are read as fromSymbol/toSymbol; the camel-case names win when both come', () => {
    const record = {
      tranId: '1',
      fromAccount: '',
      toAccount: 'desk0001',
      asset: 'BTC',
      amount: '1',
      fromAccountType: 'SPOT',
      toAccountType: 'FUTURE',
      status: 'SUCCESS',
      timestamp: 1,
    };
    const [lower, both] = v.parse(WireTransferList, [
      { ...record, fromsymbol: '', tosymbol: 'BTCUSDT' },
      { ...record, toSymbol: 'ETHUSDT', tosymbol: 'BTCUSDT' },
    ]);
    expect(lower).toMatchObject({ fromSymbol: '', toSymbol: 'BTCUSDT' });
    expect(Object.keys(lower!)).not.toContain('tosymbol');
    expect(both).toMatchObject({ toSymbol: 'ETHUSDT' });
    expect(plainTransferList([{ ...record, tosymbol: 'BTCUSDT' }])).toBeUndefined();
  });
});

describe('plainTransferList', () => {
  it('property: when it reads a list, it is what the schema reads; when it does not, the schema still decides', () => {
    const wrong: unknown[] = [];
    let read = 0;
    fc.assert(
      fc.property(fc.oneof(fc.array(anyRecord, { maxLength: 4 }), fc.array(usual, { maxLength: 4 }), fieldValue), (value) => {
        const plain = plainTransferList(value);
        if (plain === undefined) return;
        read += 1;
        const schema = v.safeParse(WireTransferList, value);
        if (!schema.success || JSON.stringify(schema.output) !== JSON.stringify(plain)) wrong.push(value);
      }),
      { numRuns: 3000 },
    );
    expect(wrong).toEqual([]);
    // The quick reading did read most of these (not a check that never runs).
    expect(read).toBeGreaterThan(1000);
  });

  it('reads every page the sandbox sends, and refuses what only the schema should judge', async () => {
    const sandbox = await ownSandbox({ seed: 3 });
    try {
      const page = (await fetchAllTransfers(sandbox, { fromAccountType: 'SPOT', toAccountType: 'FUTURE' })).slice(0, 500) as unknown[];
      expect(page.length).toBeGreaterThan(100);
      expect(plainTransferList(page)).toEqual(v.parse(WireTransferList, page));
    } finally {
      await sandbox.close();
    }
    const base = { tranId: '1', asset: 'USDT', amount: '1', fromAccountType: 'SPOT', toAccountType: 'FUTURE', status: 'SUCCESS', timestamp: 1 };
    for (const odd of [
      { ...base, tranId: 7 },
      { ...base, timestamp: '01' },
      { ...base, timestamp: '9007199254740993' },
      { ...base, amount: 1.5 },
      { ...base, timestamp: -1 },
      { ...base, timestamp: 1.5 },
      { ...base, asset: null },
      { ...base, toSymbol: 3 },
    ]) {
      expect(plainTransferList([odd]), JSON.stringify(odd)).toBeUndefined();
    }
    expect(plainTransferList({ code: 0, data: [] })).toBeUndefined();
    // Quoted times (the client quotes them before parsing) and the {"result":[…]} shape are read quickly, as the schema reads them.
    for (const answer of [[{ ...base, timestamp: '1763726400000' }], { result: [{ ...base, timestamp: '0' }], totalCount: 1 }]) {
      expect(plainTransferList(answer), JSON.stringify(answer)).toEqual(v.parse(WireTransferList, answer));
      expect(plainTransferList(answer)?.[0]?.timestamp).toBeTypeOf('number');
    }
  });
});
