// Config files are written whole or not at all, readable only by the user: the text goes to a new temporary
// file beside the target (created exclusively, mode 0600), is fsynced, then renamed over the target, and the
// folder is fsynced so the rename itself survives a crash. If any step fails (a full disk: ENOSPC), the
// temporary file is removed and the target is left as it was.
import { constants } from 'node:fs';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { fsPromises, nodeCrypto } from '../lazyBuiltins';

/** The file-system calls an atomic write makes; tests replace them to inject failures (ENOSPC, EIO). */
export interface AtomicFileSystem {
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  open(path: string, flags: number, mode: number): Promise<AtomicFileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** fsync of a folder (best effort: some file systems refuse it). */
  syncFolder(path: string): Promise<void>;
}

export interface AtomicFileHandle {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  chmod(mode: number): Promise<void>;
  close(): Promise<void>;
}

export const nodeFileSystem: AtomicFileSystem = {
  mkdir: (path, options) => fsPromises().mkdir(path, options),
  open: (path, flags, mode) => fsPromises().open(path, flags, mode),
  rename: (from, to) => fsPromises().rename(from, to),
  unlink: (path) => fsPromises().unlink(path),
  async syncFolder(path) {
    let handle: import('node:fs/promises').FileHandle | undefined;
    try {
      handle = await fsPromises().open(path, constants.O_RDONLY);
      await handle.sync();
    } catch {
      // Not every file system can fsync a folder; the file's own fsync already happened.
    } finally {
      await handle?.close().catch(() => undefined);
    }
  },
};

let active: AtomicFileSystem = nodeFileSystem;

/** Tests only: every atomic write goes through `fs` until the returned function is called. */
export function replaceAtomicFileSystem(fs: AtomicFileSystem): () => void {
  const previous = active;
  active = fs;
  return () => {
    active = previous;
  };
}

/** Temporary files are `.<12 hex>.tmp` beside the target. */
export const TEMP_FILE = /^\.[0-9a-f]{12}\.tmp$/;

/**
 * Where a write to `path` goes: the file a symbolic link there points to (a dotfiles setup links the config
 * files in), so the link stays and its target is replaced, atomically, beside itself.
 */
async function writeTarget(path: string): Promise<string> {
  try {
    if (!(await fsPromises().lstat(path)).isSymbolicLink()) return path;
    return await fsPromises().realpath(path);
  } catch {
    // Not there yet, or a link to nothing: written at its own name.
    return path;
  }
}

export async function writeFileAtomic(given: string, content: string, fs: AtomicFileSystem = active): Promise<void> {
  const path = await writeTarget(given);
  const folder = dirname(path);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const temp = join(folder, `.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  let failure: { error: unknown } | undefined;
  try {
    await handle.writeFile(content, 'utf8');
    // The mode is set before the file gets its name (umask cannot widen it; an old file's mode is not kept).
    await handle.chmod(0o600);
    await handle.sync();
  } catch (error) {
    failure = { error };
  }
  // A close can report a late write error too (ENOSPC, EIO on some file systems): it fails the write.
  await handle.close().catch((error: unknown) => {
    failure ??= { error };
  });
  if (!failure) {
    try {
      await fs.rename(temp, path);
    } catch (error) {
      failure = { error };
    }
  }
  if (failure) {
    await fs.unlink(temp).catch(() => undefined);
    throw failure.error;
  }
  await fs.syncFolder(folder);
}

/** The file's text, or undefined when it does not exist. */
export async function readFileIfExists(path: string): Promise<string | undefined> {
  try {
    return await fsPromises().readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * A JSON config file read through a schema; missing, not JSON or not matching: `fallback` (a file that cannot be
 * read throws). A damaged file's text is kept beside it as `<name>.damaged` (once: an older copy stays), since the
 * next write replaces it: the names it held can still be read there.
 */
export async function readJsonOr<T>(path: string, schema: v.GenericSchema<unknown, T>, fallback: T): Promise<T> {
  const text = await readFileIfExists(path);
  if (text === undefined) return fallback;
  let parsed: ReturnType<typeof v.safeParse<v.GenericSchema<unknown, T>>> | undefined;
  try {
    parsed = v.safeParse(schema, JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (parsed?.success === true) return parsed.output;
  await fsPromises()
    .writeFile(`${path}.damaged`, text, { flag: 'wx', mode: 0o600 })
    .catch(() => undefined);
  return fallback;
}
