/** The packages copied and patched for the tests (test/patchedInk.mjs). */
export const PATCHED_PACKAGES: readonly string[];
/** Where the copies are: a node_modules of their own. */
export const PATCHED_MODULES: string;
/** The file a bare import of `name` (one of PATCHED_PACKAGES) loads from the copies. */
export function patchedEntry(name: string): string;
/** Makes the copies unless the ones there were made from the same inputs; returns the patched files. */
export function preparePatchedInk(): string[];
/** The patched files among the copies, relative to PATCHED_MODULES. */
export function patchedFiles(): string[];
