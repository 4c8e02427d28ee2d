import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DISCOVERED_FILE_BYTES,
  DISCOVERED_LIMIT,
  DISCOVERED_NAME_BYTES,
  DISCOVERED_TARGETS,
  mergeDiscovered,
  openDiscoveredSubAccounts,
} from '../../src/config/discoveredSubAccounts';

describe('discovered sub-accounts in the config folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'bc-discovered-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('two consoles on one folder: names one found are not lost when the other notes its own', async () => {
    const first = await openDiscoveredSubAccounts(folder, 'demo');
    const second = await openDiscoveredSubAccounts(folder, 'demo');
    await first.note([{ name: 'custody64', lastTransferTime: 1000 }]);
    await second.note([{ name: 'delta043', lastTransferTime: 2000 }]);
    await first.note([{ name: 'otcdesk82', lastTransferTime: 3000 }]);
    expect((await openDiscoveredSubAccounts(folder, 'demo')).list().map((d) => d.name)).toEqual(['otcdesk82', 'delta043', 'custody64']);
  });

  it('remembers per base URL, the later time per name, most recently active first, across restarts', async () => {
    const live = await openDiscoveredSubAccounts(folder, 'https://api.example.com');
    expect(live.list()).toEqual([]);
    expect(live.scannedAt()).toBeUndefined();
    await live.note([
      { name: 'alpha01', lastTransferTime: 100 },
      { name: 'beta02', lastTransferTime: 300 },
    ]);
    await live.note(
      [
        { name: 'alpha01', lastTransferTime: 500 },
        { name: 'beta02', lastTransferTime: 200 },
      ],
      1000,
    );
    expect(live.list()).toEqual([
      { name: 'alpha01', lastTransferTime: 500 },
      { name: 'beta02', lastTransferTime: 300 },
    ]);
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
    await store.note([
      { name: 'alpha01', lastTransferTime: 400 },
      { name: 'alpha01', lastTransferTime: 500 },
    ]);
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

  it('keeps only names a typed sub-account name could be, and bounds them in count, bytes and targets', async () => {
    const store = await openDiscoveredSubAccounts(folder, 'https://api.example.com');
    const hostile = ['', ' ', 'two words', 'esc\u001b[31m', 'line\nbreak', 'x'.repeat(65), ' padded ', 'nul\u0000'];
    await store.note([...hostile.map((name, i) => ({ name, lastTransferTime: 1000 + i })), { name: 'good0001', lastTransferTime: 1 }]);
    expect(store.list()).toEqual([{ name: 'good0001', lastTransferTime: 1 }]);
    // 64 KiB of names at most: 2,000 names of 64 characters would be 128 KiB.
    const long = Array.from({ length: DISCOVERED_LIMIT }, (_, i) => ({ name: `${String(i).padStart(4, '0')}${'n'.repeat(60)}`, lastTransferTime: 5000 - i }));
    await store.note(long);
    const kept = store.list();
    expect(kept.reduce((sum, e) => sum + Buffer.byteLength(e.name), 0)).toBeLessThanOrEqual(DISCOVERED_NAME_BYTES);
    expect(kept[0]!.name).toBe(long[0]!.name);
    expect(kept.length).toBe(DISCOVERED_NAME_BYTES / 64);
    // At most DISCOVERED_TARGETS base URLs: the least recently active go.
    for (let t = 0; t < DISCOVERED_TARGETS + 3; t += 1)
      await (await openDiscoveredSubAccounts(folder, `https://t${t}.example`)).note([{ name: `sub${t}aaaa`, lastTransferTime: t }]);
    const file = JSON.parse(readFileSync(join(folder, 'discovered-sub-accounts.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(file)).toHaveLength(DISCOVERED_TARGETS);
    expect(file['https://api.example.com']).toBeDefined();
  });

  it('a hostile file: invalid names are dropped on reading, and a file over the bound is not read at all', async () => {
    const path = join(folder, 'discovered-sub-accounts.json');
    writeFileSync(
      path,
      JSON.stringify({
        demo: {
          subAccounts: [
            { name: 'bad\u001b]0;x\u0007', lastTransferTime: 2 },
            { name: 'fine0001', lastTransferTime: 1 },
          ],
        },
      }),
    );
    expect((await openDiscoveredSubAccounts(folder, 'demo')).list()).toEqual([{ name: 'fine0001', lastTransferTime: 1 }]);
    const many = Array.from({ length: 60_000 }, (_, i) => ({ name: `name${i}`.padEnd(30, 'x'), lastTransferTime: i }));
    writeFileSync(path, JSON.stringify({ demo: { subAccounts: many } }));
    expect(statSync(path).size).toBeGreaterThan(DISCOVERED_FILE_BYTES);
    const store = await openDiscoveredSubAccounts(folder, 'demo');
    expect(store.list()).toEqual([]);
    await store.note([{ name: 'fresh001', lastTransferTime: 9 }]);
    expect(statSync(path).size).toBeLessThan(1000);
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
        // The other order, and all at once: the same names and times.
        const times = (list: readonly { name: string; lastTransferTime: number }[]) => list.map((e) => `${e.name}@${e.lastTransferTime}`).sort();
        expect(times(mergeDiscovered(mergeDiscovered([], second), first))).toEqual(times(merged));
        expect(times(mergeDiscovered([], [...second, ...first].reverse()))).toEqual(times(merged));
      }),
    );
  });
});
