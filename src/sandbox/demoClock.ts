// The pinned demo (`--demo-clock ISO-TIME`, `BROKER_DEMO_CLOCK`): one moment that the demo's seeded data,
// the console's "now", relative spans (7d), export file names and created keys all follow, with created
// keys and secrets that come from a counter and spell "demo". Two takes of a screencast show the same
// screens. Only what is seeded and shown is pinned: the sandbox still checks request timestamps against
// the real clock, which is the clock the client signs with, so signing works as it always does.

/** The environment's way to pin the demo's clock (the flag wins). */
export const DEMO_CLOCK_ENV = 'BROKER_DEMO_CLOCK';

/** The latency the status bar shows for every request while the demo's clock is pinned, ms. */
export const DEMO_LATENCY_MS = 12;

type DemoClockParse = { ok: true; ms: number } | { ok: false; reason: string };

// A date and time with an explicit zone: a moment, whatever the time zone of the machine.
const ISO_MOMENT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})$/i;

/** `2026-11-21T09:30:00Z` (or with +hh:mm) → Unix ms; the reason is phrased to follow "<flag>: ". */
export function parseDemoClock(raw: string): DemoClockParse {
  const text = raw.trim();
  const m = ISO_MOMENT.exec(text);
  const example = 'give an ISO time with its zone, e.g. 2026-11-21T09:30:00Z';
  if (!m) return { ok: false, reason: `'${text.slice(0, 40)}' is not an ISO time; ${example}` };
  const ms = Date.parse(text.toUpperCase());
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? '0')) as [number, number, number, number, number, number];
  const valid = mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() && h <= 23 && mi <= 59 && s <= 59;
  if (!valid || Number.isNaN(ms)) return { ok: false, reason: `'${text}' is not a valid time; ${example}` };
  if (ms < Date.UTC(2001, 0, 1)) return { ok: false, reason: `'${text}' is too early for the demo (from 2001 on)` };
  return { ok: true, ms };
}

/** The flag, else the environment, else undefined (not pinned). Throws a usage message when either is not a time. */
export function resolveDemoClock(flag: string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const [source, text] = flag !== undefined ? ['--demo-clock', flag] : [DEMO_CLOCK_ENV, env[DEMO_CLOCK_ENV]];
  if (text === undefined || (source === DEMO_CLOCK_ENV && text.trim() === '')) return undefined;
  const parsed = parseDemoClock(text);
  if (!parsed.ok) throw new RangeError(`${source}: ${parsed.reason}`);
  return parsed.ms;
}

interface DemoKey {
  apiKey: string;
  secretKey: string;
}

/**
 * The n-th key created in the pinned demo (from 1): plainly fake, the same in every take.
 * `mx0vdemo000000000000000000000001` (32 characters, like the service's) and `demo…0001` (64).
 */
export function demoKey(n: number): DemoKey {
  return { apiKey: `mx0vdemo${String(n).padStart(24, '0')}`, secretKey: `demo${String(n).padStart(60, '0')}` };
}
