// The key splitter: any chunking of the same input gives the same keys, pastes stay whole text.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { KeySplitter, PASTE_END, PASTE_START, type InputEvent } from '../../src/terminal/keys';

function split(chunks: string[]): InputEvent[] {
  const splitter = new KeySplitter();
  const events = chunks.flatMap((chunk) => splitter.push(chunk));
  return [...events, ...splitter.flush()];
}

const keys = (events: InputEvent[]) => events.map((e) => (e.kind === 'key' ? e.sequence : `[paste ${e.text}]`));

describe('KeySplitter', () => {
  test("a name and Enter in one write are the name's keys, then Enter", () => {
    expect(keys(split(['gridbot2901\r']))).toEqual([...'gridbot2901', '\r']);
  });

  test('a line feed is Enter (what the line discipline made of an Enter typed before raw mode); in a paste it stays text', () => {
    expect(keys(split(['gridbot2901\n']))).toEqual([...'gridbot2901', '\r']);
    expect(keys(split([`${PASTE_START}a\nb${PASTE_END}\n`]))).toEqual(['[paste a\nb]', '\r']);
  });

  test('jj, Tab Tab Tab, Enter Enter y, repeated backspace: one key each', () => {
    expect(keys(split(['jj']))).toEqual(['j', 'j']);
    expect(keys(split(['\t\t\t']))).toEqual(['\t', '\t', '\t']);
    expect(keys(split(['\r\ry']))).toEqual(['\r', '\r', 'y']);
    expect(keys(split(['\u007f\u007f\u007f']))).toEqual(['\u007f', '\u007f', '\u007f']);
  });

  test('escape sequences stay whole: arrows, shift+tab, page keys, SS3, alt+backspace, legacy function keys', () => {
    expect(keys(split(['\u001b[A\u001b[Bj\u001b[Z\u001b[5~\u001bOP\u001b\u007f\u001b[[A']))).toEqual([
      '\u001b[A',
      '\u001b[B',
      'j',
      '\u001b[Z',
      '\u001b[5~',
      '\u001bOP',
      '\u001b\u007f',
      '\u001b[[A',
    ]);
  });

  test('Esc then a key in one write is Escape, then that key (no alt binding is lost: there is none)', () => {
    expect(keys(split(['\u001bj\u001b\u001bq']))).toEqual(['\u001b', 'j', '\u001b', '\u001b', 'q']);
  });

  test('a sequence cut between writes is joined; a lone ESC at the end is the Escape key after the pause', () => {
    const splitter = new KeySplitter();
    expect(splitter.push('a\u001b')).toEqual([{ kind: 'key', sequence: 'a' }]);
    expect(splitter.hasPendingEscape()).toBe(true);
    expect(splitter.push('[B')).toEqual([{ kind: 'key', sequence: '\u001b[B' }]);
    expect(splitter.push('\u001b')).toEqual([]);
    expect(splitter.flush()).toEqual([{ kind: 'key', sequence: '\u001b' }]);
  });

  test('emoji with modifiers, ZWJ families, flags and combining accents are one key each', () => {
    expect(keys(split(['👍🏽👨‍👩‍👧🇯🇵é']))).toEqual(['👍🏽', '👨‍👩‍👧', '🇯🇵', 'é']);
    expect(keys(split(['日本']))).toEqual(['日', '本']);
  });

  test('a bracketed paste is one piece of text, ? q newlines and escapes included, never keys', () => {
    expect(split([`x${PASTE_START}/p?q=1\r\nj\u001b[A${PASTE_END}y`])).toEqual([
      { kind: 'key', sequence: 'x' },
      { kind: 'paste', text: '/p?q=1\r\nj\u001b[A' },
      { kind: 'key', sequence: 'y' },
    ]);
  });

  test('a paste split across many writes, markers cut in half, is still one paste', () => {
    const input = `${PASTE_START}203.0.113.7\n198.51.100.20${PASTE_END}\r`;
    const chunks = input.split('');
    expect(split(chunks)).toEqual([
      { kind: 'paste', text: '203.0.113.7\n198.51.100.20' },
      { kind: 'key', sequence: '\r' },
    ]);
  });

  // The property: however a sequence of keys is cut into writes, the keys that come out are the same.
  const keyArb = fc.constantFrom(
    'j',
    'k',
    'q',
    '?',
    ' ',
    '\r',
    '\t',
    '\u007f',
    '\u0003',
    '\u0010',
    '\u001b',
    '\u001b[A',
    '\u001b[B',
    '\u001b[Z',
    '\u001b[3~',
    '\u001bOH',
    'é',
    '日',
    '👍🏽',
    '👨‍👩‍👧',
    'e\u0301',
  );
  test('property: any chunking of a key sequence yields exactly those keys', () => {
    fc.assert(
      fc.property(fc.array(keyArb, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 10 }), (sequence, cuts) => {
        // Escape then DEL is what alt+backspace sends: one key by design (it deletes a word).
        fc.pre(!sequence.some((key, i) => key === '\u001b' && sequence[i + 1] === '\u007f'));
        const input = sequence.join('');
        // Cuts may fall anywhere, inside escape sequences too, except inside a character of several code
        // points: a terminal writes whole characters (a grapheme cut in two arrives as its parts, which a
        // text field joins again; see lineEdit.test.ts).
        const allowed = new Set<number>([0]);
        let at = 0;
        for (const key of sequence) {
          if (/^[\x00-\x7f]+$/.test(key)) for (let i = 1; i <= key.length; i++) allowed.add(at + i);
          at += key.length;
          allowed.add(at);
        }
        const positions = [...allowed].sort((a, b) => a - b);
        const points = [...new Set(cuts.map((c) => positions[c % positions.length]!))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const p of points) {
          chunks.push(input.slice(from, p));
          from = p;
        }
        chunks.push(input.slice(from));
        expect(keys(split(chunks))).toEqual(sequence);
      }),
      { numRuns: 500 },
    );
  });
});
