// Types of scripts/scriptBundle.mjs for the TypeScript that imports it (the benchmarks).
import type { BuildOptions, Plugin } from 'esbuild';

export const noDevtools: Plugin;
export const common: BuildOptions;
export function bundleScript(options: { name: string; entry: string; outDir: string; imports?: string[] }): Promise<string>;
