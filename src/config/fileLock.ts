// An exclusive lock beside a config file, as git's `config.lock`: `<file>.lock` created with O_EXCL holds
// the writer's pid, host and time. A read-modify-write of the file runs while holding it, so two processes
// never write from the same old content (one's change would be lost). A lock whose process is gone (same
// host), or not renewed for STALE_LOCK_MS, is stale: it is taken over, not waited for. A holder renews its lock
// while it works, so a slow keychain does not let another writer in.
import { constants } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { fsPromises } from '../lazyBuiltins';

/** A lock not renewed for this long (milliseconds) is stale; its holder renews it well within that. */
export const STALE_LOCK_MS = 30_000;
/** How long a writer waits for a live holder before giving up with a message naming the lock file. */
const LOCK_WAIT_MS = 10_000;

export class FileLockedError extends Error {
  constructor(
    readonly lockPath: string,
    holder: string,
  ) {
    super(`${lockPath} is held by ${holder}; if no broker-console is running, remove that file`);
    this.name = 'FileLockedError';
  }
}

interface Holder {
  pid: number;
  host: string;
  at: number;
}

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number') return value as Holder;
  } catch {
    // A lock being written, or damaged: judged by its age.
  }
  return undefined;
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Whether the lock at `path` may be taken over (false while its holder may still be writing it). */
async function isStale(path: string, staleMs: number): Promise<boolean> {
  let stat;
  let text;
  try {
    stat = await fsPromises().lstat(path);
    text = await fsPromises().readFile(path, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW });
  } catch {
    return false;
  }
  const holder = parseHolder(text);
  // Renewed by its holder touching the file: the later of the time written and the file's own.
  const age = Date.now() - Math.max(holder?.at ?? 0, stat.mtimeMs);
  if (age > staleMs || age < -staleMs) return true;
  return holder !== undefined && holder.host === hostname() && holder.pid !== process.pid && processGone(holder.pid);
}

/** A takeover's guard older than this was left by a writer that died in the middle of one. */
const TAKEOVER_STALE_MS = 5_000;

/**
 * Removes the stale lock at `path` while holding `<lock>.takeover` (created with O_EXCL), judging it again under
 * that guard: two writers that both judged it stale never both remove a lock, the second one a live lock the
 * first has just made. False when another writer is taking it over.
 */
async function takeOver(path: string, staleMs: number): Promise<boolean> {
  const guard = `${path}.takeover`;
  let handle;
  try {
    handle = await fsPromises().open(guard, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stat = await fsPromises()
      .lstat(guard)
      .catch(() => undefined);
    // Its age either way: a guard stamped in the future (another host's clock) is not kept for ever.
    if (stat !== undefined && Math.abs(Date.now() - stat.mtimeMs) > TAKEOVER_STALE_MS)
      await fsPromises()
        .unlink(guard)
        .catch(() => undefined);
    return false;
  }
  try {
    if (await isStale(path, staleMs))
      await fsPromises()
        .unlink(path)
        .catch(() => undefined);
    return true;
  } finally {
    await handle.close().catch(() => undefined);
    await fsPromises()
      .unlink(guard)
      .catch(() => undefined);
  }
}

/**
 * Runs `action` holding `<file>.lock`, renewing it while `action` runs; the lock is removed afterwards, whatever
 * `action` does, unless it is no longer this run's (taken over).
 */
export async function withFileLock<T>(file: string, action: () => Promise<T>, waitMs = LOCK_WAIT_MS, staleMs = STALE_LOCK_MS): Promise<T> {
  const path = `${file}.lock`;
  await fsPromises().mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + waitMs;
  let delay = 5;
  // What this run wrote into its lock: at the end it removes the lock only if it still says that.
  let mine: string;
  let handle: Awaited<ReturnType<ReturnType<typeof fsPromises>['open']>>;
  for (;;) {
    try {
      handle = await fsPromises().open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        mine = JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() });
        await handle.writeFile(mine, 'utf8');
      } catch (error) {
        // A full disk: the lock is not left behind to block the next try.
        await handle.close().catch(() => undefined);
        await fsPromises()
          .unlink(path)
          .catch(() => undefined);
        throw error;
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if ((await isStale(path, staleMs)) && (await takeOver(path, staleMs))) continue;
    if (Date.now() >= deadline) {
      const holder = parseHolder(
        (await fsPromises()
          .readFile(path, 'utf8')
          .catch(() => '')) ?? '',
      );
      throw new FileLockedError(path, holder ? `process ${holder.pid} on ${holder.host}` : 'another process');
    }
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(100, delay * 2);
  }
  // Renewed through its own open file: a lock another writer has put in its place is never touched.
  const renew = setInterval(() => {
    const now = new Date();
    handle.utimes(now, now).catch(() => undefined);
  }, staleMs / 3);
  renew.unref();
  try {
    return await action();
  } finally {
    clearInterval(renew);
    await handle.close().catch(() => undefined);
    const now = await fsPromises()
      .readFile(path, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW })
      .catch(() => undefined);
    if (now === mine)
      await fsPromises()
        .unlink(path)
        .catch(() => undefined);
  }
}
