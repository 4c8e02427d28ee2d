// Types of scripts/textPatches.mjs for the TypeScript that imports it (the tests).
export const GRAPHEME_PATCHES: readonly { file: RegExp; expression: string }[];
export const TEXT_FILES: RegExp;
export const RENDERER: RegExp;
export const PATCHED_FILES: RegExp;
export function patchText(path: string, source: string, specifiers: { rgiEmoji: string; segmenter?: string; widestLine?: string }): string;
export function withLazyRgiEmoji(path: string, source: string, specifier: string): string;
export function withGraphemeSegmenter(path: string, source: string, specifier: string): string;
export function withRememberingWidestLine(path: string, source: string, specifier: string): string;
