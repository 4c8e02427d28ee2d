// Operator time input → Unix ms. Pure: "now" is passed in, local time comes from the process time zone.
import { timeMs, timeText } from './serviceTime';
import type { ServiceTime } from './types';

type TimeParse = { ok: true; ms: number } | { ok: false; reason: string };

/** Below this an all-digit value cannot be epoch milliseconds after early 1973; it is likely seconds. */
const MIN_EPOCH_MS = 100_000_000_000;
/** The largest time a JavaScript Date can hold. */
const MAX_TIME_MS = 8_640_000_000_000_000;

export const DAY_MS = 86_400_000;
/** The units of a span as typed (30m, 24h, 7d, 2w), in milliseconds. */
export const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS } as const;
type Unit = keyof typeof UNIT_MS;

const TIME_FORMS_HINT =
  'use a date (2026-11-01), a date-time (2026-11-01T12:00, 2026-11-01 12:00:30, …Z or +02:00), epoch milliseconds, now, or a span before now (30m, 24h, 7d, 2w)';

const RELATIVE = /^(\d{1,9})\s*([smhdw])(?:\s+ago)?$/i;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Parses one time input; the reason is phrased to follow "<field>: ". */
export function parseTime(raw: string, now: number): TimeParse {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: `empty; ${TIME_FORMS_HINT}` };
  if (text.toLowerCase() === 'now') return { ok: true, ms: now };

  const relative = RELATIVE.exec(text);
  if (relative) {
    const amount = Number(relative[1]);
    const unit = (relative[2] ?? 's').toLowerCase() as Unit;
    const ms = now - amount * UNIT_MS[unit];
    if (ms < 0) return { ok: false, reason: `'${text}' reaches before 1970` };
    return { ok: true, ms };
  }

  if (/^\d+$/.test(text)) return parseEpoch(text);

  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [y, mo, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    const bad = checkDate(y, mo, d);
    if (bad) return { ok: false, reason: `'${text}': ${bad}` };
    return notBeforeEpoch(text, new Date(y, mo - 1, d).getTime());
  }

  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    const y = Number(dateTime[1]);
    const mo = Number(dateTime[2]);
    const d = Number(dateTime[3]);
    const h = Number(dateTime[4]);
    const mi = Number(dateTime[5]);
    const s = Number(dateTime[6] ?? '0');
    const frac = dateTime[7] ?? '';
    const msPart = frac === '' ? 0 : Number(frac.padEnd(3, '0'));
    const bad = checkDate(y, mo, d) ?? checkClock(h, mi, s);
    if (bad) return { ok: false, reason: `'${text}': ${bad}` };
    const zone = dateTime[8];
    if (zone === undefined) return notBeforeEpoch(text, new Date(y, mo - 1, d, h, mi, s, msPart).getTime());
    const offset = zoneOffsetMinutes(zone);
    if (offset === undefined) return { ok: false, reason: `'${text}': time zone offset out of range` };
    return notBeforeEpoch(text, Date.UTC(y, mo - 1, d, h, mi, s, msPart) - offset * 60_000);
  }

  return { ok: false, reason: `'${shorten(text)}' is not a time; ${TIME_FORMS_HINT}` };
}

/**
 * The service takes Unix milliseconds: a time before 1970-01-01 00:00 UTC would be sent as a negative
 * number (1970-01-01T00:00+14:00 is -50400000). It is refused here, nothing is sent.
 */
function notBeforeEpoch(text: string, ms: number): TimeParse {
  if (Number.isNaN(ms)) return { ok: false, reason: `'${shorten(text)}' is not a time; ${TIME_FORMS_HINT}` };
  if (ms < 0) return { ok: false, reason: `'${shorten(text)}' is before 1970-01-01 00:00 UTC (the earliest time the service takes)` };
  return { ok: true, ms };
}

function parseEpoch(text: string): TimeParse {
  const value = Number(text);
  if (value >= MIN_EPOCH_MS) {
    if (value > MAX_TIME_MS || !Number.isSafeInteger(value)) return { ok: false, reason: `'${shorten(text)}' is too large for a time` };
    return { ok: true, ms: value };
  }
  if (value >= 1_000_000_000) {
    return {
      ok: false,
      reason: `'${text}' looks like epoch seconds; give milliseconds (${text}000)`,
    };
  }
  return { ok: false, reason: `'${shorten(text)}' is not a time; ${TIME_FORMS_HINT}` };
}

function checkDate(y: number, mo: number, d: number): string | undefined {
  if (y < 1970) return 'year before 1970';
  if (mo < 1 || mo > 12) return `no month ${mo}`;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return `day ${d} is not in that month`;
  return undefined;
}

function checkClock(h: number, mi: number, s: number): string | undefined {
  if (h > 23) return `no hour ${h}`;
  if (mi > 59) return `no minute ${mi}`;
  if (s > 59) return `no second ${s}`;
  return undefined;
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 14 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

type SpanParse = { ok: true; ms: number } | { ok: false; reason: string };

/** A length of time, not a moment: 90d, 12w, 2160h, 30m, 45s (the units of "a span before now"), above zero. */
export function parseSpan(raw: string): SpanParse {
  const text = raw.trim();
  const span = /^(\d{1,9})\s*([smhdw])$/i.exec(text);
  if (!span) return { ok: false, reason: `'${shorten(text)}' is not a span; use a number and a unit: 90d, 12w, 2160h, 30m, 45s` };
  const ms = Number(span[1]) * UNIT_MS[(span[2] ?? 's').toLowerCase() as Unit];
  if (ms <= 0) return { ok: false, reason: `'${shorten(text)}': must be more than zero` };
  return { ok: true, ms };
}

/** Echoes operator input safely: control characters shown as '?', long text cut. */
export function shorten(text: string, max = 40): string {
  const visible = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return visible.length > max ? `${visible.slice(0, max - 1)}…` : visible;
}

/** A time as the operator would type it back: local 2026-11-01 12:00:30; one a Date cannot hold, as it came. */
export function formatLocalTime(time: ServiceTime, withSeconds = false): string {
  const ms = timeMs(time);
  if (ms === undefined) return typeof time === 'number' && !Number.isFinite(time) ? '?' : timeText(time);
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  const base = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
  return withSeconds ? `${base}:${two(d.getSeconds())}` : base;
}
