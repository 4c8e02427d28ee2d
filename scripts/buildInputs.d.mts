// Types of scripts/buildInputs.mjs for the TypeScript that imports it (the tests).
export function inputsHash(root: string): string;
export function distIsCurrent(root: string, inputs?: string): boolean;
export function stampBuild(root: string, inputs: string): void;
export function hashOf(root: string, files: readonly string[], folders: readonly string[]): string;
