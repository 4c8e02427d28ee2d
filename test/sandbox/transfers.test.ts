import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { QueryParams } from '../../src/api/signing';
import type { RunningSandbox } from '../../src/sandbox/types';
import { errorCode, listTransfers, rows, type WireTransferRow, ownSandbox } from './helpers';

const DAY = 86_400_000;
const SPOT_FUTURE: QueryParams = [
  ['fromAccountType', 'SPOT'],
  ['toAccountType', 'FUTURE'],
];

let sb: RunningSandbox;
let masterSpotFuture: WireTransferRow[];
beforeAll(async () => {
  sb = await ownSandbox({ seed: 1, rateLimit: { max: 10_000, windowMs: 1000 } });
  masterSpotFuture = [];
  for (let page = 1; ; page++) {
    const res = await listTransfers(sb, [...SPOT_FUTURE, ['page', page]]);
    expect(res.status).toBe(200);
    const got = rows(res);
    masterSpotFuture.push(...got);
    if (got.length < 500) break;
  }
});
afterAll(async () => {
  await sb.close();
});

const isNewestFirst = (list: readonly WireTransferRow[]): boolean => list.every((t, i) => i === 0 || (list[i - 1] as WireTransferRow).timestamp >= t.timestamp);

describe('universal transfer history', () => {
  test('records have exactly the wire fields, amounts as decimal strings', async () => {
    const res = await listTransfers(sb, [...SPOT_FUTURE, ['limit', 50]]);
    expect(res.status).toBe(200);
    const list = rows(res);
    expect(list).toHaveLength(50);
    for (const t of list) {
      expect(Object.keys(t)).toEqual([
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
        'status',
        'timestamp',
      ]);
      expect(t.tranId).toMatch(/^\d{18}$/);
      expect(t.clientTranId).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(t.amount).toMatch(/^\d+(\.\d*[1-9])?$/);
      expect(['BTC', 'ETH', 'USDT', 'USDC', 'MX', 'SOL']).toContain(t.asset);
      expect(['SUCCESS', 'FAILED', 'WAIT']).toContain(t.status);
      expect(typeof t.fromSymbol).toBe('string');
      expect(typeof t.timestamp).toBe('number');
    }
  });

  test('no accounts given means master → master; a few thousand SPOT→FUTURE over several pages, newest first', () => {
    expect(masterSpotFuture.length).toBeGreaterThan(2000);
    expect(masterSpotFuture.length % 500).not.toBe(0);
    for (const t of masterSpotFuture) {
      expect(t).toMatchObject({ fromAccount: sb.masterAccount, toAccount: sb.masterAccount, fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
    }
    expect(isNewestFirst(masterSpotFuture)).toBe(true);
    expect(new Set(masterSpotFuture.map((t) => t.tranId)).size).toBe(masterSpotFuture.length);
    const oldest = (masterSpotFuture.at(-1) as WireTransferRow).timestamp;
    const newest = (masterSpotFuture[0] as WireTransferRow).timestamp;
    expect(newest).toBeLessThanOrEqual(Date.now());
    expect(newest - oldest).toBeGreaterThan(110 * DAY);
    expect(Date.now() - oldest).toBeLessThanOrEqual(120 * DAY);
  });

  test('paging: pages are consecutive slices, the last one short, past the end empty', async () => {
    const total = masterSpotFuture.length;
    const lastPage = Math.ceil(total / 500);
    const last = rows(await listTransfers(sb, [...SPOT_FUTURE, ['page', lastPage]]));
    expect(last).toHaveLength(total % 500);
    const past = await listTransfers(sb, [...SPOT_FUTURE, ['page', lastPage + 1]]);
    expect(past.status).toBe(200);
    expect(past.json).toEqual([]);
    const p3 = rows(await listTransfers(sb, [...SPOT_FUTURE, ['page', 3], ['limit', 7]]));
    expect(p3.map((t) => t.tranId)).toEqual(masterSpotFuture.slice(14, 21).map((t) => t.tranId));
    const defaults = rows(await listTransfers(sb, SPOT_FUTURE));
    expect(defaults).toHaveLength(500);
    expect(defaults[0]).toEqual(masterSpotFuture[0]);
  });

  test('fromAccount / toAccount select the route; the omitted side is the master', async () => {
    const sub = sb.subAccounts[0] as string;
    const toSub = rows(
      await listTransfers(sb, [
        ['toAccount', sub],
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'SPOT'],
      ]),
    );
    expect(toSub.length).toBeGreaterThan(0);
    for (const t of toSub) expect(t).toMatchObject({ fromAccount: sb.masterAccount, toAccount: sub, fromAccountType: 'SPOT', toAccountType: 'SPOT' });
    const fromSub = rows(
      await listTransfers(sb, [
        ['fromAccount', sub],
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'SPOT'],
      ]),
    );
    expect(fromSub.length).toBeGreaterThan(0);
    for (const t of fromSub) expect(t).toMatchObject({ fromAccount: sub, toAccount: sb.masterAccount });
    let subToSub = 0;
    for (const other of sb.subAccounts.slice(1)) {
      const got = rows(
        await listTransfers(sb, [
          ['fromAccount', sub],
          ['toAccount', other],
          ['fromAccountType', 'SPOT'],
          ['toAccountType', 'SPOT'],
        ]),
      );
      for (const t of got) expect(t).toMatchObject({ fromAccount: sub, toAccount: other });
      subToSub += got.length;
    }
    expect(subToSub).toBeGreaterThan(0);
    const futureToSpot = rows(
      await listTransfers(sb, [
        ['fromAccountType', 'FUTURE'],
        ['toAccountType', 'SPOT'],
        ['limit', 20],
      ]),
    );
    expect(futureToSpot).toHaveLength(20);
    for (const t of futureToSpot) expect(t).toMatchObject({ fromAccountType: 'FUTURE', toAccountType: 'SPOT' });
  });

  test("FUTURES (the documented request value) and FUTURE (the answers' spelling) ask for the same records, answered as FUTURE", async () => {
    const futures = rows(
      await listTransfers(sb, [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'FUTURES'],
        ['limit', 50],
      ]),
    );
    const future = rows(
      await listTransfers(sb, [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'FUTURE'],
        ['limit', 50],
      ]),
    );
    expect(futures).toHaveLength(50);
    expect(futures).toEqual(future);
    expect(futures).toEqual(masterSpotFuture.slice(0, 50));
    for (const t of futures) expect(t.toAccountType).toBe('FUTURE');
    const back = rows(
      await listTransfers(sb, [
        ['fromAccountType', 'FUTURES'],
        ['toAccountType', 'SPOT'],
        ['limit', 20],
      ]),
    );
    expect(back).toHaveLength(20);
    expect(back).toEqual(
      rows(
        await listTransfers(sb, [
          ['fromAccountType', 'FUTURE'],
          ['toAccountType', 'SPOT'],
          ['limit', 20],
        ]),
      ),
    );
  });

  test.each([
    [
      'a bogus fromAccountType',
      [
        ['fromAccountType', 'MARGIN'],
        ['toAccountType', 'SPOT'],
      ],
      'fromAccountType',
    ],
    [
      'a bogus toAccountType',
      [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'FUTURESS'],
      ],
      'toAccountType',
    ],
    [
      'a lower-case type (the service compares as sent)',
      [
        ['fromAccountType', 'spot'],
        ['toAccountType', 'FUTURES'],
      ],
      'fromAccountType',
    ],
  ] as [string, QueryParams, string][])('%s fails loudly: 400 700004 naming it, not an empty page', async (_label, params, named) => {
    const res = await listTransfers(sb, params);
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe(700004);
    expect(JSON.stringify(res.json)).toContain(`'${named}'`);
  });

  test('transfers naming the frozen sub-account, on either side, answer 140002', async () => {
    for (const side of ['fromAccount', 'toAccount']) {
      const res = await listTransfers(sb, [[side, 'frozendesk01'], ...SPOT_FUTURE]);
      expect(res.status).toBe(400);
      expect(errorCode(res)).toBe(140002);
    }
  });

  test('unknown accounts just match nothing', async () => {
    for (const params of [
      [['fromAccount', 'nobody12345'], ...SPOT_FUTURE],
      [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'SPOT'],
      ], // master → master SPOT → SPOT does not happen
    ] as QueryParams[]) {
      const res = await listTransfers(sb, params);
      expect(res.status).toBe(200);
      expect(res.json).toEqual([]);
    }
  });

  test('startTime and endTime are inclusive', async () => {
    const a = masterSpotFuture[100] as WireTransferRow;
    const b = masterSpotFuture[40] as WireTransferRow;
    const got = rows(await listTransfers(sb, [...SPOT_FUTURE, ['startTime', a.timestamp], ['endTime', b.timestamp]]));
    const expected = masterSpotFuture.filter((t) => t.timestamp >= a.timestamp && t.timestamp <= b.timestamp);
    expect(got.map((t) => t.tranId)).toEqual(expected.map((t) => t.tranId));
    expect(got[0]?.tranId).toBe(b.tranId);
    expect(got.at(-1)?.tranId).toBe(a.tranId);
    const onlyStart = rows(await listTransfers(sb, [...SPOT_FUTURE, ['startTime', a.timestamp]]));
    expect(onlyStart).toHaveLength(101);
    const onlyEnd = rows(await listTransfers(sb, [...SPOT_FUTURE, ['endTime', b.timestamp], ['limit', 5]]));
    expect(onlyEnd[0]?.tranId).toBe(b.tranId);
  });

  test('clientTranId matches exactly', async () => {
    const target = masterSpotFuture[1234] as WireTransferRow;
    const got = rows(await listTransfers(sb, [['clientTranId', target.clientTranId], ...SPOT_FUTURE]));
    expect(got).toEqual([target]);
    const other = `${target.clientTranId.slice(0, 31)}${target.clientTranId.endsWith('Z') ? 'Y' : 'Z'}`;
    expect(await listTransfers(sb, [['clientTranId', other], ...SPOT_FUTURE]).then((r) => r.json)).toEqual([]);
  });

  test.each([
    ['missing fromAccountType', [['toAccountType', 'SPOT']]],
    ['missing toAccountType', [['fromAccountType', 'SPOT']]],
    ['short clientTranId', [['clientTranId', 'abc'], ...SPOT_FUTURE]],
    ['clientTranId with a dash', [['clientTranId', 'abcdefghij-abcdefghijabcdefghij12'], ...SPOT_FUTURE]],
    ['page 0', [...SPOT_FUTURE, ['page', 0]]],
    ['page 1.5', [...SPOT_FUTURE, ['page', '1.5']]],
    ['page abc', [...SPOT_FUTURE, ['page', 'abc']]],
    ['limit 0', [...SPOT_FUTURE, ['limit', 0]]],
    ['limit 501', [...SPOT_FUTURE, ['limit', 501]]],
    ['startTime after endTime', [...SPOT_FUTURE, ['startTime', 2000], ['endTime', 1000]]],
    ['startTime not a number', [...SPOT_FUTURE, ['startTime', 'yesterday']]],
  ] as [string, QueryParams][])('%s → 400 700004', async (_label, params) => {
    const res = await listTransfers(sb, params);
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe(700004);
  });
});
