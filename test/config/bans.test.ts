// The ban file: one end per base URL, a later end wins, an ended or unbelievable one is forgotten, a damaged
// file counts as none; and the exchange log says when a request was held back by a ban.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BANS_FILE, MAX_BAN_MS, loadBan, saveBan } from '../../src/config/bans';
import { loadClockOffset, saveClockOffset } from '../../src/config/clockOffsets';
import { loadPostSignature, savePostSignature } from '../../src/config/postSignatures';
import { exchangeLine } from '../../src/config/logFile';

let folder: string | undefined;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('bans.json', () => {
  it('keeps the latest end per base URL and forgets ended ones', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-banfile-'));
    const now = 1_800_000_000_000;
    await saveBan(folder, 'https://a.example', now + 120_000, now);
    await saveBan(folder, 'https://a.example', now + 60_000, now);
    await saveBan(folder, 'https://b.example', now + 10_000, now);
    expect(await loadBan(folder, 'https://a.example', now)).toBe(now + 120_000);
    expect(await loadBan(folder, 'https://b.example', now + 10_000)).toBeUndefined();
    expect(await loadBan(folder, 'https://c.example', now)).toBeUndefined();
    // An end beyond the longest documented ban (with a day to spare) is cut to it.
    await saveBan(folder, 'https://c.example', now + 30 * 86_400_000, now);
    expect(await loadBan(folder, 'https://c.example', now)).toBe(now + MAX_BAN_MS);
  });

  it('bans, clock offsets and signing rules saved at once for different base URLs are all kept (each change under the file lock)', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-banfile-'));
    const at = folder;
    const urls = ['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example'];
    const now = Date.now();
    await Promise.all(
      urls.flatMap((url, i) => [
        saveBan(at, url, now + 60_000 + i, now),
        saveClockOffset(at, url, 1000 + i, now),
        savePostSignature(at, url, i % 2 === 0 ? 'query' : 'body', now),
      ]),
    );
    for (const [i, url] of urls.entries()) {
      expect(await loadBan(at, url, now)).toBe(now + 60_000 + i);
      expect(await loadClockOffset(at, url)).toBe(1000 + i);
      expect(await loadPostSignature(at, url)).toBe(i % 2 === 0 ? 'query' : 'body');
    }
  });

  it('a damaged file or entry counts as none', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-banfile-'));
    await writeFile(join(folder, BANS_FILE), '{not json');
    expect(await loadBan(folder, 'https://a.example')).toBeUndefined();
    await writeFile(join(folder, BANS_FILE), JSON.stringify({ 'https://a.example': { endsAt: 'soon' }, 'https://b.example': { endsAt: Date.now() + 60_000 } }));
    expect(await loadBan(folder, 'https://a.example')).toBeUndefined();
    expect(await loadBan(folder, 'https://b.example')).toBeGreaterThan(Date.now());
    await saveBan(folder, 'https://a.example', Date.now() + 60_000);
    expect(Object.keys(JSON.parse(await readFile(join(folder, BANS_FILE), 'utf8')) as object).sort()).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('the exchange log', () => {
  it('says a request was held back by a ban, and until when', () => {
    const line = exchangeLine(
      {
        operation: 'list keys',
        method: 'GET',
        path: '/api/v3/broker/sub-account/apiKey',
        ok: false,
        latencyMs: 0,
        attempt: 1,
        banEndsAt: Date.UTC(2026, 10, 25, 16, 0),
        notSent: true,
      },
      undefined,
      new Date(Date.UTC(2026, 10, 25, 15, 0)),
    );
    expect(line).toBe(
      '2026-11-25T15:00:00.000Z op=list_keys GET /api/v3/broker/sub-account/apiKey status=none ok=false latency=0ms attempt=1 ban-ends=2026-11-25T16:00:00.000Z not-sent\n',
    );
  });
});
