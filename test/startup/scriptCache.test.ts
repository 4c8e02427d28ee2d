// The code cache is only ever a speed-up: a missing, stale, corrupt, foreign or unwritable cache costs a compile and
// never changes what the script does.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kindOfStart } from '../../src/startup/kindOfStart';
import { cacheFileFor, readCacheFile, runCachedScript, writeCacheFile } from '../../src/startup/scriptCache';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bc-script-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A script as the build writes one: a function expression the bin calls; this one returns what it computed. */
function writeScript(name: string, body = 'return [1, 2, 3].map((n) => n * 2).join(",");'): string {
  const file = join(dir, name);
  // Enough functions for V8 to have something to cache.
  const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(file, `(async function (require, __bcHost, __bcImportMetaUrl) {"use strict";\n${helpers}\nf1(f2(3));\n${body}\n})`);
  return file;
}

async function run(file: string, folder: string | undefined, variant = 'test') {
  const loaded = runCachedScript(file, folder === undefined ? undefined : cacheFileFor(file, folder, variant));
  const value = await (loaded.value as () => Promise<unknown>)();
  return { ...loaded, result: value };
}

describe('the code cache of a script', () => {
  it('is written once the code has run, then used; the script does the same either way', async () => {
    const file = writeScript('app-0123456789ab.js');
    const cache = join(dir, 'cache');
    const first = await run(file, cache);
    expect(first).toMatchObject({ status: 'miss', result: '2,4,6' });
    expect(first.save()).toBe(true);
    expect(first.save()).toBe(false); // at most once
    const [name] = readdirSync(cache);
    expect(name).toBe(`app-0123456789ab.test.${process.version}-${process.arch}.v8cache`);
    // Only the user may read it; the folder is the user's alone.
    expect(statSync(join(cache, name!)).mode & 0o777).toBe(0o600);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const second = await run(file, cache);
    expect(second).toMatchObject({ status: 'hit', result: '2,4,6' });
    expect(second.save()).toBe(false); // nothing to write
  });

  it('keeps one cache per variant (the console, each command)', async () => {
    const file = writeScript('app-0123456789ab.js');
    const cache = join(dir, 'cache');
    (await run(file, cache, 'console')).save();
    (await run(file, cache, 'keys')).save();
    expect(readdirSync(cache).sort()).toEqual([
      `app-0123456789ab.console.${process.version}-${process.arch}.v8cache`,
      `app-0123456789ab.keys.${process.version}-${process.arch}.v8cache`,
    ]);
    expect((await run(file, cache, 'keys')).status).toBe('hit');
  });

  const damages: Array<[string, (payload: Buffer, file: string) => void]> = [
    ['one bit flipped in the compiled code', (data, file) => {
      data[data.length >> 1]! ^= 0x10;
      writeFileSync(file, data);
    }],
    ['cut short', (data, file) => writeFileSync(file, data.subarray(0, data.length >> 1))],
    ['empty', (_, file) => writeFileSync(file, '')],
    ['not a cache at all', (_, file) => writeFileSync(file, 'x'.repeat(5000))],
    ['a folder', (_, file) => {
      rmSync(file);
      mkdirSync(file);
    }],
  ];
  for (const [what, damage] of damages) {
    it(`is compiled around when the cache file is ${what}, and replaced when it can be`, async () => {
      const file = writeScript('app-0123456789ab.js');
      const cache = join(dir, 'cache');
      (await run(file, cache)).save();
      const cacheFile = cacheFileFor(file, cache, 'test');
      damage(readFileSync(cacheFile), cacheFile);
      const next = await run(file, cache);
      expect(next).toMatchObject({ status: 'rejected', result: '2,4,6' });
      const saved = next.save();
      if (what === 'a folder') expect(saved).toBe(false);
      else expect((await run(file, cache)).status).toBe('hit');
    });
  }

  it("is compiled around when the cache is another build's (a good file V8 refuses)", async () => {
    const cache = join(dir, 'cache');
    const old = writeScript('app-0123456789ab.js', 'return "old";');
    (await run(old, cache)).save();
    const fresh = writeScript('app-ba9876543210.js', 'return "a newer build, longer";');
    // As if the new build's cache file were the old one's (its checksum is right, its code is not this script's).
    writeFileSync(cacheFileFor(fresh, cache, 'test'), readFileSync(cacheFileFor(old, cache, 'test')));
    const next = await run(fresh, cache);
    expect(next).toMatchObject({ status: 'rejected', result: 'a newer build, longer' });
  });

  it('removes the caches of other builds of the same script when it writes its own, and nothing else', async () => {
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    const other = (name: string) => writeFileSync(join(cache, name), 'x');
    other(`app-aaaaaaaaaaaa.console.${process.version}-${process.arch}.v8cache`);
    other('app-bbbbbbbbbbbb.keys.v18.0.0-x64.v8cache');
    other(`undici-cccccccccccc.console.${process.version}-${process.arch}.v8cache`);
    other('notes.txt');
    const file = writeScript('app-0123456789ab.js');
    (await run(file, cache, 'console')).save();
    (await run(file, cache, 'keys')).save();
    expect(readdirSync(cache).sort()).toEqual([
      `app-0123456789ab.console.${process.version}-${process.arch}.v8cache`,
      `app-0123456789ab.keys.${process.version}-${process.arch}.v8cache`,
      'notes.txt',
      `undici-cccccccccccc.console.${process.version}-${process.arch}.v8cache`,
    ]);
  });

  it('costs only the compile when the folder cannot be written (a file where the folder should be, a read-only folder)', async () => {
    const file = writeScript('app-0123456789ab.js');
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file, not a folder');
    const underFile = await run(file, join(blocked, 'cache'));
    expect(underFile).toMatchObject({ status: 'miss', result: '2,4,6' });
    expect(underFile.save()).toBe(false);

    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly, { mode: 0o500 });
    const loaded = await run(file, readOnly);
    expect(loaded.result).toBe('2,4,6');
    // root may write anyway: either way nothing throws, and no temporary file is left behind.
    loaded.save();
    chmodSync(readOnly, 0o700);
    expect(readdirSync(readOnly).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('reads or writes nothing with no cache folder', async () => {
    const file = writeScript('app-0123456789ab.js');
    const loaded = await run(file, undefined);
    expect(loaded).toMatchObject({ status: 'off', result: '2,4,6' });
    expect(loaded.save()).toBe(false);
    expect(readdirSync(dir)).toEqual(['app-0123456789ab.js']);
  });

  it('writes a cache file whole or not at all', () => {
    const cache = join(dir, 'cache');
    const target = join(cache, 'x.v8cache');
    writeCacheFile(target, Buffer.from('payload'));
    expect(readCacheFile(target)).toEqual(Buffer.from('payload'));
    // The target is a folder: the rename fails, and the temporary file goes.
    rmSync(target);
    mkdirSync(target);
    expect(() => writeCacheFile(target, Buffer.from('payload'))).toThrow();
    expect(readdirSync(cache)).toEqual(['x.v8cache']);
    expect(readCacheFile(join(cache, 'nothing-here'))).toBe('missing');
  });
});

describe('the kind of start (one code cache each)', () => {
  it('is the command, help, or the console; an option’s value is not a command', () => {
    expect(kindOfStart([])).toBe('console');
    expect(kindOfStart(['--demo'])).toBe('console');
    expect(kindOfStart(['--profile', 'keys', '--demo'])).toBe('console');
    expect(kindOfStart(['--base-url', 'http://x', 'transfers', '--all'])).toBe('transfers');
    expect(kindOfStart(['keys', 'list', '--help'])).toBe('keys');
    expect(kindOfStart(['--help'])).toBe('help');
    expect(kindOfStart(['help', 'keys'])).toBe('help');
    expect(kindOfStart(['__complete', 'keys', ''])).toBe('__complete');
    expect(kindOfStart(['kyes', 'list'])).toBe('other');
  });
});
