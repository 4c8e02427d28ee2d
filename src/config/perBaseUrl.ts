// The small files that remember one thing per base URL (a clock offset, the POST signature rule that worked, a
// ban's end): not secret, a JSON object keyed by base URL in the config folder, written whole or not at all, and
// bounded. What cannot be read counts as nothing remembered: each of them is a convenience that heals itself.
// A change is made under the file's lock to the entries as they are then: a console and a command writing at
// once each keep what the other wrote.
import { join } from 'node:path';
import * as v from 'valibot';
import { readFileIfExists, writeFileAtomic } from './atomicFile';
import { withFileLock } from './fileLock';

interface PerBaseUrlFile<E> {
  path(folder: string): string;
  /** Every readable entry (a missing, unreadable or damaged file or entry counts as none). Never throws. */
  read(folder: string): Promise<Map<string, E>>;
  /**
   * Under the file's lock: reads the entries, lets `edit` change them (false: nothing changed) and writes them,
   * keeping the `max` that rank first. Throws what the lock or the write throws.
   */
  update(folder: string, edit: (entries: Map<string, E>) => boolean): Promise<void>;
}

/** A per-base-URL file of entries of this shape; `rank` orders them, highest kept first when there are too many. */
export function perBaseUrlFile<E>(fileName: string, entry: v.GenericSchema<unknown, E>, max: number, rank: (entry: E) => number): PerBaseUrlFile<E> {
  const path = (folder: string) => join(folder, fileName);
  const read = async (folder: string): Promise<Map<string, E>> => {
    const entries = new Map<string, E>();
    let raw: unknown;
    try {
      const text = await readFileIfExists(path(folder));
      if (text === undefined) return entries;
      raw = JSON.parse(text);
    } catch {
      return entries;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return entries;
    for (const [baseUrl, value] of Object.entries(raw as Record<string, unknown>)) {
      const parsed = v.safeParse(entry, value);
      if (parsed.success) entries.set(baseUrl, parsed.output);
    }
    return entries;
  };
  return {
    path,
    read,
    update: (folder, edit) =>
      withFileLock(path(folder), async () => {
        const entries = await read(folder);
        if (!edit(entries)) return;
        const kept = [...entries.entries()].sort(([, a], [, b]) => rank(b) - rank(a)).slice(0, max);
        await writeFileAtomic(path(folder), `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
      }),
  };
}
