// `profile remove` cannot half-happen: the settings are written first and the keychain
// entry is removed after, so a write that fails (a full disk) leaves the profile whole, secret included.
// The real keychain (Secret Service) where one runs, SKIPPED loudly otherwise; the full disk is a real
// 64 KiB tmpfs where it can be mounted, else an injected ENOSPC (that variant always runs).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { nodeFileSystem, replaceAtomicFileSystem } from '../../src/config/atomicFile';
import type { CommandContext } from '../../src/commands/context';
import { runProfileRemove, runProfileUse } from '../../src/commands/profile';
import { type Keychain, folderKeychain, keychainAccount, openKeychain } from '../../src/credentials/keychain';
import { loadProfiles, profilesPath, saveProfile } from '../../src/credentials/profiles';
import { testContext } from '../commands/helpers';
import { probeKeychain, uniqueProfile } from '../credentials/keychainProbe';
import { mountFullDisk } from './fullDisk';

const availability = await probeKeychain();
if (!availability.ok) console.warn(`SKIPPED keychain tests of profile remove on a full disk: ${availability.reason}`);
const tmpfs = mountFullDisk();
if (!tmpfs.ok) console.warn(`SKIPPED full-tmpfs variant of profile remove: ${tmpfs.reason} (the injected ENOSPC variant runs)`);
const disk = tmpfs.ok ? tmpfs.disk : undefined;

const home = mkdtempSync(join(tmpdir(), 'bc-profile-remove-'));
const used: string[] = [];
afterEach(async () => {
  disk?.free();
  if (!availability.ok) return;
  const keychain = await openKeychain();
  for (const n of used.splice(0)) await keychain.remove(n).catch(() => false);
});
afterAll(() => {
  disk?.unmount();
  rmSync(home, { recursive: true, force: true });
});

const noTemps = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

function enospcOnWrite() {
  return replaceAtomicFileSystem({
    ...nodeFileSystem,
    async open(path, flags, mode) {
      const real = await nodeFileSystem.open(path, flags, mode);
      return {
        writeFile: async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
        chmod: (m) => real.chmod(m),
        sync: () => real.sync(),
        close: () => real.close(),
      };
    },
  });
}

async function profileIn(folder: string, keychain: Keychain): Promise<string> {
  const name = uniqueProfile('full');
  used.push(keychainAccount(name, folder));
  await saveProfile(folder, { name, baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
  await saveProfile(folder, { name: `${name}-other`, baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
  await folderKeychain(keychain, folder).set(name, { apiKey: 'mx0vfull', secretKey: 'full-disk-secret' });
  return name;
}

function ctxIn(folder: string, keychain?: () => Promise<Keychain>): ReturnType<typeof testContext> {
  const overrides: Partial<CommandContext> = { env: {}, configFolder: folder };
  if (keychain) overrides.keychain = keychain;
  return testContext(undefined, overrides);
}

/** A keychain that only records what is asked of it (for the order of calls, where no real one runs). */
function recordingKeychain(calls: string[]): Keychain {
  const entries = new Map<string, { apiKey: string; secretKey: string }>();
  return {
    get: async (p) => (calls.push(`get ${p}`), entries.get(p)),
    set: async (p, c) => void (calls.push(`set ${p}`), entries.set(p, c)),
    remove: async (p) => (calls.push(`remove ${p}`), entries.delete(p)),
  };
}

describe('profile use when the settings cannot be written', () => {
  it('injected ENOSPC: exit 1, the file named, the reason in words, and the default said unchanged', async () => {
    const folder = mkdtempSync(join(home, 'use-'));
    const name = await profileIn(folder, recordingKeychain([]));
    const before = readFileSync(profilesPath(folder), 'utf8');
    const restore = enospcOnWrite();
    const t = ctxIn(folder);
    let code: number;
    try {
      code = await runProfileUse(`${name}-other`, t.ctx);
    } finally {
      restore();
    }
    expect(code).toBe(1);
    expect(t.err.text()).toBe(
      `error: the default could not be saved to ${profilesPath(folder)}: no space left on device\nnothing was changed: the default is still ${name}\n`,
    );
    expect(readFileSync(profilesPath(folder), 'utf8')).toBe(before);
  });
});

describe('profile remove when the settings cannot be written', () => {
  it('injected ENOSPC: exit 1, two lines, the keychain is never asked to remove, settings unchanged, no .tmp', async () => {
    const folder = mkdtempSync(join(home, 'inj-'));
    const calls: string[] = [];
    const keychain = recordingKeychain(calls);
    const name = await profileIn(folder, keychain);
    const before = readFileSync(profilesPath(folder), 'utf8');
    const restore = enospcOnWrite();
    const t = ctxIn(folder, async () => keychain);
    let code: number;
    try {
      code = await runProfileRemove(name, t.ctx);
    } finally {
      restore();
    }
    expect(code).toBe(1);
    expect(t.err.text()).toBe(
      `error: the profile could not be removed from ${profilesPath(folder)}: no space left on device\nnothing was changed: profile ${name} and its keychain entry are as they were\n`,
    );
    expect(t.out.text()).toBe('');
    expect(calls.filter((c) => c.startsWith('remove'))).toEqual([]);
    expect(await folderKeychain(keychain, folder).get(name)).toEqual({ apiKey: 'mx0vfull', secretKey: 'full-disk-secret' });
    expect(readFileSync(profilesPath(folder), 'utf8')).toBe(before);
    expect(noTemps(folder)).toEqual([]);
    // With room again, it removes both, settings first.
    calls.length = 0;
    const again = ctxIn(folder, async () => keychain);
    expect(await runProfileRemove(name, again.ctx)).toBe(0);
    expect(again.out.text()).toBe(`removed profile ${name} (settings and keychain entry)\n`);
    expect(calls).toEqual([`remove ${keychainAccount(name, folder)}`]);
    expect((await loadProfiles(folder)).profiles.map((p) => p.name)).toEqual([`${name}-other`]);
  });

  it.skipIf(!availability.ok)('injected ENOSPC with the real keychain: the secret is still there afterwards', async () => {
    const folder = mkdtempSync(join(home, 'inj-real-'));
    const keychain = await openKeychain();
    const name = await profileIn(folder, keychain);
    const restore = enospcOnWrite();
    const t = ctxIn(folder);
    try {
      expect(await runProfileRemove(name, t.ctx)).toBe(1);
    } finally {
      restore();
    }
    expect((await folderKeychain(keychain, folder).get(name))?.secretKey).toBe('full-disk-secret');
    expect((await loadProfiles(folder)).profiles.map((p) => p.name)).toContain(name);
    expect(noTemps(folder)).toEqual([]);
  });

  it.skipIf(!availability.ok || !disk)('a really full tmpfs with the real keychain: exit 1, profile and secret kept, no .tmp; then removable', async () => {
    const folder = join(disk!.dir, 'config');
    const keychain = await openKeychain();
    const name = await profileIn(folder, keychain);
    const before = readFileSync(profilesPath(folder), 'utf8');
    disk!.fill();
    const t = ctxIn(folder);
    expect(await runProfileRemove(name, t.ctx)).toBe(1);
    expect(t.err.text()).toMatch(/^error: the profile could not be removed from \S+profiles\.json: no space left on device\nnothing was changed: /);
    expect((await folderKeychain(keychain, folder).get(name))?.secretKey).toBe('full-disk-secret');
    expect(readFileSync(profilesPath(folder), 'utf8')).toBe(before);
    expect(noTemps(folder)).toEqual([]);
    disk!.free();
    const again = ctxIn(folder);
    expect(await runProfileRemove(name, again.ctx)).toBe(0);
    expect(await folderKeychain(keychain, folder).get(name)).toBeUndefined();
    expect(noTemps(folder)).toEqual([]);
  });
});
