// Fitting text into fixed-width cells and lines, by display width (CJK and emoji take two cells), for rows
// that never wrap. Outside text goes through `sanitize` (or `cell`) first: see src/terminal/text.ts.
import { displayWidth, fit as fitWidth, graphemes, sanitize, takeWidth, wrapByWidth } from '../terminal/text';

export { cell, displayWidth, sanitize } from '../terminal/text';

/** Exactly `width` cells: cut with "…" when longer, padded when shorter (display width). */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  return fitWidth(text, width, align);
}

/** Exactly `width` cells keeping the end of the text ("…" first when cut): breadcrumbs, paths. */
export function fitEnd(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return fitWidth(text, width);
  const parts = graphemes(text);
  let used = 0;
  let from = parts.length;
  while (from > 0) {
    const w = displayWidth(parts[from - 1]!);
    if (used + w > width - 1) break;
    used += w;
    from -= 1;
  }
  return fitWidth(`…${parts.slice(from).join('')}`, width);
}

/** At most `width` cells, never padded: for the end of a line. */
export function clip(text: string, width: number): string {
  return displayWidth(text) <= width ? text : fitWidth(text, width).trimEnd();
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
    line = '';
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

/** A budget of lines: each call takes what it wants of what is left (never below zero) and says how many it got. */
export function roomFor(total: number): (want: number) => number {
  let left = Math.max(0, total);
  return (want) => {
    const got = Math.max(0, Math.min(want, left));
    left -= got;
    return got;
  };
}

// One way to shorten a key and to show a local time, for the console, the commands and the log file alike.
export { shortenApiKey as shortKey } from '../config/logFile';
export { formatLocalTime as localTime } from '../api/timeInput';
