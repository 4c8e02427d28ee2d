import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Profile,
  ProfileConfigError,
  checkProfileName,
  loadProfiles,
  profilesPath,
  removeProfile,
  saveProfile,
  setDefaultProfile,
} from '../../src/credentials/profiles';

const profile = (name: string, extra: Partial<Profile> = {}): Profile => ({
  name,
  baseUrl: 'https://api.example.com',
  apiKeyHeader: 'X-MEXC-APIKEY',
  recvWindow: 5000,
  postSignature: 'auto',
  ...extra,
});

let home: string;
let folder: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bc-profiles-'));
  folder = join(home, 'config'); // does not exist yet: the first save creates it
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('profile names', () => {
  it.each(['prod', 'a', 'Prod_2.eu-west', 'x'.repeat(64)])('%s is a name', (name) => {
    expect(checkProfileName(name)).toEqual({ ok: true, value: name });
  });
  it.each(['', ' ', 'x'.repeat(65), 'with space', 'slash/no', 'ünï', 'semi;colon', '../up'])('%j is not', (name) => {
    const result = checkProfileName(name);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/profile name/);
  });
});

describe('profiles.json', () => {
  it('no file: no profiles', async () => {
    expect(await loadProfiles(folder)).toEqual({ profiles: [] });
  });

  it('the first profile becomes the default; later ones do not unless asked', async () => {
    await saveProfile(folder, profile('a'));
    await saveProfile(folder, profile('b', { baseUrl: 'http://127.0.0.1:9/prefix/', apiKeyHeader: 'X-Key', recvWindow: 60000, postSignature: 'query' }));
    let config = await loadProfiles(folder);
    expect(config.defaultProfile).toBe('a');
    expect(config.profiles.map((p) => p.name)).toEqual(['a', 'b']);
    expect(config.profiles[1]).toEqual({ name: 'b', baseUrl: 'http://127.0.0.1:9/prefix', apiKeyHeader: 'X-Key', recvWindow: 60000, postSignature: 'query' });
    await saveProfile(folder, profile('c'), { makeDefault: true });
    config = await loadProfiles(folder);
    expect(config.defaultProfile).toBe('c');
  });

  it('saving a name again replaces that profile', async () => {
    await saveProfile(folder, profile('a'));
    await saveProfile(folder, profile('a', { recvWindow: 7000 }));
    const config = await loadProfiles(folder);
    expect(config.profiles).toEqual([profile('a', { recvWindow: 7000 })]);
  });

  it('use and remove: the default follows, and removing the default clears it', async () => {
    await saveProfile(folder, profile('a'));
    await saveProfile(folder, profile('b'));
    await setDefaultProfile(folder, 'b');
    expect((await loadProfiles(folder)).defaultProfile).toBe('b');
    await expect(setDefaultProfile(folder, 'nope')).rejects.toThrow("no profile named 'nope' (profiles: a, b)");
    expect(await removeProfile(folder, 'b')).toBe(true);
    expect(await removeProfile(folder, 'b')).toBe(false);
    const config = await loadProfiles(folder);
    expect(config).toEqual({ profiles: [profile('a')] });
    expect(await removeProfile(folder, 'a')).toBe(true);
    expect(await loadProfiles(folder)).toEqual({ profiles: [] });
  });

  it('refuses to save what it would refuse to load', async () => {
    await expect(saveProfile(folder, profile('bad name'))).rejects.toThrow(/profile name/);
    await expect(saveProfile(folder, profile('a', { baseUrl: 'ftp://x' }))).rejects.toThrow(/http/);
    await expect(saveProfile(folder, profile('a', { apiKeyHeader: 'X Key' }))).rejects.toThrow(/header/);
    await expect(saveProfile(folder, profile('a', { recvWindow: 60001 }))).rejects.toThrow(/recvWindow/);
  });

  it('is readable only by the user (file 0600, folder 0700) and replaced atomically', async () => {
    await saveProfile(folder, profile('a'));
    const path = profilesPath(folder);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const before = statSync(path).ino;
    await saveProfile(folder, profile('b'));
    // A new file renamed over the old one (a reader sees the old or the new, never half), no temp file left.
    expect(statSync(path).ino).not.toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(['profiles.json']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1, defaultProfile: 'a' });
  });

  it('holds no secret-shaped field', async () => {
    await saveProfile(folder, profile('a'));
    expect(readFileSync(profilesPath(folder), 'utf8')).not.toMatch(/"(secretKey|apiKey|secret|password)"/);
  });

  it('a default naming a missing profile is no default', async () => {
    await saveProfile(folder, profile('a'));
    writeFileSync(profilesPath(folder), JSON.stringify({ defaultProfile: 'gone', profiles: [profile('a')] }));
    expect(await loadProfiles(folder)).toEqual({ profiles: [profile('a')] });
  });

  it('readOnly: absent in older files (not read-only), kept when true, written only when true', async () => {
    await saveProfile(folder, profile('a'));
    writeFileSync(
      profilesPath(folder),
      JSON.stringify({
        profiles: [
          { name: 'old', baseUrl: 'https://x.example' },
          { name: 'ro', baseUrl: 'https://x.example', readOnly: true },
          { name: 'rw', baseUrl: 'https://x.example', readOnly: false },
        ],
      }),
    );
    const loaded = (await loadProfiles(folder)).profiles;
    expect(loaded.map((p) => [p.name, p.readOnly])).toEqual([
      ['old', undefined],
      ['ro', true],
      ['rw', undefined],
    ]);
    await saveProfile(folder, { ...loaded[2]!, name: 'rw2' });
    const text = readFileSync(profilesPath(folder), 'utf8');
    expect((JSON.parse(text) as { profiles: Record<string, unknown>[] }).profiles.map((p) => p.readOnly)).toEqual([undefined, true, undefined, undefined]);
  });

  it('fills missing optional settings with the defaults', async () => {
    await saveProfile(folder, profile('a'));
    writeFileSync(profilesPath(folder), JSON.stringify({ profiles: [{ name: 'a', baseUrl: 'https://x.example' }] }));
    expect((await loadProfiles(folder)).profiles).toEqual([profile('a', { baseUrl: 'https://x.example' })]);
  });

  it.each([
    ['{not json', /is damaged \(not valid JSON/],
    ['[]', /is damaged \(\(top level\): /],
    ['{"profiles": {}}', /is damaged \(profiles: /],
    ['{"profiles": [{"name": "a b", "baseUrl": "https://x"}]}', /is damaged \(profiles\[0\]\.name: must be 1-64/],
    ['{"profiles": [{"name": "a", "baseUrl": "javascript:x"}]}', /is damaged \(profiles\[0\]\.baseUrl: must be an http\(s\) URL/],
    ['{"profiles": [{"name": "a", "baseUrl": "https://x", "recvWindow": 1.5}]}', /profiles\[0\]\.recvWindow: must be a whole number/],
    ['{"profiles": [{"name": "a", "baseUrl": "https://x"}, {"name": "a", "baseUrl": "https://y"}]}', /profile 'a' appears twice/],
    ['{"profiles": [{"name": "a", "baseUrl": "https://x", "readOnly": "yes"}]}', /profiles\[0\]\.readOnly: must be true or false/],
  ])('a damaged file (%s) is a clear error naming the file', async (text, message) => {
    await saveProfile(folder, profile('a'));
    writeFileSync(profilesPath(folder), text);
    const error = await loadProfiles(folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProfileConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(profilesPath(folder));
    expect((error as Error).message).not.toContain('\n');
    // Saving over a damaged file is refused too (it would lose the other profiles).
    await expect(saveProfile(folder, profile('b'))).rejects.toBeInstanceOf(ProfileConfigError);
  });
});
