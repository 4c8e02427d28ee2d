// Ink builds each frame in a fresh Output: a grid of cells for the whole screen, every line tokenised into
// styled characters, then every row turned back into a string. Between two frames most rows are the same, so
// here (1) the caches of a line's characters and width live across frames, and (2) a row whose writes are
// the same as in an earlier frame gets that frame's string back without building its cells. A row's string
// depends only on the frame's width and the ordered (x, line) writes into it, which is the cache key; a row
// not met before is composed by Ink's own code. Every frame is byte for byte Ink's (checked by
// test/ui/inkPatches.test.tsx against Ink 6.8's Output, pinned in package-lock.json); only the CPU differs.
// Ink exports only its entry: its Output class is imported by file, the module Ink itself uses (the bundle
// and vitest both resolve it to the same file).
import { type StyledChar, styledCharsToString } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import Output from '../../../node_modules/ink/build/output.js';

interface OutputCaches {
  styledChars: Map<string, unknown>;
  getStyledChars(line: string): StyledChar[];
  widths: Map<string, number>;
  blockWidths: Map<string, number>;
  getStringWidth(text: string): number;
  getWidestLine(text: string): number;
}

interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}

type Transformer = (line: string, index: number) => string;
type Operation = { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] } | { type: 'clip'; clip: Clip } | { type: 'unclip' };

interface InkOutput {
  width: number;
  height: number;
  operations: Operation[];
  caches?: OutputCaches;
}

type Frame = { output: string; height: number };
type Get = (this: InkOutput) => Frame;

// What each cache keeps before it starts afresh, so memory stays bounded over a long session: a line's styled
// characters are an object per character (~10 KB for a wide line), a row is a string, a width a number.
export const MAX_STYLED_LINES = 2_000;
export const MAX_ROWS = 5_000;
export const MAX_SLICES = 5_000;
export const MAX_WIDTHS = 20_000;

let shared = false;
let sizes = (): CacheSizes => ({ styledLines: 0, pieces: 0, widths: 0, rows: 0, slices: 0 });

export interface CacheSizes {
  styledLines: number;
  /** Lines kept as the text they write on their own (joinedRow). */
  pieces: number;
  widths: number;
  rows: number;
  slices: number;
}

/** How much the shared caches hold now (the tests check the bounds hold). */
export function inkCacheSizes(): CacheSizes {
  return sizes();
}

const ownGet = (Output.prototype as unknown as { get: Get }).get;

/** A frame made the way Ink makes it, caches for this frame only (what the tests compare against). */
export function frameWithOwnCaches(output: Output): Frame {
  return ownGet.call(output as unknown as InkOutput);
}

/** Once per process; a no-op when this Ink's Output has no such caches (another version). */
export function shareInkLineCaches(): void {
  if (shared) return;
  shared = true;
  const proto = Output.prototype as unknown as { get: Get };
  const caches = (new Output({ width: 0, height: 0 }) as unknown as InkOutput).caches;
  if (!caches || !(caches.styledChars instanceof Map) || !(caches.widths instanceof Map) || !(caches.blockWidths instanceof Map)) return;
  const rows = new Map<string, string>();
  const slices = new Map<string, string>();
  const pieces = new Map<string, Piece>();
  sizes = () => ({ styledLines: caches.styledChars.size, pieces: pieces.size, widths: caches.widths.size + caches.blockWidths.size, rows: rows.size, slices: slices.size });
  proto.get = function (this: InkOutput): Frame {
    if (caches.styledChars.size > MAX_STYLED_LINES) caches.styledChars.clear();
    if (caches.widths.size + caches.blockWidths.size > MAX_WIDTHS) {
      caches.widths.clear();
      caches.blockWidths.clear();
    }
    if (rows.size > MAX_ROWS) rows.clear();
    if (slices.size > MAX_SLICES) slices.clear();
    if (pieces.size > MAX_STYLED_LINES) pieces.clear();
    this.caches = caches;
    const writes = rowWrites(this, caches, slices);
    // Something this code does not know (another Ink): Ink's own get, with the shared caches.
    if (writes === undefined) return ownGet.call(this);
    const lines: string[] = [];
    for (const row of writes) {
      let key = String(this.width);
      for (const write of row) key += `\u0000${write.x},${write.line.length}\u0000${write.line}`;
      let text = rows.get(key);
      if (text === undefined) {
        text = joinedRow(this.width, row, caches, pieces) ?? composeRow(this.width, row, caches);
        rows.set(key, text);
      }
      lines.push(text);
    }
    return { output: lines.join('\n'), height: this.height };
  };
}

interface RowWrite {
  x: number;
  line: string;
}

/**
 * The (x, line) writes into each row, in order, after clips and transformers: Ink's Output.get loop with the
 * cell writes left out. Undefined for what it does not reproduce (an unknown operation, a transformed line break).
 */
function rowWrites(output: InkOutput, caches: OutputCaches, slices: Map<string, string>): RowWrite[][] | undefined {
  const rows: RowWrite[][] = Array.from({ length: output.height }, () => []);
  const clips: Clip[] = [];
  for (const operation of output.operations) {
    if (operation.type === 'clip') {
      clips.push(operation.clip);
      continue;
    }
    if (operation.type === 'unclip') {
      clips.pop();
      continue;
    }
    if (operation.type !== 'write') return undefined;
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split('\n');
    const clip = clips.at(-1);
    if (clip) {
      const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
      const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
      if (clipHorizontally) {
        const width = caches.getWidestLine(text);
        if (x + width < clip.x1! || x > clip.x2!) continue;
      }
      if (clipVertically) {
        if (y + lines.length < clip.y1! || y > clip.y2!) continue;
      }
      if (clipHorizontally) {
        const x1 = clip.x1!;
        const x2 = clip.x2!;
        lines = lines.map((line) => {
          const from = x < x1 ? x1 - x : 0;
          const width = caches.getStringWidth(line);
          const to = x + width > x2 ? x2 - x : width;
          const key = `${from},${to}\u0000${line}`;
          let slice = slices.get(key);
          if (slice === undefined) {
            slice = sliceAnsi(line, from, to);
            slices.set(key, slice);
          }
          return slice;
        });
        if (x < x1) x = x1;
      }
      if (clipVertically) {
        const y1 = clip.y1!;
        const y2 = clip.y2!;
        const from = y < y1 ? y1 - y : 0;
        const to = y + lines.length > y2 ? y2 - y : lines.length;
        lines = lines.slice(from, to);
        if (y < y1) y = y1;
      }
    }
    let offsetY = 0;
    for (let [index, line] of lines.entries()) {
      const row = rows[y + offsetY];
      // Ink skips a line outside the frame without moving to the next row: so does this.
      if (!row) continue;
      for (const transformer of transformers) line = transformer(line, index);
      // A line break put in by a transformer stays one row's character in Ink's loop; rare: Ink's own get.
      if (line.includes('\n')) return undefined;
      row.push({ x, line });
      offsetY++;
    }
  }
  return rows;
}

/** One row as Ink composes it: its own get on a one-row Output holding just this row's writes. */
function composeRow(width: number, writes: readonly RowWrite[], caches: OutputCaches): string {
  const row = new Output({ width, height: 1 }) as unknown as InkOutput;
  row.caches = caches;
  for (const { x, line } of writes) row.operations.push({ type: 'write', x, y: 0, text: line, transformers: [] });
  return ownGet.call(row).output;
}

/**
 * A line as Ink's row string writes it on its own: `text` is what its cells turn into (styles opened where
 * they start, closed at its end), `width` the columns its cells take, and whether its first and last cells
 * carry a style.
 */
interface Piece {
  text: string;
  width: number;
  styledStart: boolean;
  styledEnd: boolean;
}

// Printable ASCII: one cell per character, no style; the line is its own text.
const PLAIN = /^[\x20-\x7e]*$/;

function pieceOf(line: string, caches: OutputCaches, pieces: Map<string, Piece>): Piece {
  let piece = pieces.get(line);
  if (piece !== undefined) return piece;
  if (PLAIN.test(line)) {
    piece = { text: line, width: line.length, styledStart: false, styledEnd: false };
  } else {
    const chars = caches.getStyledChars(line);
    let width = 0;
    // As Ink places them: every character takes at least one cell, a wide one its width.
    for (const char of chars) width += Math.max(1, caches.getStringWidth(char.value));
    piece = { text: styledCharsToString(chars), width, styledStart: (chars[0]?.styles.length ?? 0) > 0, styledEnd: (chars.at(-1)?.styles.length ?? 0) > 0 };
  }
  pieces.set(line, piece);
  return piece;
}

/**
 * A row whose writes sit side by side, each within the frame, none over another, is the writes' texts joined
 * with spaces where nothing was written: Ink's row string emits, between two cells, the codes that go from
 * one's style to the other's, which is the first one's closing codes then the second one's opening codes
 * whenever either of the two has no style (an unwritten cell is a space with none). Two writes that touch
 * where both are styled, an overlap, a write out of order or past the edge: undefined, Ink composes it.
 */
function joinedRow(width: number, writes: readonly RowWrite[], caches: OutputCaches, pieces: Map<string, Piece>): string | undefined {
  let text = '';
  let column = 0;
  let styledEnd = false;
  for (const { x, line } of writes) {
    const piece = pieceOf(line, caches, pieces);
    if (piece.width === 0) continue;
    if (x < column || x + piece.width > width) return undefined;
    if (x === column && styledEnd && piece.styledStart) return undefined;
    text += ' '.repeat(x - column) + piece.text;
    column = x + piece.width;
    styledEnd = piece.styledEnd;
  }
  return text.trimEnd();
}
