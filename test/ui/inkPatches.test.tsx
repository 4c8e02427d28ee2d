import React from 'react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { Text } from 'ink';
import { render as renderWithLibrary } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import widestLine from 'widest-line';
import Output from '../../node_modules/ink/build/output.js';
import { MAX_ROWS, MAX_SLICES, MAX_STYLED_LINES, MAX_WIDTHS, frameWithOwnCaches, inkCacheSizes, shareInkLineCaches } from '../../src/ui/ink/lineCaches';
import { rememberingWidestLine, remembers } from '../../src/ui/ink/widestLine.mjs';
import { PATCHED_MODULES, patchedFiles } from '../patchedInk.mjs';
import { withRememberingWidestLine } from '../../scripts/textPatches.mjs';
import { buildCli } from '../commands/helpers';
import { renderInTerminal } from './terminal';

// Lines like the console's: plain, styled (SGR), emoji, CJK, combining marks, wide characters at the edge.
const piece = fc.constantFrom('a', ' ', 'Z', '9', '\u200b', '\t', '│', '›', '😀', '👩‍💻', '漢', '字', 'é', 'e\u0301', '\u001b[1m', '\u001b[7m', '\u001b[22m', '\u001b[27m', '\u001b[32m', '\u001b[39m', '\u001b[4m', '\u001b[24m');
const line = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

type Transformer = (line: string, index: number) => string;
// Pure transformers like Ink's Text and chalk make: styling, and one that depends on the line's index.
const transformers: Record<string, Transformer> = {
  bold: (text) => `\u001b[1m${text}\u001b[22m`,
  upper: (text) => text.toUpperCase(),
  numbered: (text, index) => `${index}:${text}`,
};

type Op =
  | { type: 'write'; x: number; y: number; lines: string[]; transformers: string[] }
  | { type: 'clip'; x1?: number; x2?: number; y1?: number; y2?: number }
  | { type: 'unclip' };

const coordinate = fc.integer({ min: -3, max: 45 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('write' as const), x: coordinate, y: fc.integer({ min: -2, max: 9 }), lines: fc.array(line, { minLength: 1, maxLength: 3 }), transformers: fc.subarray(Object.keys(transformers)) }) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ type: fc.constant('clip' as const), x1: coordinate, x2: coordinate, y1: fc.integer({ min: -1, max: 8 }), y2: fc.integer({ min: -1, max: 8 }) }),
      fc.record({ type: fc.constant('clip' as const), x1: coordinate, x2: coordinate }),
      fc.record({ type: fc.constant('clip' as const), y1: fc.integer({ min: -1, max: 8 }), y2: fc.integer({ min: -1, max: 8 }) }),
    ),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'unclip' as const }) },
);

function fromOps(ops: readonly Op[], width: number, height: number): InstanceType<typeof Output> {
  const output = new Output({ width, height });
  for (const o of ops) {
    if (o.type === 'write') output.write(o.x, o.y, o.lines.join('\n'), { transformers: o.transformers.map((name) => transformers[name]!) });
    else if (o.type === 'clip') output.clip({ x1: o.x1, x2: o.x2, y1: o.y1, y2: o.y2 });
    else output.unclip();
  }
  return output;
}

/** The columns Ink's Output gives a line: each character at least one, a wide one its width. */
function stringWidthOfCells(text: string): number {
  let width = 0;
  for (const char of styledCharsFromTokens(tokenize(text))) width += Math.max(1, stringWidth(char.value));
  return width;
}

function build(lines: readonly string[], width: number): InstanceType<typeof Output> {
  const output = new Output({ width, height: lines.length });
  lines.forEach((text, y) => output.write(0, y, text, { transformers: [] }));
  return output;
}

describe("Ink's frames composed with caches shared across frames", () => {
  it('every frame is byte for byte the one Ink makes with caches of its own, frame after frame', () => {
    shareInkLineCaches();
    fc.assert(
      fc.property(fc.array(fc.array(line, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 40 }), (frames, width) => {
        // Frames repeat lines from one another (the shared caches' case) and differ in others.
        const walk = [...frames, ...frames.slice().reverse()];
        expect(walk.map((lines) => build(lines, width).get())).toEqual(walk.map((lines) => frameWithOwnCaches(build(lines, width))));
      }),
      { numRuns: 200 },
    );
  });

  it('overlapping writes, clips (nested, one axis or both), transformers, writes outside the frame: the same bytes as Ink', () => {
    shareInkLineCaches();
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 8 }), (frames, width, height) => {
        // Each frame twice and in reverse: rows met before come from the row cache.
        const walk = [...frames, ...frames.slice().reverse(), ...frames];
        expect(walk.map((ops) => fromOps(ops, width, height).get())).toEqual(walk.map((ops) => frameWithOwnCaches(fromOps(ops, width, height))));
      }),
      { numRuns: 150 },
    );
  });

  it('a transformer that puts in a line break: still what Ink makes', () => {
    shareInkLineCaches();
    const broken: Transformer = (text) => `${text}\nsecond`;
    const make = () => {
      const output = new Output({ width: 20, height: 3 });
      output.write(0, 0, 'one\ntwo', { transformers: [broken] });
      return output;
    };
    expect(make().get()).toEqual(frameWithOwnCaches(make()));
  });

  it('a long session of lines never seen again: each cache stays within its bound, and frames stay Ink\'s', () => {
    shareInkLineCaches();
    const perFrame = 6;
    const most = { styledLines: 0, pieces: 0, rows: 0 };
    const over: string[] = [];
    for (let frame = 0; frame < 1000; frame++) {
      // Styled lines (tokenised), plain ones (kept as they are), CJK; a clipped write over a row drawn before.
      const lines = Array.from({ length: perFrame }, (_, i) => (i % 2 === 0 ? `\u001b[1m${frame}·${i}\u001b[22m │ 漢字 ${frame * perFrame + i}` : `${frame}.${i} row ${frame * perFrame + i}`));
      const make = () => {
        const output = new Output({ width: 40, height: perFrame + 1 });
        lines.forEach((text, y) => output.write(0, y, text, { transformers: [] }));
        output.clip({ x1: 0, x2: 12, y1: 0, y2: perFrame + 1 });
        output.write(2, perFrame, lines[0]!, { transformers: [] });
        output.unclip();
        return output;
      };
      const got = make().get();
      if (frame % 100 === 0) expect(got).toEqual(frameWithOwnCaches(make()));
      const now = inkCacheSizes();
      most.styledLines = Math.max(most.styledLines, now.styledLines);
      most.pieces = Math.max(most.pieces, now.pieces);
      most.rows = Math.max(most.rows, now.rows);
      // A frame adds what it meets after the check at its start: at most its own lines over each bound.
      if (now.styledLines > MAX_STYLED_LINES + perFrame + 1) over.push(`frame ${frame}: ${now.styledLines} styled lines`);
      if (now.pieces > MAX_STYLED_LINES + perFrame + 1) over.push(`frame ${frame}: ${now.pieces} pieces`);
      if (now.rows > MAX_ROWS + perFrame + 1) over.push(`frame ${frame}: ${now.rows} rows`);
      if (now.slices > MAX_SLICES + 1) over.push(`frame ${frame}: ${now.slices} slices`);
      if (now.widths > MAX_WIDTHS + 4 * perFrame * 40) over.push(`frame ${frame}: ${now.widths} widths`);
    }
    expect(over).toEqual([]);
    // The bounds were reached (then the caches started afresh), not just never approached.
    expect(most.styledLines).toBeGreaterThanOrEqual(MAX_STYLED_LINES);
    expect(most.pieces).toBeGreaterThanOrEqual(MAX_STYLED_LINES);
    expect(most.rows).toBeGreaterThanOrEqual(MAX_ROWS);
  });

  it('property: writes side by side (touching or apart, styled at the join or not, plain or wide) make the bytes Ink makes', () => {
    shareInkLineCaches();
    // A row of writes left to right, each after the one before by 0-3 columns, as a table's cells are written.
    const row = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 3 }), text: line }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 60 }), (rows, width) => {
        const make = () => {
          const output = new Output({ width, height: rows.length });
          rows.forEach((writes, y) => {
            let x = 0;
            for (const { gap, text } of writes) {
              x += gap;
              output.write(x, y, text, { transformers: [] });
              x += stringWidthOfCells(text);
            }
          });
          return output;
        };
        const walk = [make(), make()];
        expect(walk.map((o) => o.get())).toEqual([frameWithOwnCaches(make()), frameWithOwnCaches(make())]);
      }),
      { numRuns: 300 },
    );
  });

  it('the frames do share: a line met before is not tokenised again', () => {
    shareInkLineCaches();
    const first = build(['shared line \u001b[1mbold\u001b[22m'], 40) as unknown as { get(): unknown; caches: unknown };
    first.get();
    const second = build(['shared line \u001b[1mbold\u001b[22m'], 40) as unknown as { get(): unknown; caches: unknown };
    second.get();
    expect(second.caches).toBe(first.caches);
  });
});

describe("Ink's renderer with widest-line remembering each text's width", () => {
  it('property: the width is widest-line\'s, the first time and every time after', () => {
    // The renderer's, made as Ink loaded (one per process).
    const rememberedWidestLine = rememberingWidestLine(widestLine);
    const text = fc.array(fc.constantFrom('a', ' ', '│', '›', '漢', '😀', '👩‍💻', 'e\u0301', '\n', '\u001b[1m', '\u001b[22m'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 10 }), (texts) => {
        const walk = [...texts, ...texts];
        expect(walk.map((t) => rememberedWidestLine(t))).toEqual(walk.map((t) => widestLine(t)));
      }),
      { numRuns: 200 },
    );
    const long = `${'漢│'.repeat(3000)}\n${'a'.repeat(10)}`;
    expect(rememberedWidestLine(long)).toBe(widestLine(long));
  });

  it("the tests' workers give it to Ink's renderer, as the bundle does: rendering a text makes it remembered", async () => {
    const text = `a text no frame showed before › ${Date.now()} 漢字`;
    expect(remembers(text)).toBe(false);
    const terminal = renderInTerminal(<Text>{text}</Text>, { columns: 80, rows: 5 });
    try {
      expect(terminal.stdout.lastFrame()).toContain('a text no frame showed before');
      expect(remembers(text)).toBe(true);
    } finally {
      terminal.unmount();
    }
  });

  it('ink-testing-library renders with the same Ink: its texts are remembered too', () => {
    const text = `a text ink-testing-library drew › ${Date.now()} 字`;
    expect(remembers(text)).toBe(false);
    const drawn = renderWithLibrary(<Text>{text}</Text>);
    try {
      expect(drawn.lastFrame()).toContain('ink-testing-library drew');
      expect(remembers(text)).toBe(true);
    } finally {
      drawn.unmount();
    }
  });

  it("the tests' Ink gives it to the renderer only, and the build gives it to the console's script", async () => {
    // The copies the tests load (test/patchedInk.mjs): the renderer wraps its widest-line, no other file does.
    expect(patchedFiles().sort()).toEqual([
      '@alcalzone/ansi-tokenize/build/tokenize.js',
      'ink/build/render-node-to-output.js',
      'slice-ansi/tokenize-ansi.js',
      'string-width/index.js',
      'wrap-ansi/node_modules/string-width/index.js',
    ]);
    const copy = (file: string) => readFileSync(join(PATCHED_MODULES, file), 'utf8');
    expect(copy('ink/build/render-node-to-output.js')).toMatch(/^import __bcWidestLine from 'widest-line';\nimport \{ rememberingWidestLine as __bcRemembering \} from "file:\/\/\/.*\/src\/ui\/ink\/widestLine\.mjs";\nconst widestLine = __bcRemembering\(__bcWidestLine\);\n/);
    expect(copy('ink/build/measure-text.js')).not.toContain('__bcRemembering');
    // A renderer that no longer imports widest-line as expected fails the patch, so the build and the tests' setup.
    expect(() => withRememberingWidestLine('/x/node_modules/ink/build/render-node-to-output.js', 'import widestLine from "widest-line";', 'w.mjs')).toThrow(/changed/);
    expect(await buildCli()).toMatch(/broker-console\.js$/);
  });
});
