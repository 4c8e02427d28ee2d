// Recently used sub-accounts, remembered per base URL, most recent first.
import { join } from 'node:path';
import * as v from 'valibot';
import { readJsonOr, writeFileAtomic } from './atomicFile';

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
  const save = async () => {
    const all = await readAll();
    all[target] = names;
    await writeFileAtomic(path, `${JSON.stringify(all, null, 2)}\n`);
  };
  return {
    list: () => names,
    async remember(subAccount) {
      names = [subAccount, ...names.filter((n) => n !== subAccount)].slice(0, RECENT_LIMIT);
      await save();
    },
    async forget(subAccount) {
      if (!names.includes(subAccount)) return;
      names = names.filter((n) => n !== subAccount);
      await save();
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
