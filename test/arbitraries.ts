// Strings of any code points (lone surrogate halves too), like fast-check's `unit: 'binary'` strings, with the
// code points a terminal acts on (C0 and C1 controls, DEL, bidi and line separators, surrogates) drawn often,
// not once in a million. fast-check's 'binary' unit maps every one of the 1,114,112 code points back to its
// index the first time a string of it is made (in each test worker); this one maps back with codePointAt.
import fc from 'fast-check';

const SPECIAL = [0x1b, 0x07, 0x0a, 0x0d, 0x00, 0x7f, 0x85, 0x9b, 0x9d, 0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202e, 0x2066, 0x2069, 0xd800, 0xdfff];

const codePoint = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 0x10ffff }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xa0 }) },
    { weight: 1, arbitrary: fc.constantFrom(...SPECIAL) },
  )
  .map(
    (cp) => String.fromCodePoint(cp),
    (value) => {
      if (typeof value !== 'string') throw new Error('not a string');
      const cp = value.codePointAt(0);
      if (cp === undefined || String.fromCodePoint(cp) !== value) throw new Error('not one code point');
      return cp;
    },
  );

/** Any text of code points, controls, surrogate halves and astral characters included. */
export function anyText(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: codePoint, ...constraints });
}
