import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import Output from '../../node_modules/ink/build/output.js';
import { frameWithOwnCaches, shareInkLineCaches } from '../../src/ui/inkLineCaches';

// Lines like the console's: plain, styled (SGR), emoji, CJK, combining marks, wide characters at the edge.
const piece = fc.constantFrom('a', ' ', 'Z', '9', '│', '›', '😀', '👩‍💻', '漢', '字', 'é', 'e\u0301', '\u001b[1m', '\u001b[7m', '\u001b[22m', '\u001b[27m', '\u001b[32m', '\u001b[39m', '\u001b[4m', '\u001b[24m');
const line = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

function build(lines: readonly string[], width: number): InstanceType<typeof Output> {
  const output = new Output({ width, height: lines.length });
  lines.forEach((text, y) => output.write(0, y, text, { transformers: [] }));
  return output;
}

describe("Ink's line caches shared across frames", () => {
  it('every frame is byte for byte the one Ink makes with caches of its own, frame after frame', () => {
    shareInkLineCaches();
    fc.assert(
      fc.property(fc.array(fc.array(line, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 40 }), (frames, width) => {
        // Frames repeat lines from one another (the shared caches' case) and differ in others.
        for (const lines of [...frames, ...frames.slice().reverse()]) {
          const shared = build(lines, width).get();
          const own = frameWithOwnCaches(build(lines, width));
          expect(shared).toEqual(own);
        }
      }),
      { numRuns: 200 },
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
