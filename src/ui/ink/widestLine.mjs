// widest-line as Ink's renderer calls it: once per text node per frame, for the same texts frame after frame,
// and string-width segments every non-ASCII line it measures. Here a text's width is remembered. The renderer's
// source wraps its widest-line with this (scripts/textPatches.mjs), in the console's bundle and in the copy of
// Ink the tests load (test/patchedInk.mjs): the same Ink in both. No package imports here, so the renderer's
// widest-line (and the string-width it measures with) is the one that wraps, wherever this file is loaded from.
// Plain JavaScript: Node loads it for the tests' Ink without a compiler.
import { remembered } from '../../terminal/remembered.mjs';

/** @type {(((text: string) => number) & { has(text: string): boolean }) | undefined} */
let given;

/**
 * widest-line with each text's width remembered: one per process, made from the first widest-line given (the
 * renderer's, as it loads).
 * @param {(text: string) => number} widestLine
 */
export function rememberingWidestLine(widestLine) {
  given ??= remembered(widestLine, { maxTexts: 20_000, maxLength: 4096 });
  return given;
}

/** Whether this text's width is remembered (the tests check Ink's renderer is the caller). */
export function remembers(/** @type {string} */ text) {
  return given?.has(text) ?? false;
}
