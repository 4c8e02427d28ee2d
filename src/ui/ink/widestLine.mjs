// widest-line as Ink's renderer calls it: once per text node per frame, for the same texts frame after frame,
// and string-width segments every non-ASCII line it measures. Here a text's width is remembered. The console's
// bundle gives Ink this module for `widest-line` (scripts/scriptBundle.mjs) and so do the tests' workers
// (test/inkHooks.mjs): the same Ink in both. Plain JavaScript: the tests' workers load it without a compiler.
import widestLine from 'widest-line';

/** Distinct texts kept before the widths start afresh, and the longest kept (bounds memory over a long session). */
const MAX_TEXTS = 20_000;
const MAX_KEPT_LENGTH = 4096;
const widths = new Map();

/** @param {string} text @returns {number} */
export default function rememberedWidestLine(text) {
  if (text.length > MAX_KEPT_LENGTH) return widestLine(text);
  let width = widths.get(text);
  if (width === undefined) {
    if (widths.size >= MAX_TEXTS) widths.clear();
    width = widestLine(text);
    widths.set(text, width);
  }
  return width;
}

/** How many texts are remembered (the tests check Ink's renderer is the caller). */
export function textsRemembered() {
  return widths.size;
}
