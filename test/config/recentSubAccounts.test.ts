import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECENT_LIMIT, openRecentSubAccounts } from '../../src/config/recentSubAccounts';

describe('recent sub-accounts in the config folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'bc-recent-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('remembers names per base URL, most recent first, without repeats, across restarts', async () => {
    const live = await openRecentSubAccounts(folder, 'https://api.example.com');
    await live.remember('alpha01');
    await live.remember('beta02');
    await live.remember('alpha01');
    expect(live.list()).toEqual(['alpha01', 'beta02']);
    const demo = await openRecentSubAccounts(folder, 'demo');
    expect(demo.list()).toEqual([]);
    await demo.remember('gamma03');

    const reopened = await openRecentSubAccounts(folder, 'https://api.example.com');
    expect(reopened.list()).toEqual(['alpha01', 'beta02']);
    expect((await openRecentSubAccounts(folder, 'demo')).list()).toEqual(['gamma03']);
  });

  it('two consoles on one folder: a name one remembers is not lost when the other remembers its own', async () => {
    const first = await openRecentSubAccounts(folder, 'demo');
    const second = await openRecentSubAccounts(folder, 'demo');
    await first.remember('custody64');
    await second.remember('delta043');
    await first.remember('otcdesk82');
    expect((await openRecentSubAccounts(folder, 'demo')).list()).toEqual(['otcdesk82', 'delta043', 'custody64']);
    // Each at once, several times: every name is kept.
    await Promise.all(['a1', 'b2', 'c3'].map((name, i) => (i % 2 === 0 ? first : second).remember(name)));
    expect(new Set((await openRecentSubAccounts(folder, 'demo')).list())).toEqual(new Set(['a1', 'b2', 'c3', 'otcdesk82', 'delta043', 'custody64']));
  });

  it('writes a file only the user can read, and keeps at most the limit', async () => {
    const recent = await openRecentSubAccounts(folder, 'demo');
    for (let i = 0; i < RECENT_LIMIT + 5; i++) await recent.remember(`sub${i}`);
    expect(recent.list()).toHaveLength(RECENT_LIMIT);
    expect(recent.list()[0]).toBe(`sub${RECENT_LIMIT + 4}`);
    const path = join(folder, 'recent-sub-accounts.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).demo).toHaveLength(RECENT_LIMIT);
  });

  it('treats a damaged file as empty instead of failing the console, keeping its text beside it as .damaged', async () => {
    const damaged = '{"https://api.example.com": ["keepme1", "keepme2"';
    writeFileSync(join(folder, 'recent-sub-accounts.json'), damaged);
    const recent = await openRecentSubAccounts(folder, 'demo');
    expect(recent.list()).toEqual([]);
    await recent.remember('alpha01');
    expect((await openRecentSubAccounts(folder, 'demo')).list()).toEqual(['alpha01']);
    // What the damaged file held is not lost with the rewrite.
    expect(readFileSync(join(folder, 'recent-sub-accounts.json.damaged'), 'utf8')).toBe(damaged);
    expect(statSync(join(folder, 'recent-sub-accounts.json.damaged')).mode & 0o777).toBe(0o600);
  });
});
