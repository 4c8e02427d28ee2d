// Sub-accounts found in transfer history (the service has no list of them), remembered per base URL.
// Not secret: names and the time of their last transfer seen.
import { join } from 'node:path';
import * as v from 'valibot';
import { readJsonOr, writeFileAtomic } from './atomicFile';

/** At most this many names per target: the most recently active are kept. */
export const DISCOVERED_LIMIT = 2000;

export interface DiscoveredSubAccount {
  name: string;
  /** The latest transfer naming it that was seen, epoch ms. */
  lastTransferTime: number;
}

export interface DiscoveredSubAccounts {
  /** Most recently active first. */
  list(): DiscoveredSubAccount[];
  /** When the last full scan ended (epoch ms), if one did. */
  scannedAt(): number | undefined;
  /** Adds names seen in transfers; a name already known keeps the later of its two times. */
  note(found: Iterable<DiscoveredSubAccount>, scannedAt?: number): Promise<void>;
}

const Entry = v.object({ name: v.pipe(v.string(), v.minLength(1)), lastTransferTime: v.pipe(v.number(), v.finite()) });
const Target = v.object({ subAccounts: v.array(Entry), scannedAt: v.optional(v.pipe(v.number(), v.finite())) });
const DiscoveredFile = v.record(v.string(), Target);
type TargetState = v.InferOutput<typeof Target>;

/** Merges newly seen names into a list: the later time wins, most recent first, at most DISCOVERED_LIMIT. */
export function mergeDiscovered(known: readonly DiscoveredSubAccount[], found: Iterable<DiscoveredSubAccount>): DiscoveredSubAccount[] {
  const byName = new Map(known.map((e) => [e.name, e.lastTransferTime]));
  for (const { name, lastTransferTime } of found) {
    const before = byName.get(name);
    if (before === undefined || lastTransferTime > before) byName.set(name, lastTransferTime);
  }
  return [...byName]
    .map(([name, lastTransferTime]) => ({ name, lastTransferTime }))
    .sort((a, b) => b.lastTransferTime - a.lastTransferTime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, DISCOVERED_LIMIT);
}

function sameList(a: readonly DiscoveredSubAccount[], b: readonly DiscoveredSubAccount[]): boolean {
  return a.length === b.length && a.every((e, i) => e.name === b[i]!.name && e.lastTransferTime === b[i]!.lastTransferTime);
}

/** Loads the discovered names for one target (a base URL, or "demo"). A damaged file counts as empty. */
export async function openDiscoveredSubAccounts(folder: string, target: string): Promise<DiscoveredSubAccounts> {
  const path = join(folder, 'discovered-sub-accounts.json');
  const readAll = (): Promise<Record<string, TargetState>> => readJsonOr(path, DiscoveredFile, {});
  let state: TargetState = (await readAll())[target] ?? { subAccounts: [] };
  return {
    list: () => state.subAccounts,
    scannedAt: () => state.scannedAt,
    async note(found, scannedAt) {
      const next = { subAccounts: mergeDiscovered(state.subAccounts, found), scannedAt: scannedAt ?? state.scannedAt };
      // Every transfer page browsed notes its names: a page that teaches nothing new costs no write.
      if (next.scannedAt === state.scannedAt && sameList(next.subAccounts, state.subAccounts)) return;
      state = next;
      const all = await readAll();
      all[target] = state;
      await writeFileAtomic(path, `${JSON.stringify(all, null, 2)}\n`);
    },
  };
}

/** In-memory variant (tests, or when the config folder cannot be written). */
export function memoryDiscoveredSubAccounts(initial: DiscoveredSubAccount[] = []): DiscoveredSubAccounts {
  let subAccounts = mergeDiscovered([], initial);
  let scanned: number | undefined;
  return {
    list: () => subAccounts,
    scannedAt: () => scanned,
    async note(found, scannedAt) {
      subAccounts = mergeDiscovered(subAccounts, found);
      scanned = scannedAt ?? scanned;
    },
  };
}
