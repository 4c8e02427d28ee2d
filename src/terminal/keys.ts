// Input arrives in chunks that may hold many keys (fast typing, a held key over SSH, a script, a paste).
// This splits them into single keys before any screen sees one, and turns a bracketed paste into one
// piece of text that is never read as keys.
import { graphemes } from './text';

export type InputEvent = { kind: 'key'; sequence: string } | { kind: 'paste'; text: string };

export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';
/** Turn bracketed paste on / off (xterm, tmux, VTE, iTerm2, Windows Terminal all honour it). */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
/** A paste is kept up to this many UTF-16 units; no field takes more (the rest is dropped, not typed). */
const PASTE_LIMIT = 64 * 1024;

const ESC = '\u001b';

/** Length of the escape sequence starting at `at` (an ESC), 0 if it may still be incomplete. */
function escapeLength(text: string, at: number): number {
  const next = text[at + 1];
  if (next === undefined) return 0;
  if (next === '[') {
    let i = at + 2;
    if (text[i] === '[') i += 1; // legacy function keys: ESC [ [ A
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c <= 0x3f) continue; // parameter and intermediate bytes
      if (c >= 0x40 && c <= 0x7e) return i - at + 1; // final byte
      return i - at; // malformed: stop before the odd byte, which is a key of its own
    }
    return 0;
  }
  if (next === 'O') return text.length > at + 2 ? 3 : 0; // SS3: ESC O P
  // ESC ESC is Escape twice (the console binds no alt key, so ESC ESC [A is Escape, then Up).
  if (next === ESC) return 1;
  // Alt+backspace (ESC DEL) deletes a word. Any other ESC + character is Escape, then that key: alt+j
  // and Esc j in one write cannot be told apart, and the console binds no alt key, so keys that arrive
  // together do what they do one by one.
  if (next === '\u007f' || next === '\b') return 2;
  return 1;
}

/**
 * Splits terminal input into keys and pastes. Feed it chunks with `push`; a chunk that ends in the middle
 * of an escape sequence or a paste keeps the rest pending until the next chunk (or `flush`, after a pause:
 * a lone ESC is the Escape key).
 */
export class KeySplitter {
  private pending = '';
  private paste: string | undefined;

  push(chunk: string): InputEvent[] {
    const events: InputEvent[] = [];
    const text = this.pending + chunk;
    this.pending = '';
    let i = 0;
    while (i < text.length) {
      if (this.paste !== undefined) {
        const end = text.indexOf(PASTE_END, i);
        if (end === -1) {
          // Keep a tail that could be the start of the end marker; the rest is pasted text.
          const keep = Math.min(PASTE_END.length - 1, text.length - i);
          this.appendPaste(text.slice(i, text.length - keep));
          this.pending = text.slice(text.length - keep);
          return events;
        }
        this.appendPaste(text.slice(i, end));
        events.push({ kind: 'paste', text: this.paste });
        this.paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = text[i]!;
      if (ch === ESC) {
        if (text.startsWith(PASTE_START, i)) {
          this.paste = '';
          i += PASTE_START.length;
          continue;
        }
        const length = escapeLength(text, i);
        if (length === 0) {
          this.pending = text.slice(i);
          return events;
        }
        events.push({ kind: 'key', sequence: text.slice(i, i + length) });
        i += length;
        continue;
      }
      const code = ch.charCodeAt(0);
      if (code < 0x20 || code === 0x7f) {
        // A line feed is Enter: keys typed before raw mode was on went through the terminal's line discipline,
        // which turns Enter into a line feed (ICRNL); in raw mode a line feed is ctrl+j, bound to nothing.
        events.push({ kind: 'key', sequence: ch === '\n' ? '\r' : ch });
        i += 1;
        continue;
      }
      // A run of printable text: one key per grapheme, so an emoji with its modifiers is one key.
      let end = i + 1;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (c < 0x20 || c === 0x7f || c === 0x1b) break;
        end += 1;
      }
      for (const g of graphemes(text.slice(i, end))) events.push({ kind: 'key', sequence: g });
      i = end;
    }
    return events;
  }

  /** True when the start of an escape sequence is held back: after a short pause it is the Escape key. */
  hasPendingEscape(): boolean {
    return this.pending !== '' && this.paste === undefined;
  }

  /** True inside a paste whose end marker has not come yet. */
  inPaste(): boolean {
    return this.paste !== undefined;
  }

  /** After a pause with nothing more: a held-back ESC is the Escape key; an unfinished paste is pasted as it is. */
  flush(): InputEvent[] {
    const events: InputEvent[] = [];
    if (this.paste !== undefined) {
      this.appendPaste(this.pending);
      events.push({ kind: 'paste', text: this.paste });
      this.paste = undefined;
      this.pending = '';
      return events;
    }
    const rest = this.pending;
    this.pending = '';
    if (rest === '') return events;
    // ESC alone, or ESC [ with parameters that never finished: each character is a key of its own.
    events.push({ kind: 'key', sequence: ESC });
    if (rest.length > 1) events.push(...this.push(rest.slice(1)));
    return events;
  }

  private appendPaste(text: string): void {
    if (this.paste === undefined || this.paste.length >= PASTE_LIMIT) return;
    this.paste += text.slice(0, PASTE_LIMIT - this.paste.length);
  }
}
