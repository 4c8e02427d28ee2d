// Intl.Segmenter's grapheme clusters without ICU where each character is a cluster of its own: walking a real
// one visits ICU per cluster. The console's text is mostly ASCII, Latin, punctuation, arrows, box drawing and
// blocks: none of them joins its neighbour, so there the clusters are the characters. Any other text goes to a
// real Intl.Segmenter, built at its first use. Used by src/terminal/text.ts;
// test/terminal/graphemeSegmenter.test.ts checks every character of SIMPLE against ICU.

/**
 * Characters none of which joins a neighbour in the set into one cluster (Unicode's Grapheme_Cluster_Break
 * Other or Control, never CR, Extend, ZWJ, SpacingMark, Prepend, Regional_Indicator or Hangul): C0 without
 * CR, ASCII, C1, Latin-1 and Latin Extended-A/B with IPA (combining marks begin at U+0300), general
 * punctuation without ZWNJ/ZWJ and the bidi controls, currency, then letterlike symbols through dingbats.
 */
export const SIMPLE = /^[\u0000-\u000c\u000e-\u02ff\u2010-\u2027\u2030-\u205e\u20a0-\u20bf\u2100-\u27bf]*$/;

let icu: Intl.Segmenter | undefined;

interface SegmentData {
  segment: string;
  index: number;
  input: string;
}
interface Segments extends Iterable<SegmentData> {
  containing(index?: number): SegmentData | undefined;
}

/** One cluster per character (SIMPLE text only): what Intl.Segmenter's segments give, iteration and containing(). */
function characterSegments(input: string): Segments {
  const at = (index: number): SegmentData => ({ segment: input[index] ?? '', index, input });
  return {
    *[Symbol.iterator]() {
      for (let index = 0; index < input.length; index += 1) yield at(index);
    },
    containing(index = 0) {
      const i = Math.trunc(Number(index)) || 0;
      return i >= 0 && i < input.length ? at(i) : undefined;
    },
  };
}

/** Intl.Segmenter's grapheme `segment(text)`, answered without ICU for SIMPLE text. */
export const graphemeSegmenter = {
  segment(text: string): Segments {
    const input = String(text);
    if (SIMPLE.test(input)) return characterSegments(input);
    icu ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    return icu.segment(input);
  },
};
