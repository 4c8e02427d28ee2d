// Sub-accounts found in transfer history (none of the three operations lists them), remembered per base URL.
// Not secret: names and the time of their last transfer seen. The names come from the service's answers, so
// only names a typed sub-account name could be are kept, and the file is bounded in names, bytes and targets.
import { join } from 'node:path';
import * as v from 'valibot';
import { checkSubAccount } from '../api/validation';
import { fsPromises } from '../lazyBuiltins';
import { readJsonOr, writeFileAtomic } from './atomicFile';
import { withFileLock } from './fileLock';

/** At most this many names per target: the most recently active are kept. */
export const DISCOVERED_LIMIT = 2000;
/** At most this many bytes of names (UTF-8) per target. */
export const DISCOVERED_NAME_BYTES = 64 * 1024;
/** At most this many targets (base URLs) in the file: the most recently active are kept. */
export const DISCOVERED_TARGETS = 8;
/** A larger file is not read (it counts as empty, and the next note rewrites it within the bounds). */
export const DISCOVERED_FILE_BYTES = 2 * 1024 * 1024;

/** A name the sub-account field would accept as typed (the same rule), exactly as given. */
export function isSubAccountName(name: string): boolean {
  const checked = checkSubAccount(name);
  return checked.ok && checked.value === name;
}

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
  const byName = new Map<string, number>();
  for (const { name, lastTransferTime } of [...known, ...found]) {
    if (!Number.isFinite(lastTransferTime) || !isSubAccountName(name)) continue;
    const before = byName.get(name);
    if (before === undefined || lastTransferTime > before) byName.set(name, lastTransferTime);
  }
  const sorted = [...byName]
    .map(([name, lastTransferTime]) => ({ name, lastTransferTime }))
    .sort((a, b) => b.lastTransferTime - a.lastTransferTime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, DISCOVERED_LIMIT);
  let bytes = 0;
  const kept = sorted.findIndex((e) => (bytes += Buffer.byteLength(e.name, 'utf8')) > DISCOVERED_NAME_BYTES);
  return kept < 0 ? sorted : sorted.slice(0, kept);
}

/** The target being written, then the others most recently active first, at most DISCOVERED_TARGETS. */
function boundTargets(all: Record<string, TargetState>, current: string): Record<string, TargetState> {
  const newest = (t: TargetState): number => t.subAccounts[0]?.lastTransferTime ?? t.scannedAt ?? 0;
  const others = Object.entries(all)
    .filter(([name]) => name !== current)
    .sort(([, a], [, b]) => newest(b) - newest(a))
    .slice(0, DISCOVERED_TARGETS - 1);
  const bounded: Record<string, TargetState> = {};
  if (all[current]) bounded[current] = all[current];
  for (const [name, state] of others)
    bounded[name] = { subAccounts: mergeDiscovered([], state.subAccounts), ...(state.scannedAt !== undefined ? { scannedAt: state.scannedAt } : {}) };
  return bounded;
}

function sameList(a: readonly DiscoveredSubAccount[], b: readonly DiscoveredSubAccount[]): boolean {
  return a.length === b.length && a.every((e, i) => e.name === b[i]!.name && e.lastTransferTime === b[i]!.lastTransferTime);
}

/** Loads the discovered names for one target (a base URL, or "demo"). A damaged file counts as empty. */
export async function openDiscoveredSubAccounts(folder: string, target: string): Promise<DiscoveredSubAccounts> {
  const path = join(folder, 'discovered-sub-accounts.json');
  const readAll = async (): Promise<Record<string, TargetState>> => {
    const size = await fsPromises()
      .stat(path)
      .then((s) => s.size)
      .catch(() => 0);
    return size > DISCOVERED_FILE_BYTES ? {} : readJsonOr(path, DiscoveredFile, {});
  };
  const stored = (await readAll())[target];
  let state: TargetState = stored ? { ...stored, subAccounts: mergeDiscovered([], stored.subAccounts) } : { subAccounts: [] };
  // This process's writes go in the order asked, each under the file's lock and merged with what the file holds
  // then: another console or command on the folder may have found names since this one read it.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    list: () => state.subAccounts,
    scannedAt: () => state.scannedAt,
    async note(found, scannedAt) {
      const next = { subAccounts: mergeDiscovered(state.subAccounts, found), scannedAt: scannedAt ?? state.scannedAt };
      // Every transfer page browsed notes its names: a page that teaches nothing new costs no write.
      if (next.scannedAt === state.scannedAt && sameList(next.subAccounts, state.subAccounts)) return;
      state = next;
      const write = queue.then(() =>
        withFileLock(path, async () => {
          const all = await readAll();
          const there = all[target];
          const latest = Math.max(there?.scannedAt ?? -Infinity, state.scannedAt ?? -Infinity);
          state = {
            subAccounts: mergeDiscovered(there?.subAccounts ?? [], state.subAccounts),
            ...(Number.isFinite(latest) ? { scannedAt: latest } : {}),
          };
          all[target] = state;
          await writeFileAtomic(path, `${JSON.stringify(boundTargets(all, target), null, 2)}\n`);
        }),
      );
      queue = write.catch(() => undefined);
      await write;
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
