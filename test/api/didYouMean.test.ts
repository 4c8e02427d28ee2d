import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, likelyTypo } from '../../src/api/didYouMean';
import { KNOWN_ACCOUNT_TYPES, KNOWN_PERMISSIONS } from '../../src/api/types';

describe('edit distance', () => {
  it.each([
    ['', '', 0],
    ['SPOT', 'SPOT', 0],
    ['SPOT', 'SPTO', 1],
    ['FUTUR', 'FUTURES', 2],
    ['FUTUERS', 'FUTURES', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ] as const)('%j → %j: %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
  it('is symmetric, zero only for equal texts, and at most the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d).toBe(editDistance(b, a));
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });
  it('one insertion, deletion, substitution or neighbour swap is one edit', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 2, maxLength: 12 }), fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (text, at, c) => {
        const i = at % text.length;
        const swapped = text.slice(0, i) + (text[i + 1] ?? '') + text[i] + text.slice(i + 2);
        expect(editDistance(text, text.slice(0, i) + c + text.slice(i))).toBe(1);
        expect(editDistance(text, text.slice(0, i) + text.slice(i + 1))).toBe(1);
        if (i + 1 < text.length && text[i] !== text[i + 1]) expect(editDistance(text, swapped)).toBe(1);
        if (text[i] !== c) expect(editDistance(text, text.slice(0, i) + c + text.slice(i + 1))).toBe(1);
      }),
    );
  });
});

describe('likely typos', () => {
  it('a value within two edits of a known one, and not itself accepted, is taken for its typo', () => {
    expect(likelyTypo('FUTUR', KNOWN_ACCOUNT_TYPES)).toBe('FUTURES');
    expect(likelyTypo('SPOT_ACOUNT_READ', KNOWN_PERMISSIONS)).toBe('SPOT_ACCOUNT_READ');
    // The nearest wins: SPOT_DEAL_REED is one edit from SPOT_DEAL_READ, more from SPOT_DEAL_WRITE.
    expect(likelyTypo('SPOT_DEAL_REED', KNOWN_PERMISSIONS)).toBe('SPOT_DEAL_READ');
  });
  it('known values, accepted ones and far ones are not typos', () => {
    for (const known of [...KNOWN_ACCOUNT_TYPES, ...KNOWN_PERMISSIONS])
      expect(likelyTypo(known, [...KNOWN_ACCOUNT_TYPES, ...KNOWN_PERMISSIONS])).toBeUndefined();
    expect(likelyTypo('FUTURE', KNOWN_ACCOUNT_TYPES, [...KNOWN_ACCOUNT_TYPES, 'FUTURE'])).toBeUndefined();
    expect(likelyTypo('MARGIN', KNOWN_ACCOUNT_TYPES)).toBeUndefined();
    expect(likelyTypo('READ_ONLY', KNOWN_PERMISSIONS)).toBeUndefined();
  });
});
