// The build gives string-width a lazily built RGI-emoji test (src/terminal/rgiEmoji.mjs): it must answer exactly what
// `/^\p{RGI_Emoji}$/v` answers, for every cluster string-width can hand it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { withLazyRgiEmoji } from '../../scripts/textPatches.mjs';
import { rgiEmojiRegex } from '../../src/terminal/rgiEmoji.mjs';
import { PATCHED_MODULES } from '../patchedInk.mjs';

const rgi = new RegExp('^\\p{RGI_Emoji}$', 'v');
const agree = (text: string): boolean => rgiEmojiRegex.test(text) === rgi.test(text);

describe('the lazy RGI emoji test', () => {
  it('agrees on every code point of the planes with characters, alone, with VS16, a skin tone, as a keycap base', () => {
    const disagree: string[] = [];
    // Planes 0-2 and 14 (tags, variation selectors); 3-13 and the private-use planes hold no emoji.
    const points = function* () {
      for (let cp = 0; cp <= 0x2ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield cp;
      for (let cp = 0xe0000; cp <= 0xe0fff; cp++) yield cp;
    };
    for (const cp of points()) {
      const c = String.fromCodePoint(cp);
      for (const text of [c, `${c}\uFE0F`, `${c}\u{1F3FD}`, `${c}\uFE0F\u20E3`]) if (!agree(text)) disagree.push(text);
    }
    expect(disagree).toEqual([]);
  });

  it('agrees on flags, tag sequences and ZWJ sequences', () => {
    const regional = Array.from({ length: 26 }, (_, i) => String.fromCodePoint(0x1f1e6 + i));
    for (const a of regional) for (const b of regional) expect(agree(a + b)).toBe(true);
    const samples = [
      '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', // England
      '👩\u200D💻', '👨\u200D👩\u200D👧\u200D👦', '🏳\uFE0F\u200D🌈', '❤\uFE0F\u200D🔥', '🧑🏽\u200D🚀', '👁\u200D🗨',
      '1\uFE0F\u20E3', '#\u20E3', '©\uFE0F', '™', '↔\uFE0F', '⚠\uFE0F', '⚠', 'e\u0301', '👍🏿', 'ab', '',
    ];
    for (const text of samples) expect(agree(text), JSON.stringify(text)).toBe(true);
  });

  it('is what the build and the tests’ Ink put in place of string-width’s own pattern', async () => {
    const file = fileURLToPath(new URL('../../node_modules/string-width/index.js', import.meta.url));
    const source = readFileSync(file, 'utf8');
    // scripts/textPatches.mjs replaces exactly this line (and fails the build if it is not there).
    expect(source).toContain('const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;');
    expect(withLazyRgiEmoji(file, source, 'rgi.mjs')).not.toContain('/^\\p{RGI_Emoji}$/v');
    // The string-width the tests load is the patched copy (test/patchedInk.mjs).
    const copy = join(PATCHED_MODULES, 'string-width', 'index.js');
    const loaded = readFileSync(copy, 'utf8');
    expect(loaded).toContain('import { rgiEmojiRegex } from');
    expect(loaded).not.toContain('/^\\p{RGI_Emoji}$/v');
    expect(stringWidth).toBe(((await import(pathToFileURL(copy).href)) as { default: unknown }).default);
    // And the string-width this worker runs measures emoji as the stock one does.
    expect([stringWidth('👩\u200D💻'), stringWidth('🇫🇷'), stringWidth('1\uFE0F\u20E3'), stringWidth('↔'), stringWidth('漢字')]).toEqual([2, 2, 2, 1, 4]);
  });
});
