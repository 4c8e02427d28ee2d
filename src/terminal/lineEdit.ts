// One line of text being edited, as the eye sees it: the cursor moves over grapheme clusters (an emoji
// with its modifiers, a letter with its accent), and ctrl+a/e/u/w/k edit as in a shell.
import { continuesEmoji, displayWidth, graphemes, withoutMarked } from './text';

export interface LineEdit {
  value: string;
  /** UTF-16 offset, always on a grapheme boundary. */
  cursor: number;
}

/** What of a key press editing needs (Ink's Key has these and more). */
export interface EditKey {
  backspace: boolean;
  delete: boolean;
  leftArrow: boolean;
  rightArrow: boolean;
  home: boolean;
  end: boolean;
  ctrl: boolean;
  meta: boolean;
}

/** Boundaries of the value's graphemes: 0, then the end of each. */
function boundaries(value: string): number[] {
  const at = [0];
  let offset = 0;
  for (const g of graphemes(value)) at.push((offset += g.length));
  return at;
}

const before = (value: string, cursor: number) => [...boundaries(value)].reverse().find((b) => b < cursor) ?? 0;
const after = (value: string, cursor: number) => boundaries(value).find((b) => b > cursor) ?? value.length;

/** Text fit for one line: line breaks and tabs become `lineBreak`/a space, other controls and bidi marks are dropped. */
export function cleanText(text: string, lineBreak = ' '): string {
  // A list's separator (", ") takes the place of every comma, blank and blank line around a break; a space, of a
  // run of breaks and the blanks around them (a terminal may deliver CRLF as two CRs).
  const breaks = lineBreak.trim() === ',' ? /[ \t,]*(?:\r\n|\r|\n)[ \t,\r\n]*/g : /[ \t]*(?:(?:\r\n|\r|\n)[ \t]*)+/g;
  const joined = text.replace(breaks, lineBreak).replace(/\t/g, ' ');
  return withoutMarked(joined);
}

/** A paste made fit for one line: a trailing line break (copying a whole line brings one) is dropped. */
export function pastedText(text: string, lineBreak = ' '): string {
  return cleanText(text.replace(/(\r\n|\r|\n)+$/, ''), lineBreak);
}

/** Inserts text at the cursor. */
export function insert(edit: LineEdit, text: string): LineEdit {
  if (text === '') return edit;
  return { value: edit.value.slice(0, edit.cursor) + text + edit.value.slice(edit.cursor), cursor: edit.cursor + text.length };
}

/**
 * Applies one key to the line: the new line when the key edits or moves (possibly unchanged, e.g. left at
 * the start), undefined when it is not the line's key (the caller leaves it to the screen).
 */
export function applyKey(edit: LineEdit, input: string, key: EditKey, reserved = ''): LineEdit | undefined {
  const { value, cursor } = edit;
  if (key.leftArrow && !key.ctrl && !key.meta) return { value, cursor: before(value, cursor) };
  if (key.rightArrow && !key.ctrl && !key.meta) return { value, cursor: after(value, cursor) };
  if (key.home || (key.ctrl && input === 'a')) return { value, cursor: 0 };
  if (key.end || (key.ctrl && input === 'e')) return { value, cursor: value.length };
  if (key.ctrl && input === 'u') return { value: value.slice(cursor), cursor: 0 };
  if (key.ctrl && input === 'k') return { value: value.slice(0, cursor), cursor };
  if ((key.ctrl && input === 'w') || (key.meta && key.backspace)) {
    const head = value.slice(0, cursor).replace(/\S+\s*$|\s+$/u, '');
    return { value: head + value.slice(cursor), cursor: head.length };
  }
  if (key.backspace) {
    const from = before(value, cursor);
    return { value: value.slice(0, from) + value.slice(cursor), cursor: from };
  }
  if (key.delete) return { value: value.slice(0, cursor) + value.slice(after(value, cursor)), cursor };
  // Enter, Tab, Esc and every other control are the screen's; only printable text is typed.
  if (key.ctrl || key.meta || input === '') return undefined;
  if (cleanText(input, '') !== input && !continuesEmoji(value.slice(0, cursor), input)) return undefined;
  if ([...input].some((ch) => reserved.includes(ch))) return undefined;
  return insert(edit, input);
}

interface Viewport {
  /** What to draw before the cursor cell, the cursor cell's character (a space at the end), and after. */
  head: string;
  at: string;
  tail: string;
  /** The first grapheme shown, to keep the view steady from one key to the next. */
  start: number;
}

/**
 * The part of the line that fits in `width` cells with the cursor visible; "…" marks text cut on either
 * side. `start` is the previous first grapheme shown (the view moves only as far as the cursor needs).
 */
export function viewport(edit: LineEdit, width: number, start = 0): Viewport {
  const parts = graphemes(edit.value);
  let index = 0;
  for (let offset = 0; offset < edit.cursor && index < parts.length; index++) offset += parts[index]!.length;
  const widths = parts.map(displayWidth);
  const sum = (from: number, to: number) => widths.slice(from, to).reduce((a, b) => a + b, 0);
  const cursorWidth = widths[index] ?? 1;
  const room = Math.max(1, width);
  if (sum(0, parts.length) + (index === parts.length ? 1 : 0) <= room) start = 0;
  else {
    // Text after the cursor needs at least one cell (itself or "…"); text cut on the left shows "…".
    const reserve = index + 1 < parts.length ? 1 : 0;
    start = Math.min(start, index);
    while (start < index && (start > 0 ? 1 : 0) + sum(start, index) + cursorWidth + reserve > room) start += 1;
    // No room left empty on the right while text is hidden on the left (a shorter value after a longer one).
    const end = sum(0, parts.length) + (index === parts.length ? 1 : 0);
    while (start > 0 && (start - 1 > 0 ? 1 : 0) + end - sum(0, start - 1) <= room) start -= 1;
  }
  let used = 0;
  let head = '';
  if (start > 0 && 1 + sum(start, index) + cursorWidth <= room) {
    head = '…';
    used = 1;
  }
  head += parts.slice(start, index).join('');
  used += sum(start, index) + cursorWidth;
  const at = parts[index] ?? ' ';
  let tail = '';
  for (let i = index + 1; i < parts.length; i++) {
    const last = i === parts.length - 1;
    if (used + widths[i]! + (last ? 0 : 1) > room) {
      if (used < room) tail += '…';
      break;
    }
    tail += parts[i];
    used += widths[i]!;
  }
  return { head, at, tail, start };
}
