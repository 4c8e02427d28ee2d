// The one sanitiser for outside text, display widths and fitting, and the JSON escaper (docs/design.md, the sanitiser).
import fc from 'fast-check';
import { anyText } from '../arbitraries';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import {
  FIELD_LIMIT,
  cell,
  displayWidth,
  escapeJsonText,
  fit,
  graphemes,
  grouped,
  plural,
  sanitize,
  sanitizeDeep,
  takeWidth,
  toJson,
  wrapByWidth,
} from '../../src/terminal/text';

/** Hostile strings a service (or a proxy) could send in any field. */
export const HOSTILE: readonly [string, string][] = [
  ['OSC 52 clipboard write', '\x1b]52;c;cm0gLXJmIH4K\x07'],
  ['OSC 0 title', '\x1b]0;pwned\x07'],
  ['OSC 8 hyperlink', '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\'],
  ['CSI clear screen', '\x1b[2J\x1b[H'],
  ['DCS', '\x1bPq#0;2;0;0;0\x1b\\'],
  ['APC', '\x1b_Gf=100;payload\x1b\\'],
  ['lone ESC', 'a\x1bb'],
  ['BEL', 'ding\x07'],
  ['NUL', 'nul\x00here'],
  ['CR-LF', 'first line\r\nerror: fake second line'],
  ['DEL', 'del\x7f'],
  ['C1 CSI', 'c1\u009b2J'],
  ['C1 OSC', '\u009d0;title\u009c'],
  ['RLO', 'abc\u202Etxt.exe'],
  ['LRI', '\u2066isolate\u2069'],
  ['line separator', 'a\u2028b\u2029c'],
];

/** No byte or character a terminal acts on: C0 controls (so ESC, BEL, NUL, CR, LF), DEL, C1, bidi controls. */
export const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('sanitize', () => {
  it.each(HOSTILE)('%s: nothing a terminal acts on is left, and every character is accounted for', (_name, text) => {
    const safe = sanitize(text);
    expect(safe).not.toMatch(TERMINAL_UNSAFE);
    // One mark per code point: printable characters stay, each control becomes one visible mark.
    expect(safe.length).toBeGreaterThanOrEqual([...text].length);
  });

  it('gives the marks the sanitiser promises', () => {
    expect(sanitize('\x1b]0;pwned\x07')).toBe('␛]0;pwned␇');
    expect(sanitize('a\r\nb')).toBe('a␍␊b');
    expect(sanitize('\x00\x7f')).toBe('␀␡');
    expect(sanitize('\u009b')).toBe('<U+009B>');
    expect(sanitize('x\u202Ey')).toBe('x<U+202E>y');
    expect(sanitize('\u2066')).toBe('<U+2066>');
  });

  it('marks invisible format characters: two names that look the same are told apart', () => {
    expect(sanitize('desk\u200b01')).toBe('desk<U+200B>01');
    expect(sanitize('desk01\u2060')).toBe('desk01<U+2060>');
    expect(sanitize('\ufeffdesk01')).toBe('<U+FEFF>desk01');
    expect(sanitize('a\u200db')).toBe('a<U+200D>b');
    expect(sanitize('soft\u00adhyphen')).toBe('soft<U+00AD>hyphen');
    expect(sanitize('desk\u3164')).toBe('desk<U+3164>');
    // Tag characters spell hidden ASCII ("HI" here) after ordinary text.
    expect(sanitize('desk01\u{e0048}\u{e0049}')).toBe('desk01<U+E0048><U+E0049>');
    expect(sanitize('desk\u200b01')).not.toBe(sanitize('desk01'));
  });

  it('keeps the joiners and tags that are part of an emoji', () => {
    const england = '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}';
    for (const text of ['👩‍💻', '👨‍👩‍👧', '🏳️‍🌈', '👍🏽‍', england, `team ${england} desk`]) {
      if (text.endsWith('\u200d')) expect(sanitize(text)).toBe('👍🏽<U+200D>');
      else expect(sanitize(text)).toBe(text);
    }
    // Tags without their flag, or a flag's tags without the cancel tag, are marked.
    expect(sanitize('\u{e0067}\u{e007f}')).toBe('<U+E0067><U+E007F>');
    expect(sanitize('\u{1f3f4}\u{e0067}')).toBe('\u{1f3f4}<U+E0067>');
  });

  it('leaves ordinary text (CJK, emoji, accents) as it is', () => {
    for (const text of ['trading bot', '交易机器人', '👩‍💻 desk', 'café', 'e\u0301', '🇯🇵']) expect(sanitize(text)).toBe(text);
  });

  it('cuts a 200,000-character field to FIELD_LIMIT code points plus "…", quickly', () => {
    const huge = `${'\x1b]52;c;'}${'A'.repeat(200_000)}\x07`;
    const started = performance.now();
    const safe = sanitize(huge);
    expect(performance.now() - started).toBeLessThan(2000);
    expect([...safe]).toHaveLength(FIELD_LIMIT + 1);
    expect(safe.endsWith('…')).toBe(true);
    expect(safe).not.toMatch(TERMINAL_UNSAFE);
    // A field of astral characters (two UTF-16 units each) is cut at the same number of code points.
    expect([...sanitize('😀'.repeat(5000))]).toHaveLength(FIELD_LIMIT + 1);
  });

  it('property: the result never holds a control, and text without one is unchanged', () => {
    fc.assert(
      fc.property(anyText({ maxLength: 300 }), (text) => {
        const safe = sanitize(text);
        expect(safe).not.toMatch(TERMINAL_UNSAFE);
        expect(safe).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        if (!TERMINAL_UNSAFE.test(text) && !/[\u061c\u200e\u200f\ud800-\udfff]/.test(text) && !/[\p{Cf}\u115f\u1160\u3164\uffa0]/u.test(text))
          expect(safe).toBe(text);
      }),
    );
  });

  it('property: sanitising twice changes nothing (marks are themselves safe)', () => {
    fc.assert(
      fc.property(anyText({ maxLength: 200 }), (text) => {
        const once = sanitize(text);
        expect(sanitize(once, Number.MAX_SAFE_INTEGER)).toBe(once);
      }),
    );
  });

  it('property: a field keeps at most `limit` code points of what came, whatever its length', () => {
    // Each kept code point shows as itself or as one mark (at most "<U+XXXXX>", 9 characters), then "…".
    fc.assert(
      fc.property(anyText({ maxLength: 400 }), fc.integer({ min: 1, max: 100 }), (text, limit) => {
        const shown = [...sanitize(text, limit)];
        expect(shown.length).toBeLessThanOrEqual(limit * 9 + 1);
        if ([...text].length <= limit) expect(shown.at(-1) === '…' && !text.endsWith('…')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

const wideText = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '交', '易', '😀', '👩‍💻', 'é', 'e\u0301', '🇯🇵', '-'), maxLength: 30 });

describe('display width and fitting', () => {
  it('counts terminal cells, not code points or UTF-16 units', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('交易')).toBe(4);
    expect(displayWidth('😀')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('👩‍💻')).toBe(2);
  });

  it('property: the width of a text is what string-width says, the first time and every time after (the widths are remembered)', () => {
    fc.assert(
      fc.property(fc.array(wideText, { minLength: 1, maxLength: 20 }), (texts) => {
        for (const text of [...texts, ...texts]) expect(displayWidth(text)).toBe(stringWidth(text));
      }),
      { numRuns: 200 },
    );
    // Texts longer than those remembered: measured every time, still right.
    const long = ['交a😀│'.repeat(130), `${'│'.repeat(600)}e\u0301`];
    for (const text of [...long, ...long]) expect(displayWidth(text)).toBe(stringWidth(text));
  });

  it('fit pads CJK and emoji to the same width as ASCII', () => {
    expect(fit('交易', 6)).toBe('交易  ');
    expect(fit('😀', 4, 'right')).toBe('  😀');
    expect(fit('交易机器人', 5)).toBe('交易…');
    expect(displayWidth(fit('交易机器人', 6))).toBe(6);
  });

  it('property: fit is exactly `width` cells and never splits a grapheme', () => {
    fc.assert(
      fc.property(wideText, fc.integer({ min: 1, max: 40 }), fc.constantFrom<'left' | 'right'>('left', 'right'), (text, width, align) => {
        const fitted = fit(text, width, align);
        expect(stringWidth(fitted)).toBe(width);
        if (displayWidth(text) <= width) {
          const pad = ' '.repeat(width - displayWidth(text));
          expect(fitted).toBe(align === 'left' ? text + pad : pad + text);
        } else {
          const head = takeWidth(text, width - 1);
          expect(fitted.startsWith(`${head}…`)).toBe(true);
          // The kept part ends at a grapheme boundary of the text.
          const all = graphemes(text);
          const kept = graphemes(head);
          expect(all.slice(0, kept.length)).toEqual(kept);
        }
      }),
    );
  });

  it('property: cell sanitises and fits in one step', () => {
    fc.assert(
      fc.property(anyText({ maxLength: 100 }), fc.integer({ min: 1, max: 30 }), (text, width) => {
        const out = cell(text, width);
        expect(out).not.toMatch(TERMINAL_UNSAFE);
        expect(displayWidth(out)).toBe(width);
      }),
    );
  });

  it('property: wrapByWidth keeps every grapheme, and no line is wider than asked', () => {
    fc.assert(
      fc.property(wideText, fc.integer({ min: 2, max: 20 }), (text, width) => {
        const lines = wrapByWidth(text, width);
        expect(lines.join('')).toBe(text);
        for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      }),
    );
  });
});

describe('JSON escaping', () => {
  it('escapes what JSON.stringify leaves raw, and the data reads back exactly', () => {
    for (const [, text] of HOSTILE) {
      const json = toJson({ note: text });
      expect(json).not.toMatch(TERMINAL_UNSAFE);
      expect(JSON.parse(json)).toEqual({ note: text });
    }
    expect(escapeJsonText(JSON.stringify('\u009b\u202e\u2028'))).toBe('"\\u009b\\u202e\\u2028"');
  });

  it('property: any value round-trips through toJson and JSON.parse, with no raw control in the text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), anyText(), (value, text) => {
        for (const v of [value, text, { [text]: text }]) {
          const json = toJson(v, 2);
          // Line breaks between members (the indentation) are JSON's own; nothing else is raw.
          expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
    );
  });

  it('sanitizeDeep sanitises every string, keys included, and keeps numbers and booleans', () => {
    const value = sanitizeDeep({ 'k\x1b': ['a\x07', 1, true, null, { n: '\u202e' }] });
    expect(value).toEqual({ 'k␛': ['a␇', 1, true, null, { n: '<U+202E>' }] });
  });

  it('grouped writes any number as en-US toLocaleString does (whole numbers without ICU)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.maxSafeInteger(),
          fc.constantFrom(0, -0, 999, 1000, -1000, 1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
          fc.double(),
        ),
        (n) => {
          expect(grouped(n)).toBe(n.toLocaleString('en-US'));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('plural: the count grouped, the word made plural unless the count is one', () => {
    expect(plural(1, 'page')).toBe('1 page');
    expect(plural(0, 'page')).toBe('0 pages');
    expect(plural(2000, 'damaged line')).toBe('2,000 damaged lines');
    expect(plural(3, 'key', 'keys found')).toBe('3 keys found');
    expect(plural(1, 'key', 'keys found')).toBe('1 key');
  });
});
