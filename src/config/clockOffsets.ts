// The last clock offset (service minus this computer, ms) measured against each base URL, so that the next
// command starts with it instead of meeting a 700003 first. Not secret: a small JSON file in the
// config folder, written whole or not at all. A stale offset heals itself: the service refuses the
// timestamp (700003), the client re-measures from that answer and sends once more.
import * as v from 'valibot';
import { perBaseUrlFile } from './perBaseUrl';

export const CLOCK_OFFSETS_FILE = 'clock-offsets.json';
/** Base URLs remembered; the least recently measured are dropped first. */
export const MAX_CLOCK_OFFSETS = 32;
/** An offset beyond this is not believed (a damaged file, or a clock no correction should paper over). */
const MAX_REMEMBERED_OFFSET_MS = 7 * 24 * 3_600_000;

const Entry = v.object({
  offsetMs: v.pipe(v.number(), v.integer(), v.minValue(-MAX_REMEMBERED_OFFSET_MS), v.maxValue(MAX_REMEMBERED_OFFSET_MS)),
  measuredAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
const file = perBaseUrlFile(CLOCK_OFFSETS_FILE, Entry, MAX_CLOCK_OFFSETS, (entry) => entry.measuredAt);

/** The offset last measured against this base URL, or undefined. Never throws. */
export async function loadClockOffset(folder: string, baseUrl: string): Promise<number | undefined> {
  return (await file.read(folder)).get(baseUrl)?.offsetMs;
}

/**
 * Remembers the offset for this base URL (0 forgets it: nothing to correct). Keeps the file to
 * MAX_CLOCK_OFFSETS entries. Throws what the write throws; callers treat it as best effort.
 */
export async function saveClockOffset(folder: string, baseUrl: string, offsetMs: number, now: number = Date.now()): Promise<void> {
  const rounded = Math.round(offsetMs);
  await file.update(folder, (entries) => {
    if (rounded === 0 || !Number.isFinite(rounded) || Math.abs(rounded) > MAX_REMEMBERED_OFFSET_MS) return entries.delete(baseUrl);
    entries.set(baseUrl, { offsetMs: rounded, measuredAt: Math.max(0, Math.round(now)) });
    return true;
  });
}
