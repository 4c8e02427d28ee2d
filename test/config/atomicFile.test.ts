// Config writes that cannot half-happen: a write is whole or absent, fsynced, and leaves
// no temporary file behind when it fails, on a really full tmpfs and with injected failures at every step.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AtomicFileHandle, type AtomicFileSystem, TEMP_FILE, nodeFileSystem, replaceAtomicFileSystem, writeFileAtomic } from '../../src/config/atomicFile';
import { loadProfiles, profilesPath, saveProfile } from '../../src/credentials/profiles';
import { mountFullDisk } from './fullDisk';

const home = mkdtempSync(join(tmpdir(), 'bc-atomic-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const temps = (dir: string): string[] => readdirSync(dir).filter((name) => TEMP_FILE.test(name) || name.endsWith('.tmp'));

function enospc(call: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${call}`), { code: 'ENOSPC', errno: -28, syscall: call });
}

type Step = 'none' | 'write' | 'chmod' | 'sync' | 'close' | 'rename';

/** The real file system, except that `step` fails with ENOSPC; records the calls made. */
function failingAt(step: Step, calls: string[]): AtomicFileSystem {
  return {
    ...nodeFileSystem,
    async open(path, flags, mode) {
      const real = await nodeFileSystem.open(path, flags, mode);
      calls.push('open');
      const handle: AtomicFileHandle = {
        async writeFile(data, encoding) {
          calls.push('write');
          if (step === 'write') {
            await real.writeFile(data.slice(0, 3), encoding); // a partial write, as a full disk leaves
            throw enospc('write');
          }
          return real.writeFile(data, encoding);
        },
        async chmod(m) {
          calls.push('chmod');
          if (step === 'chmod') throw enospc('fchmod');
          return real.chmod(m);
        },
        async sync() {
          calls.push('sync');
          if (step === 'sync') throw enospc('fsync');
          return real.sync();
        },
        async close() {
          calls.push('close');
          await real.close();
          if (step === 'close') throw enospc('close');
        },
      };
      return handle;
    },
    async rename(from, to) {
      calls.push('rename');
      if (step === 'rename') throw enospc('rename');
      return nodeFileSystem.rename(from, to);
    },
    async unlink(path) {
      calls.push('unlink');
      return nodeFileSystem.unlink(path);
    },
    async syncFolder(path) {
      calls.push('syncFolder');
      return nodeFileSystem.syncFolder(path);
    },
  };
}

describe('writeFileAtomic', () => {
  it('writes, fsyncs the file then the folder, and leaves the target 0600 with no temporary file', async () => {
    const dir = mkdtempSync(join(home, 'ok-'));
    const calls: string[] = [];
    const target = join(dir, 'nested', 'settings.json');
    await writeFileAtomic(target, '{"a":1}\n', failingAt('none', calls));
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(calls).toEqual(['open', 'write', 'chmod', 'sync', 'close', 'rename', 'syncFolder']);
    expect(temps(join(dir, 'nested'))).toEqual([]);
  });

  it.each(['write', 'chmod', 'sync', 'close', 'rename'] as const)(
    'ENOSPC at %s (injected): the error comes through, the old file is untouched, the temporary file is gone',
    async (step) => {
      const dir = mkdtempSync(join(home, `${step}-`));
      const target = join(dir, 'settings.json');
      writeFileSync(target, 'old\n', { mode: 0o600 });
      const calls: string[] = [];
      await expect(writeFileAtomic(target, 'new content\n', failingAt(step, calls))).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(readFileSync(target, 'utf8')).toBe('old\n');
      expect(temps(dir)).toEqual([]);
      expect(calls).toContain('unlink');
      expect(calls).toContain('close'); // the descriptor is never leaked
      expect(calls).not.toContain('syncFolder');
    },
  );

  it('a profile file that is a symbolic link (a dotfiles setup): the link stays, its target gets the new profiles', async () => {
    const dir = mkdtempSync(join(home, 'linked-'));
    const dotfiles = join(dir, 'dotfiles');
    const folder = join(dir, 'config');
    mkdirSync(dotfiles);
    mkdirSync(folder);
    await saveProfile(dotfiles, { name: 'd1', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    symlinkSync(join(dotfiles, 'profiles.json'), profilesPath(folder));
    await saveProfile(folder, { name: 'd2', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    expect(lstatSync(profilesPath(folder)).isSymbolicLink()).toBe(true);
    expect((await loadProfiles(dotfiles)).profiles.map((p) => p.name)).toEqual(['d1', 'd2']);
    expect(statSync(join(dotfiles, 'profiles.json')).mode & 0o777).toBe(0o600);
    expect(temps(folder)).toEqual([]);
    expect(temps(dotfiles)).toEqual([]);
  });

  it('replaceAtomicFileSystem reaches every writer (profiles, recent sub-accounts) until restored', async () => {
    const dir = mkdtempSync(join(home, 'replace-'));
    const calls: string[] = [];
    const restore = replaceAtomicFileSystem(failingAt('sync', calls));
    try {
      await expect(writeFileAtomic(join(dir, 'x.json'), 'x')).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      restore();
    }
    await writeFileAtomic(join(dir, 'x.json'), 'x');
    expect(readFileSync(join(dir, 'x.json'), 'utf8')).toBe('x');
    expect(temps(dir)).toEqual([]);
  });
});

const tmpfs = mountFullDisk();
if (!tmpfs.ok) console.warn(`SKIPPED full-tmpfs tests: ${tmpfs.reason} (the injected ENOSPC tests above still run)`);
// At the file's level: a filter that skips the describe would skip its own afterAll, and leave the mount.
afterAll(() => {
  if (tmpfs.ok) tmpfs.disk.unmount();
});

describe.skipIf(!tmpfs.ok)('writeFileAtomic on a really full file system (64 KiB tmpfs)', () => {
  const disk = tmpfs.ok ? tmpfs.disk : undefined;
  afterEach(() => disk?.free());

  it('a full tmpfs: ENOSPC, the old file whole, no temporary file; with room again the write succeeds', async () => {
    const target = join(disk!.dir, 'settings.json');
    writeFileSync(target, 'old\n', { mode: 0o600 });
    disk!.fill();
    await expect(writeFileAtomic(target, `${'y'.repeat(8192)}\n`)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(temps(disk!.dir)).toEqual([]);
    disk!.free();
    await writeFileAtomic(target, 'new\n');
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(temps(disk!.dir)).toEqual([]);
  });
});
