// When the service's ban of this IP (HTTP 418) ends, per base URL, so that a new run does not send into a ban
// the last one met. Not secret: a small JSON file in the config folder, written whole or not at all. An ended
// ban is forgotten when read.
import * as v from 'valibot';
import { perBaseUrlFile } from './perBaseUrl';

export const BANS_FILE = 'bans.json';
/** Base URLs remembered; the bans ending first are dropped first. */
const MAX_BANS = 32;
/** The longest ban the service documents (3 days), with a day to spare: a longer end is not believed. */
export const MAX_BAN_MS = 4 * 24 * 3_600_000;

const Entry = v.object({
  endsAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
const file = perBaseUrlFile(BANS_FILE, Entry, MAX_BANS, (entry) => entry.endsAt);

/** Forgets the bans not in force at `now` (an ended one, or one ending past belief). */
function keepInForce(entries: Map<string, { endsAt: number }>, now: number): Map<string, { endsAt: number }> {
  for (const [baseUrl, { endsAt }] of entries) if (endsAt <= now || endsAt > now + MAX_BAN_MS) entries.delete(baseUrl);
  return entries;
}

/** When the ban on this base URL ends (Unix ms), or undefined when none is in force. Never throws. */
export async function loadBan(folder: string, baseUrl: string, now: number = Date.now()): Promise<number | undefined> {
  return keepInForce(await file.read(folder), now).get(baseUrl)?.endsAt;
}

/**
 * Remembers that this base URL is banned until `endsAt` (Unix ms); a later end already kept wins. Throws what
 * the write throws; callers treat it as best effort.
 */
export async function saveBan(folder: string, baseUrl: string, endsAt: number, now: number = Date.now()): Promise<void> {
  const end = Math.round(endsAt);
  if (!Number.isFinite(end) || end <= now) return;
  await file.update(folder, (entries) => {
    const kept = keepInForce(entries, now).get(baseUrl);
    if (kept !== undefined && kept.endsAt >= end) return false;
    entries.set(baseUrl, { endsAt: Math.min(end, Math.round(now) + MAX_BAN_MS) });
    return true;
  });
}
