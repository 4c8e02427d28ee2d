// Text not written by the project is hostile until it passes here (docs/design.md, the sanitiser): controls, escape sequences
// and bidi overrides become visible marks, a field never breaks a line, and widths are what the eye sees.
// The commands' tables and the console's rows and lines are fitted here too, by display width.
import stringWidth from 'string-width';
import { remembered } from './remembered.mjs';
import { graphemeSegmenter } from './graphemeSegmenter.mjs';

/** Graphemes of one field kept before layout: a 200,000-character field costs what a short one costs. */
export const FIELD_LIMIT = 1000;

const ELLIPSIS = '…';

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

// Printable ASCII: one grapheme and one cell per character, so the fast paths below can skip segmentation.
const PLAIN = /^[\x20-\x7e]*$/;

/** The grapheme clusters of a text: what the eye sees as one character (an emoji with its modifiers, a letter with its accents). */
export function graphemes(text: string): string[] {
  if (PLAIN.test(text)) return text.split('');
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

/** Widths of non-ASCII texts met before: a frame measures the same labels and cells as the last one did. */
const widthOf = remembered(stringWidth, { maxTexts: 10_000, maxLength: 512 });

/** Terminal cells the text takes (CJK and most emoji take two; combining marks none). */
export function displayWidth(text: string): number {
  return PLAIN.test(text) ? text.length : widthOf(text);
}

/** The longest start of `text` that fits in `width` cells, cut at a grapheme boundary. */
export function takeWidth(text: string, width: number): string {
  if (PLAIN.test(text)) return text.slice(0, Math.max(0, width));
  let used = 0;
  let out = '';
  for (const g of graphemes(text)) {
    const w = stringWidth(g);
    if (used + w > width) break;
    used += w;
    out += g;
  }
  return out;
}

/** Exactly `width` cells: cut with "…" when longer, padded with spaces when shorter (by display width). */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const w = displayWidth(text);
  if (w > width) {
    const head = takeWidth(text, width - 1);
    return head + ELLIPSIS + ' '.repeat(width - 1 - displayWidth(head));
  }
  const pad = ' '.repeat(width - w);
  return align === 'right' ? pad + text : text + pad;
}

/** Outside text made safe and fitted to a cell: the one call a table cell needs. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  return fit(sanitize(text, Math.max(width, 1) + 1), width, align);
}

/** Hard-wraps text into lines of at most `width` cells, cut at grapheme boundaries (for values that must be shown whole). */
export function wrapByWidth(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = displayWidth(g);
    if (used + w > Math.max(1, width) && line !== '') {
      lines.push(line);
      line = '';
      used = 0;
    }
    line += g;
    used += w;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
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
 * Word-wraps text as it is (no sanitising) at spaces into lines of at most `width` cells; a word longer than a
 * line is cut at grapheme boundaries.
 */
export function wrapWords(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (displayWidth(next) <= room) {
      line = next;
      continue;
    }
    if (line !== '') lines.push(line);
    const pieces = wrapByWidth(word, room);
    line = pieces.pop() ?? '';
    lines.push(...pieces);
  }
  lines.push(line);
  return lines;
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

/** Exactly `width` cells keeping the end of the text ("…" first when cut): breadcrumbs, paths. */
export function fitEnd(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return fit(text, width);
  const parts = graphemes(text);
  let used = 0;
  let from = parts.length;
  while (from > 0) {
    const w = displayWidth(parts[from - 1]!);
    if (used + w > width - 1) break;
    used += w;
    from -= 1;
  }
  return fit(`…${parts.slice(from).join('')}`, width);
}

/** At most `width` cells, never padded: for the end of a line. */
export function clip(text: string, width: number): string {
  return displayWidth(text) <= width ? text : fit(text, width).trimEnd();
}

/**
 * Outside text wrapped at spaces and after commas into lines of at most `width` cells (a piece longer than a
 * line is cut at grapheme boundaries); at most `maxLines`, the last one ending in "…" when text was left out.
 */
export function wrapText(text: string, width: number, maxLines = Infinity): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  // Each piece keeps the space or comma after it: a list like "a,b,c" breaks after a comma, never inside a name.
  for (const piece of sanitize(text).split(/(?<=[ ,])/)) {
    const candidate = line + piece;
    if (displayWidth(candidate.trimEnd()) <= w) {
      line = candidate;
      continue;
    }
    if (line.trim() !== '') lines.push(line.trimEnd());
    if (displayWidth(piece.trimEnd()) <= w) {
      line = piece.trimStart();
    } else {
      const pieces = wrapByWidth(piece.trimEnd(), w);
      lines.push(...pieces.slice(0, -1));
      line = `${pieces.at(-1) ?? ''}${piece.endsWith(' ') ? ' ' : ''}`;
    }
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = kept.length - 1;
  kept[last] = `${takeWidth(kept[last]!, w - 1)}…`;
  return kept;
}

/**
 * The console's own multi-line message (its line breaks are layout, not outside text): each line wrapped as
 * wrapText does, the whole capped at `maxLines` the same way.
 */
export function wrapMessage(text: string, width: number, maxLines = Infinity): string[] {
  const lines = text.split(/\r?\n/).flatMap((line) => wrapText(line, width));
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = kept.length - 1;
  kept[last] = `${takeWidth(kept[last]!, Math.max(1, width) - 1)}…`;
  return kept;
}

/** A budget of lines: each call takes what it wants of what is left (never below zero) and says how many it got. */
export function roomFor(total: number): (want: number) => number {
  let left = Math.max(0, total);
  return (want) => {
    const got = Math.max(0, Math.min(want, left));
    left -= got;
    return got;
  };
}
