// What the first-frame and keystroke probes run in tmux: the console, a bare `node -e`, and the minimal Ink list
// (bench/minimal-ink-list.tsx), bundled as a plain Ink app is (esbuild, production React).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BIN, ROOT } from './util';

// Ink imports react-devtools-core only for development: the production bundle gets an empty stand-in.
const noDevtools = {
  name: 'no-devtools',
  setup(b: import('esbuild').PluginBuild) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' as const }));
  },
};

const OUT = join(ROOT, 'node_modules', '.cache', 'broker-console-bench');

export async function buildMinimalInkList(): Promise<string> {
  const outfile = join(OUT, 'minimal-ink-list.mjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'minimal-ink-list.tsx')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [noDevtools],
    logLevel: 'warning',
  });
  return outfile;
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A console home (settings, recent sub-accounts, and the compile cache inside it) for the probes alone. */
export function benchHome(): { home: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), 'bc-bench-home-'));
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** Shell commands for tmux: `exec` so the pane's process is node itself (its CPU time is read from /proc). */
export const commands = {
  bare: `exec ${quote(process.execPath)} -e "console.log('DEMO')"`,
  minimal: (bundle: string): string => `exec env -u CI ${quote(process.execPath)} ${quote(bundle)}`,
  console: (home: string, extraEnv = ''): string =>
    `exec env -u CI BROKER_CONSOLE_HOME=${quote(home)} ${extraEnv} ${quote(process.execPath)} ${quote(BIN)} --demo`,
};

/** What each one's first frame ends with. */
export const frameEnd = {
  bare: /DEMO/,
  minimal: /q quits/,
  console: /\? help/,
};
