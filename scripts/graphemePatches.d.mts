// Types of scripts/graphemePatches.mjs for the TypeScript that imports it (the tests).
export const GRAPHEME_PATCHES: readonly { file: RegExp; expression: string }[];
export function buildsSegmenter(path: string): boolean;
export function withGraphemeSegmenter(path: string, source: string, specifier: string): string;
