import { describe, expect, test } from 'vitest';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import type { WireTransfer } from '../../src/sandbox/model';
import { seededSubAccountNames } from '../../src/sandbox/seedAccounts';
import { forgetDrawnHistories, formatUnits, seedTransfers } from '../../src/sandbox/seedTransfers';
import { createState } from '../../src/sandbox/state';
import { listKeys, listTransfers, ownSandbox } from './helpers';

const DAY = 86_400_000;
const ANCHOR = Date.UTC(2025, 5, 1);

const allTransfers = (seed: number): WireTransfer[] => {
  const { transfers } = createState(seed, ANCHOR);
  return Array.from({ length: transfers.count }, (_, i) => transfers.at(i));
};

describe('seeded data', () => {
  test('the same seed gives the same accounts, keys, credentials and transfers', () => {
    const a = createState(1, ANCHOR);
    const b = createState(1, ANCHOR);
    expect([...a.subAccounts.entries()]).toEqual([...b.subAccounts.entries()]);
    expect(a.master).toEqual(b.master);
    expect(allTransfers(1)).toEqual(allTransfers(1));
  });

  test("a seed's names alone are its sandbox's sub-accounts, in order, whatever the anchor (the demo draws them before its sandbox starts)", async () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      expect(seededSubAccountNames(seed)).toEqual([...createState(seed, ANCHOR + seed * DAY).subAccounts.keys()]);
    }
    const sandbox = await ownSandbox({ seed: 1 });
    try {
      expect(seededSubAccountNames(1)).toEqual(sandbox.subAccounts);
    } finally {
      await sandbox.close();
    }
  });

  test('a history kept from an earlier sandbox of the seed is the one a fresh draw gives, laid out from its own anchor', () => {
    const names = ['desk1', 'desk2', 'desk3'];
    forgetDrawnHistories();
    const fresh = seedTransfers(5, ANCHOR, 'master', names, 3_000);
    const kept = seedTransfers(5, ANCHOR + DAY, 'master', names, 3_000);
    forgetDrawnHistories();
    const again = seedTransfers(5, ANCHOR + DAY, 'master', names, 3_000);
    const records = (table: typeof kept, shift = 0) => Array.from({ length: 3_000 }, (_, i) => ({ ...table.at(i), timestamp: table.at(i).timestamp + shift }));
    expect(records(kept)).toEqual(records(fresh, DAY));
    expect(records(kept)).toEqual(records(again));
    expect([...kept.from]).toEqual([...again.from]);
    expect([...kept.pair]).toEqual([...again.pair]);
    expect(kept.timestamps[0]).toBe(fresh.timestamps[0]! + DAY);
  });

  test('a different seed gives different data', () => {
    const a = createState(1, ANCHOR);
    const b = createState(2, ANCHOR);
    expect([...a.subAccounts.keys()]).not.toEqual([...b.subAccounts.keys()]);
    expect(a.master.apiKey).not.toBe(b.master.apiKey);
    expect(a.master.secretKey).not.toBe(b.master.secretKey);
    expect(a.transfers.at(0)).not.toEqual(b.transfers.at(0));
  });

  test('seed 1 sub-accounts: at least 10, alphanumeric 8–32 chars, 0–6 keys each', () => {
    for (const seed of [1, 2, 3, 42, 99_999]) {
      const { subAccounts, master } = createState(seed, ANCHOR);
      expect(subAccounts.size).toBeGreaterThanOrEqual(10);
      expect(master.apiKey).toMatch(/^mx0v[0-9a-z]{28}$/);
      expect(master.secretKey).toMatch(/^[0-9a-f]{64}$/);
      const counts: number[] = [];
      for (const [name, keys] of subAccounts) {
        expect(name).toMatch(/^[a-z0-9]{8,32}$/);
        counts.push(keys.length);
        expect(keys.length).toBeLessThanOrEqual(6);
        for (const key of keys) {
          expect(key.creatTime).toBeLessThan(ANCHOR);
          for (const p of key.permissions.split(',')) expect(KNOWN_PERMISSIONS as readonly string[]).toContain(p);
          expect(key.ip === '' ? 0 : key.ip.split(',').length).toBeLessThanOrEqual(4);
        }
      }
      expect(counts).toContain(0);
      expect(counts).toContain(6);
    }
  });

  test('at least 20,000 transfers over the last 120 days, newest first, unique ids, every route and type pair', () => {
    const list = allTransfers(1);
    const master = createState(1, ANCHOR).master.name;
    expect(list.length).toBeGreaterThanOrEqual(20_000);
    expect(new Set(list.map((t) => t.tranId)).size).toBe(list.length);
    // One assertion over the whole list (100,000 expect calls cost most of this test): the first out of order, if any.
    expect(list.findIndex((t, i) => i > 0 && (list[i - 1] as WireTransfer).timestamp < t.timestamp)).toBe(-1);
    expect((list[0] as WireTransfer).timestamp).toBeLessThan(ANCHOR);
    expect((list.at(-1) as WireTransfer).timestamp).toBeGreaterThan(ANCHOR - 120 * DAY);
    expect((list.at(-1) as WireTransfer).timestamp).toBeLessThan(ANCHOR - 115 * DAY);

    const routes = new Set(list.map((t) => `${t.fromAccount === master ? 'master' : 'sub'}>${t.toAccount === master ? 'master' : 'sub'}`));
    expect([...routes].sort()).toEqual(['master>master', 'master>sub', 'sub>master', 'sub>sub']);
    const pairs = new Set(list.map((t) => `${t.fromAccountType}>${t.toAccountType}`));
    expect([...pairs].sort()).toEqual(['FUTURE>FUTURE', 'FUTURE>SPOT', 'SPOT>FUTURE', 'SPOT>SPOT']);
    expect(list.filter((t) => t.fromAccount === master && t.toAccount === master && t.fromAccountType === t.toAccountType)).toEqual([]);
    expect(list.filter((t) => (t.fromAccount !== master || t.toAccount !== master) && t.fromAccount === t.toAccount)).toEqual([]);
    const masterSpotFuture = list.filter(
      (t) => t.fromAccount === master && t.toAccount === master && t.fromAccountType === 'SPOT' && t.toAccountType === 'FUTURE',
    );
    expect(masterSpotFuture.length).toBeGreaterThan(2000);
    expect(masterSpotFuture.length).toBeLessThan(6000);

    const statuses = new Map<string, number>();
    for (const t of list) statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
    expect([...statuses.keys()].sort()).toEqual(['FAILED', 'SUCCESS', 'WAIT']);
    expect((statuses.get('SUCCESS') ?? 0) / list.length).toBeGreaterThan(0.85);
    expect(new Set(list.map((t) => t.asset))).toEqual(new Set(['BTC', 'ETH', 'USDT', 'USDC', 'MX', 'SOL']));
    expect(list.filter((t) => !/^[A-Za-z0-9]{32}$/.test(t.clientTranId))).toEqual([]);
    expect(list.filter((t) => !/^(0|[1-9]\d*)(\.\d*[1-9])?$/.test(t.amount))).toEqual([]);
    const precisions = new Set(list.map((t) => (t.amount.split('.')[1] ?? '').length));
    expect(precisions.size).toBeGreaterThanOrEqual(6);
    expect(list.some((t) => t.fromSymbol !== '' || t.toSymbol !== '')).toBe(true);
  });

  test('amounts are written from whole units: formatUnits places the point and drops trailing zeros', () => {
    expect(formatUnits(123_450_000, 8)).toBe('1.2345');
    expect(formatUnits(5, 8)).toBe('0.00000005');
    expect(formatUnits(1_000, 2)).toBe('10');
    expect(formatUnits(42, 0)).toBe('42');
  });

  test('two sandboxes with the same seed and anchor answer identically over HTTP', async () => {
    const anchor = Date.now();
    const [a, b] = await Promise.all([ownSandbox({ seed: 11, dataAnchorMs: anchor }), ownSandbox({ seed: 11, dataAnchorMs: anchor })]);
    try {
      expect(a.subAccounts).toEqual(b.subAccounts);
      expect(a.apiKey).toBe(b.apiKey);
      const sub = a.subAccounts[2] as string;
      expect((await listKeys(a, sub)).text).toBe((await listKeys(b, sub)).text);
      const params = [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'SPOT'],
        ['toAccount', sub],
        ['limit', 100],
      ] as const;
      const ta = await listTransfers(a, params);
      const tb = await listTransfers(b, params);
      expect(ta.status).toBe(200);
      expect((ta.json as unknown[]).length).toBeGreaterThan(0);
      expect(ta.text).toBe(tb.text);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
