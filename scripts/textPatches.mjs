// Patches to the packages that measure and cut text, applied by the console's bundle (scripts/scriptBundle.mjs)
// and by the tests' workers (test/inkResolve.mjs), so both run the same code. A file that no longer has the
// expected line fails the build (and the tests' imports).
//  - string-width builds /^\p{RGI_Emoji}$/v as it loads: it gets src/terminal/rgiEmoji.mjs, built on first need.
//  - The packages that build an Intl.Segmenter as they load (string-width, both versions; slice-ansi; Ink's ANSI
//    tokenizer) get src/terminal/graphemeSegmenter.mjs: the same clusters, without ICU for the text frames are
//    made of.
const RGI_EMOJI_LINE = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const STRING_WIDTH = /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/;

export const GRAPHEME_PATCHES = [
  { file: STRING_WIDTH, expression: 'new Intl.Segmenter()' },
  { file: /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/, expression: 'new Intl.Segmenter(undefined, { granularity: "grapheme" })' },
  { file: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/, expression: "new Intl.Segmenter(undefined, {granularity: 'grapheme'})" },
];

/** Every file a patch here touches: the one filter for esbuild's onLoad and for the tests' load hook. */
export const TEXT_FILES = /[\\/]node_modules[\\/](?:.*[\\/])?(?:string-width[\\/]index|@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize|slice-ansi[\\/]tokenize-ansi)\.js$/;

/**
 * A text package's source with the patches asked for: string-width's RGI emoji pattern from `rgiEmoji`, and
 * (when `segmenter` is given) the grapheme segmenter from `segmenter`; any other source unchanged.
 */
export function patchText(path, source, { rgiEmoji, segmenter }) {
  const lazy = withLazyRgiEmoji(path, source, rgiEmoji);
  return segmenter === undefined ? lazy : withGraphemeSegmenter(path, lazy, segmenter);
}

/** string-width with its RGI emoji pattern imported from `specifier`; any other source unchanged. */
export function withLazyRgiEmoji(path, source, specifier) {
  if (!STRING_WIDTH.test(path) || !source.includes('/^\\p{RGI_Emoji}$/v')) return source;
  if (source.split(RGI_EMOJI_LINE).length !== 2) throw new Error(`lazy-rgi-emoji: ${path} changed (expected: ${RGI_EMOJI_LINE})`);
  return source.replace(RGI_EMOJI_LINE, `import { rgiEmojiRegex } from ${JSON.stringify(specifier)};`);
}

/**
 * The source with its Intl.Segmenter replaced by the one imported from `specifier`; the source unchanged for
 * another file; throws when a patched file's source is not as expected (the package changed).
 */
export function withGraphemeSegmenter(path, source, specifier) {
  const patch = GRAPHEME_PATCHES.find(({ file }) => file.test(path));
  if (patch === undefined) return source;
  const parts = source.split(patch.expression);
  if (parts.length !== 2) throw new Error(`grapheme-segmenter: ${path} changed (expected one ${patch.expression})`);
  const patched = parts.join('__bcGraphemeSegmenter');
  if (patched.includes('Intl.Segmenter')) throw new Error(`grapheme-segmenter: ${path} builds another Intl.Segmenter`);
  return `import { graphemeSegmenter as __bcGraphemeSegmenter } from ${JSON.stringify(specifier)};\n${patched}`;
}
