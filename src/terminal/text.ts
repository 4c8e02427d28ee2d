// Text as the terminal shows it: widths are what the eye sees (string-width), and the commands' tables and the
// console's rows and lines are fitted here, by display width. The sanitiser (sanitize.ts) is re-exported: the
// console takes all of its text from here.
import stringWidth from 'string-width';
import { remembered } from './remembered';
import { graphemeSegmenter } from './graphemeSegmenter';
import { ELLIPSIS, sanitize } from './sanitize';

export { FIELD_LIMIT, LINE_LIMIT, continuesEmoji, escapeJsonText, grouped, plural, sanitize, sanitizeDeep, toJson, withoutMarked } from './sanitize';

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
