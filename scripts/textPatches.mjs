// Patches to the packages that measure and cut text, applied by the console's bundle (scripts/scriptBundle.mjs)
// and to the copies the tests load (test/patchedInk.mjs), so both run the same code. A file that no longer has
// the expected line fails the build (and the tests' setup).
//  - string-width builds /^\p{RGI_Emoji}$/v as it loads: it gets src/terminal/rgiEmoji.mjs, built on first need.
//  - The packages that build an Intl.Segmenter as they load (string-width, both versions; slice-ansi; Ink's ANSI
//    tokenizer) get src/terminal/graphemeSegmenter.mjs: the same clusters, without ICU for the text frames are
//    made of.
//  - Ink's renderer measures every text node's widest line every frame: it wraps widest-line in the remembering
//    one of src/ui/ink/widestLine.mjs.
const RGI_EMOJI_LINE = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const STRING_WIDTH = /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/;

export const GRAPHEME_PATCHES = [
  { file: STRING_WIDTH, expression: 'new Intl.Segmenter()' },
  { file: /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/, expression: 'new Intl.Segmenter(undefined, { granularity: "grapheme" })' },
  { file: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/, expression: "new Intl.Segmenter(undefined, {granularity: 'grapheme'})" },
];

/** The text packages' files a patch here touches. */
export const TEXT_FILES = /[\\/]node_modules[\\/](?:.*[\\/])?(?:string-width[\\/]index|@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize|slice-ansi[\\/]tokenize-ansi)\.js$/;
/** Ink's renderer, the one importer of widest-line given the remembering one. */
export const RENDERER = /[\\/]node_modules[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/;
/** Every file a patch here touches: the one filter for esbuild's onLoad and for the tests' copies. */
export const PATCHED_FILES = new RegExp(`${TEXT_FILES.source}|${RENDERER.source}`);

/**
 * A source with the patches asked for: string-width's RGI emoji pattern from `rgiEmoji`; when given, the grapheme
 * segmenter from `segmenter` and Ink's renderer's remembering widest-line from `widestLine`; any other source
 * unchanged.
 */
export function patchText(path, source, { rgiEmoji, segmenter, widestLine }) {
  const lazy = withLazyRgiEmoji(path, source, rgiEmoji);
  const graphemes = segmenter === undefined ? lazy : withGraphemeSegmenter(path, lazy, segmenter);
  return widestLine === undefined ? graphemes : withRememberingWidestLine(path, graphemes, widestLine);
}

const WIDEST_LINE_IMPORT = "import widestLine from 'widest-line';";

/**
 * Ink's renderer with its widest-line wrapped by `rememberingWidestLine` imported from `specifier`; any other
 * source unchanged; throws when the renderer no longer imports widest-line as expected (Ink changed).
 */
export function withRememberingWidestLine(path, source, specifier) {
  if (!RENDERER.test(path)) return source;
  if (source.split(WIDEST_LINE_IMPORT).length !== 2) throw new Error(`remembering-widest-line: ${path} changed (expected: ${WIDEST_LINE_IMPORT})`);
  return source.replace(
    WIDEST_LINE_IMPORT,
    `import __bcWidestLine from 'widest-line';\nimport { rememberingWidestLine as __bcRemembering } from ${JSON.stringify(specifier)};\nconst widestLine = __bcRemembering(__bcWidestLine);`,
  );
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
