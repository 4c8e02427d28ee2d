import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeDiscovered, openDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';

describe('discovered sub-accounts in the config folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'bc-discovered-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('remembers per base URL, the later time per name, most recently active first, across restarts', async () => {
    const live = await openDiscoveredSubAccounts(folder, 'https://api.example.com');
    expect(live.list()).toEqual([]);
    expect(live.scannedAt()).toBeUndefined();
    await live.note([{ name: 'alpha01', lastTransferTime: 100 }, { name: 'beta02', lastTransferTime: 300 }]);
    await live.note([{ name: 'alpha01', lastTransferTime: 500 }, { name: 'beta02', lastTransferTime: 200 }], 1000);
    expect(live.list()).toEqual([{ name: 'alpha01', lastTransferTime: 500 }, { name: 'beta02', lastTransferTime: 300 }]);
    await (await openDiscoveredSubAccounts(folder, 'demo')).note([{ name: 'gamma03', lastTransferTime: 1 }]);

    const reopened = await openDiscoveredSubAccounts(folder, 'https://api.example.com');
    expect(reopened.list().map((e) => e.name)).toEqual(['alpha01', 'beta02']);
    expect(reopened.scannedAt()).toBe(1000);
    expect((await openDiscoveredSubAccounts(folder, 'demo')).list()).toEqual([{ name: 'gamma03', lastTransferTime: 1 }]);
    expect(statSync(join(folder, 'discovered-sub-accounts.json')).mode & 0o777).toBe(0o600);
  });

  it('writes only when a sighting teaches something new (each browsed page notes its names)', async () => {
    const store = await openDiscoveredSubAccounts(folder, 'demo');
    const path = join(folder, 'discovered-sub-accounts.json');
    await store.note([{ name: 'alpha01', lastTransferTime: 500 }]);
    rmSync(path);
    await store.note([{ name: 'alpha01', lastTransferTime: 400 }, { name: 'alpha01', lastTransferTime: 500 }]);
    expect(existsSync(path)).toBe(false);
    await store.note([{ name: 'alpha01', lastTransferTime: 600 }]);
    expect(existsSync(path)).toBe(true);
  });

  it('treats a damaged file as empty', async () => {
    writeFileSync(join(folder, 'discovered-sub-accounts.json'), '{"demo": {"subAccounts": [{"name": 3}]}}');
    expect((await openDiscoveredSubAccounts(folder, 'demo')).list()).toEqual([]);
    writeFileSync(join(folder, 'discovered-sub-accounts.json'), '{not json');
    expect((await openDiscoveredSubAccounts(folder, 'demo')).list()).toEqual([]);
  });

  it('merging keeps each name once with its latest time, whatever the order of the sightings', () => {
    const sighting = fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), lastTransferTime: fc.integer({ min: 0, max: 50 }) });
    fc.assert(
      fc.property(fc.array(sighting), fc.array(sighting), (first, second) => {
        const merged = mergeDiscovered(mergeDiscovered([], first), second);
        const all = [...first, ...second];
        expect(merged.map((e) => e.name).sort()).toEqual([...new Set(all.map((e) => e.name))].sort());
        for (const e of merged) expect(e.lastTransferTime).toBe(Math.max(...all.filter((s) => s.name === e.name).map((s) => s.lastTransferTime)));
        for (let i = 1; i < merged.length; i++) expect(merged[i - 1]!.lastTransferTime).toBeGreaterThanOrEqual(merged[i]!.lastTransferTime);
      }),
    );
  });
});
