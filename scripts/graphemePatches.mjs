// The packages that build an Intl.Segmenter as they load (string-width, both versions; slice-ansi; Ink's ANSI
// tokenizer) get src/terminal/graphemeSegmenter.mjs in its place: the same clusters, without ICU for the text
// frames are made of. Applied by the console's bundle (scripts/scriptBundle.mjs) and by the tests' workers
// (test/inkResolve.mjs), so both run the same code. A file that no longer has the expected line fails the build.
export const GRAPHEME_PATCHES = [
  { file: /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/, expression: 'new Intl.Segmenter()' },
  { file: /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/, expression: 'new Intl.Segmenter(undefined, { granularity: "grapheme" })' },
  { file: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/, expression: "new Intl.Segmenter(undefined, {granularity: 'grapheme'})" },
];

/** Whether a file is one of those patched. */
export function buildsSegmenter(path) {
  return GRAPHEME_PATCHES.some(({ file }) => file.test(path));
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
