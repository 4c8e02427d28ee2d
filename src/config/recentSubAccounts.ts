// Recently used sub-accounts, remembered per base URL, most recent first.
import { join } from 'node:path';
import * as v from 'valibot';
import { readJsonOr, writeFileAtomic } from './atomicFile';
import { withFileLock } from './fileLock';

export const RECENT_LIMIT = 20;
const RecentFile = v.record(v.string(), v.array(v.string()));

export interface RecentSubAccounts {
  list(): string[];
  remember(subAccount: string): Promise<void>;
  /** Drops a name (the service said there is no such sub-account). */
  forget(subAccount: string): Promise<void>;
}

/** Loads the remembered names for one target (a base URL, or "demo"). A damaged file counts as empty. */
export async function openRecentSubAccounts(folder: string, target: string): Promise<RecentSubAccounts> {
  const path = join(folder, 'recent-sub-accounts.json');
  const readAll = (): Promise<Record<string, string[]>> => readJsonOr(path, RecentFile, {});
  let names = (await readAll())[target] ?? [];
  // Each change is made to the file's list as it is now, under its lock: another console or command on the same
  // folder may have remembered a name since this one read the file, and it stays.
  // This process's changes go in the order they were asked (the lock alone lets waiters in any order).
  let queue: Promise<unknown> = Promise.resolve();
  const change = (edit: (current: string[]) => string[]): Promise<void> => {
    const next = queue.then(() =>
      withFileLock(path, async () => {
        const all = await readAll();
        names = edit(all[target] ?? []);
        all[target] = names;
        await writeFileAtomic(path, `${JSON.stringify(all, null, 2)}\n`);
      }),
    );
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    list: () => names,
    async remember(subAccount) {
      names = [subAccount, ...names.filter((n) => n !== subAccount)].slice(0, RECENT_LIMIT);
      await change((current) => [subAccount, ...current.filter((n) => n !== subAccount)].slice(0, RECENT_LIMIT));
    },
    async forget(subAccount) {
      if (!names.includes(subAccount)) return;
      names = names.filter((n) => n !== subAccount);
      await change((current) => current.filter((n) => n !== subAccount));
    },
  };
}

/** In-memory variant (tests, or when the config folder cannot be written). */
export function memoryRecentSubAccounts(initial: string[] = []): RecentSubAccounts {
  let names = [...initial];
  return {
    list: () => names,
    async remember(subAccount) {
      names = [subAccount, ...names.filter((n) => n !== subAccount)].slice(0, RECENT_LIMIT);
    },
    async forget(subAccount) {
      if (names.includes(subAccount)) names = names.filter((n) => n !== subAccount);
    },
  };
}
