// Types of scripts/textPatches.mjs for the TypeScript that imports it (the tests).
export const GRAPHEME_PATCHES: readonly { file: RegExp; expression: string }[];
export function patchesText(path: string): boolean;
export function withLazyRgiEmoji(path: string, source: string, specifier: string): string;
export function withGraphemeSegmenter(path: string, source: string, specifier: string): string;
