// When the service's ban of this IP (HTTP 418) ends, per base URL, so that a new run does not send into a ban
// the last one met. Not secret: a small JSON file in the config folder, written whole or not at all. An ended
// ban is forgotten when read.
import { join } from 'node:path';
import * as v from 'valibot';
import { readFileIfExists, writeFileAtomic } from './atomicFile';

export const BANS_FILE = 'bans.json';
/** Base URLs remembered; the bans ending first are dropped first. */
export const MAX_BANS = 32;
/** The longest ban the service documents (3 days), with a day to spare: a longer end is not believed. */
export const MAX_BAN_MS = 4 * 24 * 3_600_000;

const Entry = v.object({
  endsAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
type Entry = v.InferOutput<typeof Entry>;

export function bansPath(folder: string): string {
  return join(folder, BANS_FILE);
}

/** Every entry still in force at `now`; a missing, unreadable or damaged file (or entry) counts as none. Never throws. */
async function readAll(folder: string, now: number): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  let raw: unknown;
  try {
    const text = await readFileIfExists(bansPath(folder));
    if (text === undefined) return entries;
    raw = JSON.parse(text);
  } catch {
    return entries;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return entries;
  for (const [baseUrl, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = v.safeParse(Entry, value);
    if (parsed.success && parsed.output.endsAt > now && parsed.output.endsAt <= now + MAX_BAN_MS) entries.set(baseUrl, parsed.output);
  }
  return entries;
}

/** When the ban on this base URL ends (Unix ms), or undefined when none is in force. Never throws. */
export async function loadBan(folder: string, baseUrl: string, now: number = Date.now()): Promise<number | undefined> {
  return (await readAll(folder, now)).get(baseUrl)?.endsAt;
}

/**
 * Remembers that this base URL is banned until `endsAt` (Unix ms); a later end already kept wins. Throws what
 * the write throws; callers treat it as best effort.
 */
export async function saveBan(folder: string, baseUrl: string, endsAt: number, now: number = Date.now()): Promise<void> {
  const entries = await readAll(folder, now);
  const end = Math.round(endsAt);
  if (!Number.isFinite(end) || end <= now) return;
  const kept = entries.get(baseUrl);
  if (kept !== undefined && kept.endsAt >= end) return;
  entries.set(baseUrl, { endsAt: Math.min(end, Math.round(now) + MAX_BAN_MS) });
  const latest = [...entries.entries()].sort(([, a], [, b]) => b.endsAt - a.endsAt).slice(0, MAX_BANS);
  await writeFileAtomic(bansPath(folder), `${JSON.stringify(Object.fromEntries(latest), null, 2)}\n`);
}
