// What the first-frame and keystroke probes run in tmux: the console, a bare `node -e`, and the minimal Ink list
// (bench/minimal-ink-list.tsx): bundled as a plain Ink app is (esbuild, production React), and again the way the
// console is (a script through the code cache, the same build patches), which is as fast as Ink can start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleScript, noDevtools } from '../scripts/scriptBundle.mjs';
import { BIN, ROOT } from './util';

const OUT = join(ROOT, 'node_modules', '.cache', 'broker-console-bench');

export async function buildMinimalInkList(): Promise<string> {
  const outfile = join(OUT, 'minimal-ink-list.mjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'minimal-ink-list.tsx')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [noDevtools],
    logLevel: 'warning',
  });
  return outfile;
}

/** The minimal list as the console's bin would run it: [loader, script]; run as `node loader script cacheFolder`. */
export async function buildMinimalInkListCached(): Promise<{ loader: string; script: string }> {
  const script = join(OUT, await bundleScript({ name: 'minimal-ink-list', entry: join(ROOT, 'bench', 'minimal-ink-list.tsx'), outDir: OUT }));
  const loader = join(OUT, 'minimal-ink-cached.cjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'minimal-ink-cached.ts')],
    outfile: loader,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  });
  return { loader, script };
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A console home (settings, recent sub-accounts, and the code cache inside it) for the probes alone. */
export function benchHome(): { home: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), 'bc-bench-home-'));
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** Shell commands for tmux: `exec` so the pane's process is node itself (its CPU time is read from /proc). */
export const commands = {
  bare: `exec ${quote(process.execPath)} -e "console.log('DEMO')"`,
  minimal: (bundle: string): string => `exec env -u CI ${quote(process.execPath)} ${quote(bundle)}`,
  minimalCached: ({ loader, script }: { loader: string; script: string }, cache: string): string =>
    `exec env -u CI ${quote(process.execPath)} ${quote(loader)} ${quote(script)} ${quote(cache)}`,
  console: (home: string, extraEnv = ''): string =>
    `exec env -u CI BROKER_CONSOLE_HOME=${quote(home)} ${extraEnv} ${quote(process.execPath)} ${quote(BIN)} --demo`,
};

/** What each one's first frame ends with. */
export const frameEnd = {
  bare: /DEMO/,
  minimal: /q quits/,
  console: /\? help/,
};
