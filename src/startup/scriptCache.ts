// Runs a bundled script with V8's code cache kept in a folder, so a start skips parsing and compiling what an
// earlier start compiled (what v8-compile-cache does for CommonJS). The cache is only ever a speed-up: a
// missing, stale, corrupt, foreign or unwritable cache costs one compile, never a failure. A cache file holds
// V8's compiled code of our own bundle and nothing else (no secrets, no data).
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import zlib from 'node:zlib';
import { nodeCrypto } from '../lazyBuiltins';

/** The start of a cache file: magic and format version, then the payload's length and checksum. */
const MAGIC = Buffer.from('bc-v8cc\u0001', 'latin1');
const HEADER_BYTES = MAGIC.length + 4 + 4;
/** A file larger than this is not one of ours (the console's is about 1 MB): it is not read. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export type CacheStatus =
  /** V8 took the cache: what it holds was neither parsed nor compiled. */
  | 'hit'
  /** No cache file for this build and variant: compiled from the source; save() writes one. */
  | 'miss'
  /** A file was there but not usable (corrupt, truncated, another Node or V8 flags): compiled; save() replaces it. */
  | 'rejected'
  /** No cache folder: compiled, nothing read or written. */
  | 'off';

export interface CachedScript {
  /** What the script's top level evaluates to (the build wraps each script in an async function). */
  value: unknown;
  status: CacheStatus;
  /**
   * Writes the cache if this start could not use one; call it once the code worth caching has run (V8 then
   * includes every function compiled so far). At most once; never throws. True when a file was written.
   */
  save(): boolean;
}

/**
 * The cache file of a script for a variant (what kind of start made it: the console, a command…): the script's
 * file name carries its build's hash, and the cache is specific to Node's version and the CPU architecture.
 */
export function cacheFileFor(scriptFile: string, folder: string, variant: string): string {
  return join(folder, `${basename(scriptFile, '.js')}.${variant}.${process.version}-${process.arch}.v8cache`);
}

const checksum: (data: Uint8Array) => number =
  // zlib.crc32 arrived in Node 20.15; before it, the first four bytes of a SHA-1.
  typeof (zlib as { crc32?: unknown }).crc32 === 'function'
    ? (data) => (zlib as unknown as { crc32(data: Uint8Array): number }).crc32(data)
    : (data) => nodeCrypto().createHash('sha1').update(data).digest().readUInt32BE(0);

/** A cache file's payload; 'missing' when there is no file to read, 'invalid' unless it is one of ours, whole and intact. */
export function readCacheFile(file: string): Buffer | 'missing' | 'invalid' {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'invalid';
  }
  if (data.length < HEADER_BYTES || data.length > MAX_CACHE_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) return 'invalid';
  const length = data.readUInt32BE(MAGIC.length);
  const sum = data.readUInt32BE(MAGIC.length + 4);
  const payload = data.subarray(HEADER_BYTES);
  // V8 checks its version, its flags and the source's length, not every byte: a flipped bit must never run.
  if (payload.length !== length || checksum(payload) !== sum) return 'invalid';
  return payload;
}

/** Writes a cache file whole or not at all (a temporary file renamed over it), readable by the user only. */
export function writeCacheFile(file: string, payload: Uint8Array): void {
  const folder = dirname(file);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(payload.length, MAGIC.length);
  header.writeUInt32BE(checksum(payload), MAGIC.length + 4);
  const temp = join(folder, `.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    writeSync(fd, header);
    writeSync(fd, payload);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes the caches of the script's other builds (same name before the hash), so the folder does not grow. */
function removeOtherBuilds(file: string): void {
  const folder = dirname(file);
  const name = basename(file);
  const build = name.slice(0, name.indexOf('.') + 1);
  const stem = build.replace(/-[0-9a-f]+\.$/, '-');
  for (const entry of readdirSync(folder)) {
    if (entry.startsWith(stem) && !entry.startsWith(build) && entry.endsWith('.v8cache')) rmSync(join(folder, entry), { force: true });
  }
}

/**
 * Compiles `scriptFile`, with the cache in `cacheFile` when there is a good one, and evaluates it (the build
 * wraps each script in one function expression: the value is that function). `cacheFile` undefined: no cache.
 */
export function runCachedScript(scriptFile: string, cacheFile: string | undefined): CachedScript {
  const source = readFileSync(scriptFile, 'utf8');
  const read = cacheFile === undefined ? undefined : readCacheFile(cacheFile);
  const cachedData = typeof read === 'object' ? read : undefined;
  const script = new Script(source, { filename: scriptFile, ...(cachedData ? { cachedData } : {}) });
  const status: CacheStatus =
    read === undefined ? 'off' : read === 'missing' ? 'miss' : read === 'invalid' || script.cachedDataRejected === true ? 'rejected' : 'hit';
  const value: unknown = script.runInThisContext();
  let done = status === 'hit' || status === 'off';
  return {
    value,
    status,
    save() {
      if (done || cacheFile === undefined) return false;
      done = true;
      try {
        writeCacheFile(cacheFile, script.createCachedData());
        removeOtherBuilds(cacheFile);
        return true;
      } catch {
        // A read-only or full disk, a folder that is a file: the next start compiles again, that is all.
        return false;
      }
    },
  };
}
