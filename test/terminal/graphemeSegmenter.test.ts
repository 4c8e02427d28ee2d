// src/terminal/graphemeSegmenter.ts against ICU: every character it answers for alone is a cluster of its own
// whatever its neighbours, and for any text its segments are Intl.Segmenter's, iterated or looked up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIMPLE, graphemeSegmenter } from '../../src/terminal/graphemeSegmenter';
import { anyText } from '../arbitraries';

const icu = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const icuSegments = (text: string) => Array.from(icu.segment(text), ({ segment, index, input }) => ({ segment, index, input }));
const ourSegments = (text: string) => Array.from(graphemeSegmenter.segment(text), ({ segment, index, input }) => ({ segment, index, input }));

const simpleCharacters = (): string[] => {
  const found: string[] = [];
  for (let cp = 0; cp <= 0xffff; cp += 1) if (SIMPLE.test(String.fromCharCode(cp))) found.push(String.fromCharCode(cp));
  return found;
};

describe('the grapheme segmenter without ICU', () => {
  it('answers alone only for characters that never join a neighbour (each checked against ICU)', () => {
    const simple = simpleCharacters();
    expect(simple.length).toBeGreaterThan(2000);
    // What a cluster can join with: itself (Regional_Indicator, Hangul L/V/T), a letter after (Prepend), a letter
    // before (Extend, ZWJ, SpacingMark), a Hangul vowel or final after (Hangul L, V, LV, LVT), LF after (CR).
    const neighbours = ['a', '\u1161', '\u11a8', '\n'];
    const joined: string[] = [];
    for (const c of simple) {
      const probes = [c + c, `a${c}`, ...neighbours.map((n) => c + n)];
      if (c.length !== 1 || probes.some((probe) => icuSegments(probe).length !== 2)) joined.push(`U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
    expect(joined).toEqual([]);
    // And what it leaves to ICU includes the characters that do join.
    for (const c of ['\r', '\u0301', '\u200d', '\u200c', '\ufe0f', '\u1100', '\uac00', '\u0903', '\u0600', '\ud83c', '\u3099'])
      expect(SIMPLE.test(c)).toBe(false);
  });

  it("gives ICU's segments for any text: iterated, and through containing() at every index", () => {
    const mixed = fc
      .array(
        fc.oneof(fc.constantFrom(...'ab │›…─▏█é\u001b[1m'), fc.constantFrom('\r', '\n', '\u0301', '\u200d', '👩‍💻', '🇫🇷', '漢', '\u1100\u1161', 'e\u0301')),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(anyText({ maxLength: 40 }), mixed), (text) => {
        expect(ourSegments(text)).toEqual(icuSegments(text));
        const ours = graphemeSegmenter.segment(text);
        const theirs = icu.segment(text);
        const at = (segments: { containing(i: number): { segment: string; index: number; input: string } | undefined }) =>
          Array.from({ length: text.length + 2 }, (_, i) => {
            const found = segments.containing(i - 1);
            return found && { segment: found.segment, index: found.index, input: found.input };
          });
        expect(at(ours)).toEqual(at(theirs));
      }),
      { numRuns: 400 },
    );
  });
});
