// Text not written by the project is hostile until it passes here (docs/design.md, the sanitiser): controls, escape sequences
// and bidi overrides become visible marks, and a field never breaks a line. No display widths here (text.ts has them): a
// command that prints no wide text then never loads string-width.

/** Graphemes of one field kept before layout: a 200,000-character field costs what a short one costs. */
export const FIELD_LIMIT = 1000;

/** A line of text may hold this many code points of outside text; anything longer is cut with "…". */
export const LINE_LIMIT = 4000;

/** What ends a text that was cut. */
export const ELLIPSIS = '…';

/** The visible mark for one code point that must not reach a terminal as it is, or undefined when it may. */
function markFor(cp: number): string | undefined {
  // C0 controls and DEL: their Unicode control pictures (ESC is ␛, LF ␊, CR ␍, BEL ␇, NUL ␀, DEL ␡).
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
  if (cp === 0x7f) return '\u2421';
  // C1 controls (0x9B is a one-byte CSI, 0x9D an OSC, 0x85 a line break), bidi embeddings, overrides and
  // isolates (U+202A–U+202E, U+2066–U+2069), line and paragraph separators, and lone surrogates.
  if (
    (cp >= 0x80 && cp <= 0x9f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c
  ) {
    return `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
  }
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
  return undefined;
}

// Invisible format characters (zero-width space and joiners, word joiner, BOM, tag characters, …) and the
// Hangul fillers, which draw nothing: two names differing only by one of them look the same.
const INVISIBLE = /[\p{Cf}\u115f\u1160\u3164\uffa0]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const TAG_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const isTag = (cp: number | undefined): boolean => cp !== undefined && cp >= 0xe0020 && cp <= 0xe007e;

/** Whether the invisible character at cps[i] is part of an emoji: a ZWJ between two pictographs, or the tags of a flag (🏴 + tags + cancel tag). */
function inEmoji(cps: readonly number[], i: number): boolean {
  const cp = cps[i]!;
  if (cp === 0x200d) {
    const before = cps[i - 1];
    const after = cps[i + 1];
    const joinsFrom =
      before !== undefined && (PICTOGRAPHIC.test(String.fromCodePoint(before)) || before === 0xfe0f || (before >= 0x1f3fb && before <= 0x1f3ff));
    return joinsFrom && after !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(after));
  }
  if (!isTag(cp) && cp !== CANCEL_TAG) return false;
  let start = i;
  while (isTag(cps[start - 1])) start -= 1;
  if (cp === CANCEL_TAG) return start < i && cps[start - 1] === TAG_FLAG;
  let end = i;
  while (isTag(cps[end + 1])) end += 1;
  return cps[start - 1] === TAG_FLAG && cps[end + 1] === CANCEL_TAG;
}

// Anything a mark is needed for; text without it (the common case) is returned as it is.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]|[\p{Cf}\u115f\u1160\u3164\uffa0]/u;

/**
 * One line of outside text made safe for a terminal: every control character (so every escape sequence:
 * CSI, OSC, DCS, APC and a lone ESC all start with one), DEL, C1 controls, bidi controls and invisible format
 * characters (but the joiners and tags inside an emoji) become visible marks; line breaks become ␊/␍ and never
 * start a new line. Longer than `limit` code points, it is cut with "…".
 */
export function sanitize(text: string, limit = FIELD_LIMIT): string {
  // limit+1 code points take at most 2*(limit+1) code units: nothing past that can be shown.
  const cut = text.length > 2 * limit + 2 ? text.slice(0, 2 * limit + 2) : text;
  if (cut === text && text.length <= limit && !UNSAFE.test(text)) return text;
  let out = '';
  let count = 0;
  const cps = Array.from(cut, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < cps.length; i += 1) {
    if (count === limit) return out + ELLIPSIS;
    const cp = cps[i]!;
    const ch = String.fromCodePoint(cp);
    const invisible = INVISIBLE.test(ch) && !inEmoji(cps, i) ? `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>` : undefined;
    out += markFor(cp) ?? invisible ?? ch;
    count += 1;
  }
  return cut === text ? out : out + ELLIPSIS;
}

/**
 * Typed one code point at a time, an emoji's joiner or tag arrives before what it joins: it may follow a
 * pictograph (a joiner) or a flag and its tags (a tag), and is marked later only if nothing completes it.
 */
export function continuesEmoji(before: string, input: string): boolean {
  const cps = Array.from(input, (ch) => ch.codePointAt(0)!);
  const last = Array.from(before.slice(-64), (ch) => ch.codePointAt(0)!);
  if (cps.length !== 1) return false;
  const cp = cps[0]!;
  const previous = last[last.length - 1];
  if (cp === 0x200d)
    return previous !== undefined && (PICTOGRAPHIC.test(String.fromCodePoint(previous)) || previous === 0xfe0f || (previous >= 0x1f3fb && previous <= 0x1f3ff));
  if (!isTag(cp) && cp !== CANCEL_TAG) return false;
  let start = last.length;
  while (isTag(last[start - 1])) start -= 1;
  return last[start - 1] === TAG_FLAG && (cp !== CANCEL_TAG || start < last.length);
}

/** U+202E: how a code point is named in a message. */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first code point sanitize would mark (a control, a bidi control, an invisible character outside an emoji), if any. */
export function firstMarked(text: string): number | undefined {
  if (!UNSAFE.test(text)) return undefined;
  const cps = Array.from(text, (ch) => ch.codePointAt(0)!);
  return cps.find((cp, i) => markFor(cp) !== undefined || (INVISIBLE.test(String.fromCodePoint(cp)) && !inEmoji(cps, i)));
}

/** The text without every code point sanitize would mark (the joiners and tags of an emoji stay). */
export function withoutMarked(text: string): string {
  if (!UNSAFE.test(text)) return text;
  const cps = Array.from(text, (ch) => ch.codePointAt(0)!);
  let out = '';
  for (let i = 0; i < cps.length; i += 1) {
    const cp = cps[i]!;
    const ch = String.fromCodePoint(cp);
    if (markFor(cp) === undefined && !(INVISIBLE.test(ch) && !inEmoji(cps, i))) out += ch;
  }
  return out;
}

// Characters JSON.stringify leaves raw that must not reach a reader raw: DEL, C1 controls, line and
// paragraph separators, bidi marks, embeddings, overrides and isolates (C0 it escapes itself).
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with every character a terminal or a reader could be fooled by written as a \uXXXX escape:
 * JSON.stringify escapes C0 controls; this adds DEL, C1, U+2028/2029 and bidi controls. The data is
 * unchanged (JSON.parse gives back exactly what was stringified). Outside strings JSON text is ASCII,
 * so the replacement can only touch string contents.
 */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON.stringify followed by escapeJsonText: exact data, no raw control or bidi character in the text. */
export function toJson(value: unknown, space?: number): string {
  return escapeJsonText(JSON.stringify(value, null, space));
}

/** A JSON-like value with every string in it (keys too) sanitised: what a terminal may be shown of data. */
export function sanitizeDeep<T>(value: T, limit = FIELD_LIMIT): T {
  if (typeof value === 'string') return sanitize(value, limit) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => sanitizeDeep(v, limit)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[sanitize(k, limit)] = sanitizeDeep(v, limit);
    return out as T;
  }
  return value;
}

/**
 * A whole number as en-US writes it, with thousands separators ("1,000,000"), without ICU: the first
 * toLocaleString() loads ICU's number data, which the command line's help texts would pay for before the
 * console's first frame. Anything but a safe integer is left to toLocaleString.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** "1 page", "2,000 pages": a count and its word (`many` where adding an s will not do). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${grouped(n)} ${n === 1 ? word : many}`;
}
