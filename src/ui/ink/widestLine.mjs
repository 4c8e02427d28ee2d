// widest-line as Ink's renderer calls it: once per text node per frame, for the same texts frame after frame,
// and string-width segments every non-ASCII line it measures. Here a text's width is remembered. The console's
// bundle gives Ink this module for `widest-line` (scripts/scriptBundle.mjs) and so do the tests' workers
// (test/inkHooks.mjs): the same Ink in both. Plain JavaScript: the tests' workers load it without a compiler.
import widestLine from 'widest-line';
import { remembered } from '../../terminal/remembered.mjs';

const rememberedWidestLine = remembered(widestLine, { maxTexts: 20_000, maxLength: 4096 });

export default rememberedWidestLine;

/** Whether this text's width is remembered (the tests check Ink's renderer is the caller). */
export function remembers(/** @type {string} */ text) {
  return rememberedWidestLine.has(text);
}
