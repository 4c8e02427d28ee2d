// Editing one line as the eye sees it: graphemes, display widths, shell keys.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { applyKey, cleanText, insert, pastedText, viewport, type EditKey, type LineEdit } from '../../src/terminal/lineEdit';
import { displayWidth } from '../../src/terminal/text';

const none: EditKey = { backspace: false, delete: false, leftArrow: false, rightArrow: false, home: false, end: false, ctrl: false, meta: false };
const k = (over: Partial<EditKey> = {}): EditKey => ({ ...none, ...over });
const at = (value: string, cursor = value.length): LineEdit => ({ value, cursor });

function run(edit: LineEdit, steps: Array<[string, Partial<EditKey>?]>): LineEdit {
  return steps.reduce((e, [input, key]) => applyKey(e, input, k(key)) ?? e, edit);
}

describe('line editing by grapheme', () => {
  test('backspace removes a whole emoji (skin tone, ZWJ family, flag), never half of one', () => {
    for (const emoji of ['👍🏽', '👨‍👩‍👧', '🇯🇵', '😀']) {
      const after = run(at(`note ${emoji}`), [['', { backspace: true }]]);
      expect(after).toEqual(at('note '));
      expect(after.value).not.toMatch(/[\ud800-\udfff]/);
    }
  });

  test('left and right step over a letter with its combining accent, and over CJK', () => {
    const value = 'ae\u0301日x';
    let e = at(value);
    const stops: number[] = [];
    for (let i = 0; i < 5; i++) {
      e = applyKey(e, '', k({ leftArrow: true }))!;
      stops.push(e.cursor);
    }
    expect(stops).toEqual([4, 3, 1, 0, 0]);
    e = applyKey(at(value, 1), '', k({ rightArrow: true }))!;
    expect(e.cursor).toBe(3);
    expect(applyKey(at(value, 1), '', k({ delete: true }))).toEqual({ value: 'a日x', cursor: 1 });
  });

  test('ctrl+a/home, ctrl+e/end, ctrl+u, ctrl+k, ctrl+w edit as in a shell', () => {
    expect(applyKey(at('abc def'), 'a', k({ ctrl: true }))).toEqual(at('abc def', 0));
    expect(applyKey(at('abc def', 0), '', k({ home: false, end: true }))).toEqual(at('abc def'));
    expect(applyKey(at('abc def', 2), 'e', k({ ctrl: true }))).toEqual(at('abc def'));
    expect(applyKey(at('abc def', 4), 'u', k({ ctrl: true }))).toEqual(at('def', 0));
    expect(applyKey(at('abc def', 4), 'k', k({ ctrl: true }))).toEqual(at('abc ', 4));
    expect(applyKey(at('market maker bot'), 'w', k({ ctrl: true }))).toEqual(at('market maker '));
    expect(applyKey(at('market maker '), 'w', k({ ctrl: true }))).toEqual(at('market '));
  });

  test('Enter, Tab, Esc and other controls are not typed: the screen gets them', () => {
    for (const input of ['\r', '\t', '\u001b', '\u0000', '\n']) expect(applyKey(at('x'), input, k())).toBeUndefined();
    expect(applyKey(at('x'), 'p', k({ ctrl: true }))).toBeUndefined();
    expect(applyKey(at('x'), '?', k(), '?')).toBeUndefined();
    expect(applyKey(at('x'), '?', k(), '')).toEqual(at('x?'));
  });

  test('a pasted text loses controls and bidi overrides; its line breaks become what the field says', () => {
    expect(cleanText('203.0.113.7\r\n198.51.100.20\n', ', ')).toBe('203.0.113.7, 198.51.100.20, ');
    // A note pasted with CRLF, as a terminal delivers it (two CRs), or with a blank line: one space per break.
    expect(cleanText('desk A\r\rrotation 2026 \n\n q4')).toBe('desk A rotation 2026 q4');
    expect(cleanText('a\u001b[31mb\u202ec\u0007\td')).toBe('a[31mbc d');
    expect(insert(at('/p', 2), '?q=1')).toEqual(at('/p?q=1'));
    expect(pastedText('gridbot2901\r\n')).toBe('gridbot2901');
    expect(pastedText('203.0.113.7\n198.51.100.20\n', ', ')).toBe('203.0.113.7, 198.51.100.20');
    // A list copied with its commas, or with blank lines: one separator between addresses, never an empty one.
    expect(pastedText('1.2.3.4,\n5.6.7.8', ', ')).toBe('1.2.3.4, 5.6.7.8');
    expect(pastedText('1.2.3.4 ,\r\n  5.6.7.8\n\n \n,9.9.9.9', ', ')).toBe('1.2.3.4, 5.6.7.8, 9.9.9.9');
    // However many commas: two before a break, one alone on a line between blank ones.
    expect(pastedText('1.1.1.1,,\n2.2.2.2', ', ')).toBe('1.1.1.1, 2.2.2.2');
    expect(pastedText('1.1.1.1\n\n,\n2.2.2.2', ', ')).toBe('1.1.1.1, 2.2.2.2');
    // A note's blank line is one break: one space.
    expect(pastedText('a\n\nb')).toBe('a b');
  });

  test('property: typing graphemes then backspacing them all leaves nothing, and the cursor is always on a boundary', () => {
    const grapheme = fc.constantFrom('a', 'é', 'e\u0301', '日', '👍🏽', '👨‍👩‍👧', '🇯🇵', 'ก่', ' ');
    fc.assert(
      fc.property(fc.array(grapheme, { maxLength: 30 }), fc.array(fc.constantFrom('left', 'right'), { maxLength: 10 }), (typed, moves) => {
        let e = at('');
        for (const g of typed) e = applyKey(e, g, k())!;
        expect(e.value).toBe(typed.join(''));
        for (const m of moves) e = applyKey(e, '', k(m === 'left' ? { leftArrow: true } : { rightArrow: true }))!;
        e = applyKey(e, 'e', k({ ctrl: true }))!;
        for (let i = 0; i < typed.length; i++) e = applyKey(e, '', k({ backspace: true }))!;
        expect(e).toEqual(at(''));
      }),
      { numRuns: 300 },
    );
  });
});

describe('invisible characters at the line editor', () => {
  test('a zero-width space, typed or pasted, is not taken; an emoji typed a code point at a time keeps its joiners', () => {
    expect(applyKey(at(''), '\u200b', k({}))).toBeUndefined();
    expect(pastedText('desk\u200b01\u2060')).toBe('desk01');
    let e = at('');
    for (const cp of ['👩', '\u200d', '💻']) e = applyKey(e, cp, k({})) ?? e;
    expect(e.value).toBe('👩\u200d💻');
    // A joiner after a letter joins nothing: refused.
    expect(applyKey(at('a'), '\u200d', k({}))).toBeUndefined();
  });
});

describe('viewport: the part of a long line that fits, cursor visible', () => {
  const cells = (v: ReturnType<typeof viewport>) => displayWidth(v.head) + displayWidth(v.at) + displayWidth(v.tail);

  test('a line that fits is shown whole', () => {
    const v = viewport(at('hello'), 20);
    expect(v.head + v.at + v.tail).toBe('hello ');
  });

  test('property: never wider than the room, and the cursor character is the one under the cursor', () => {
    const text = fc.array(fc.constantFrom('a', '日', '👍🏽', 'e\u0301', ' ', 'b'), { maxLength: 80 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 3, max: 60 }), fc.nat(), (value, width, c) => {
        const parts = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(value)].map((s) => s.index);
        const cursor = [...parts, value.length][c % (parts.length + 1)]!;
        const v = viewport(at(value, cursor), width);
        expect(cells(v)).toBeLessThanOrEqual(width);
        const expected = value.slice(cursor).match(/^./su)
          ? [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(value.slice(cursor))][0]!.segment
          : ' ';
        expect(v.at).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  test('a shorter value after a longer one (cleared, then pasted): as much as fits before the cursor, not a lone "…"', () => {
    const long = viewport(at('x'.repeat(300)), 40);
    expect(long.start).toBeGreaterThan(250);
    const v = viewport(at(`${'a'.repeat(100)}Z`), 40, long.start);
    expect(v.head).toBe(`…${'a'.repeat(37)}Z`);
    expect(cells(v)).toBe(40);
    // A value that now fits whole is shown whole.
    expect(viewport(at('short'), 40, long.start).head).toBe('short');
  });

  test('property: whatever the scroll before, no cell is left empty on the right while text is hidden on the left', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.integer({ min: 3, max: 60 }), fc.nat(200), (raw, width, start) => {
        const value = raw.replace(/[^a-z]/g, 'q');
        const v = viewport(at(value), width, start);
        if (v.start > 0) expect(cells(v)).toBe(width);
      }),
      { numRuns: 400 },
    );
  });
});
