// Bundling a script for the bin's code cache (scripts/build.mjs; the benchmarks build their Ink baseline with it
// too). A script is the bundle's module body wrapped in `(async function (require, __bcHost, __bcImportMetaUrl) {…})`,
// something vm.Script can compile with a cache (an ES module cannot be, in Node 20); its file name carries the
// hash of its content, and so does the name of its cache: a new build never meets an old cache. Run from the
// repository's root (as npm runs the build and the benchmarks).
import { createHash } from 'node:crypto';
import { constants as http2Constants } from 'node:http2';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { build } from 'esbuild';
import { PATCHED_FILES, RENDERER, patchText } from './textPatches.mjs';

// Ink imports react-devtools-core only for development (DEV=true); the production bundle gets an empty stand-in.
export const noDevtools = {
  name: 'no-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' }));
  },
};

// yoga-layout (Ink's layout engine) fetches its embedded WebAssembly from a data: URL when `fetch` exists, and
// that first fetch loads Node's own undici (~25 ms before the first frame). Without fetch it decodes the same
// bytes itself.
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const patched = source.replaceAll('"function"!=typeof fetch', '!0');
      if (patched === source) throw new Error(`yoga-without-fetch: no fetch test in ${args.path} (yoga-layout changed?)`);
      return { contents: patched, loader: 'js' };
    });
  },
};

// scripts/textPatches.mjs: the lazy RGI_Emoji pattern in every bundle (string-width's own costs ~30 ms before the
// first frame); in the console's only, the ICU-free grapheme segmenter and Ink's renderer measuring each text's
// widest line once (src/ui/ink/widestLine.mjs remembers them): the benchmarks' minimal Ink app keeps stock Ink.
const patchedSources = (inkPatches) => ({
  name: 'patched-sources',
  setup(b) {
    let renderer = false;
    b.onLoad({ filter: PATCHED_FILES }, (args) => {
      const original = readFileSync(args.path, 'utf8');
      const source = patchText(args.path, original, {
        rgiEmoji: resolve('src/terminal/rgiEmoji.mjs'),
        ...(inkPatches ? { segmenter: resolve('src/terminal/graphemeSegmenter.mjs'), widestLine: resolve('src/ui/ink/widestLine.mjs') } : {}),
      });
      if (RENDERER.test(args.path)) renderer = true;
      return source === original ? undefined : { contents: source, loader: 'js' };
    });
    b.onEnd((result) => {
      if (result.errors.length === 0 && inkPatches && !renderer) throw new Error("patched-sources: Ink's renderer was not bundled (Ink changed?)");
    });
  },
});

// Dependencies that require a built-in as they load which only a rare call uses: each is required at that call
// instead. In the console's script, commander's child_process (only to run an executable subcommand, which the
// program has none of) and signal-exit v3's (Ink's) assert (only to check its argument), so neither loads before
// the first frame (the benchmarks' minimal Ink app stays stock). In undici's, http2 (only for an HTTP/2
// connection, which the client never asks for): it loads tls and most of crypto, ~10 ms of every command's start.
export const APP_LAZY_BUILTINS = [
  {
    file: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    name: 'childProcess',
    line: "const childProcess = require('node:child_process');",
    lazy: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    file: /[\\/]node_modules[\\/]signal-exit[\\/]index\.js$/,
    name: 'assert',
    line: "var assert = require('assert')",
    // Ink calls onExit as it starts: assert is required only when the check fails (to throw as before).
    lazy: "var assert = { equal: function (a, b, m) { if (a != b) require('assert').equal(a, b, m) } }",
  },
];
export const UNDICI_LAZY_BUILTINS = [
  {
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    name: 'http2',
    line: "http2 = require('node:http2')",
    // The module reads the protocol's constants as it loads (the values of this Node's http2, fixed by RFC 9113).
    lazy: `http2 = { connect: (...args) => require('node:http2').connect(...args), constants: ${JSON.stringify(http2Constants)} }`,
  },
];
const lazyBuiltins = (entries) => ({
  name: 'lazy-builtins',
  setup(b) {
    for (const { file, name, line, lazy } of entries) {
      b.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (source.split(line).length !== 2) throw new Error(`lazy-builtins: ${args.path} changed (expected: ${line})`);
        // The other uses of the name must be the call the stand-in has (or the stand-in would miss one).
        const uses = source.match(new RegExp(`\\b${name}\\.\\w+`, 'g')) ?? [];
        const kept = lazy.match(/\{ (\w+):/)[1];
        if (uses.some((use) => use !== `${name}.${kept}`)) throw new Error(`lazy-builtins: ${args.path} uses ${name} for more than ${kept}`);
        return { contents: source.replace(line, lazy), loader: 'js' };
      });
    }
  },
});

// A script has no import statements: Node's built-in modules are required (through the script's `require`).
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const requireBuiltins = {
  name: 'require-builtins',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      if (!builtins.has(args.path)) return undefined;
      // The stand-in's own require() is left as it is.
      return args.namespace === 'builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
};

/**
 * Bundles `entry` as one script into `outDir` (as `<name>-<hash>.js`, whose name it returns); `imports` are the
 * import() calls left to the host (resolved by the bin); `inkPatches`: Ink's renderer gets the remembering
 * widest-line; `lazy`: built-ins required at their first use (APP_LAZY_BUILTINS, UNDICI_LAZY_BUILTINS);
 * `metafiles`: esbuild's metafile of the build is pushed to it (the licence notices are made from its inputs).
 */
export async function bundleScript({ name, entry, outDir, imports = [], inkPatches = false, lazy = [], metafiles = [] }) {
  const result = await build({
    ...common,
    metafile: true,
    entryPoints: [entry],
    format: 'esm',
    write: false,
    outdir: outDir,
    define: { ...common.define, 'import.meta.url': '__bcImportMetaUrl' },
    external: imports,
    plugins: [noDevtools, yogaWithoutFetch, patchedSources(inkPatches), ...(lazy.length > 0 ? [lazyBuiltins(lazy)] : []), requireBuiltins],
  });
  metafiles.push(result.metafile);
  let body = result.outputFiles[0].text;
  // Only src/terminal/graphemeSegmenter.mjs builds one, at its first text that needs ICU.
  if (inkPatches && body.split('new Intl.Segmenter').length !== 2) throw new Error(`${name} script: an Intl.Segmenter is built outside src/terminal/graphemeSegmenter.mjs`);
  for (const specifier of imports) {
    const call = `import(${JSON.stringify(specifier)})`;
    if (body.split(call).length !== 2) throw new Error(`${name} script: expected one ${call}`);
    body = body.replace(call, `__bcHost.import(${JSON.stringify(specifier)})`);
  }
  if (/(?<![\w$.])import\s*\(|import\.meta/.test(body)) throw new Error(`${name} script: an import() or import.meta is left, which a script cannot run`);
  const text = `(async function (require, __bcHost, __bcImportMetaUrl) {"use strict";\n${body}\n})`;
  // Throws on an import or export statement: the file must be a script.
  new Script(text, { filename: `${name}.js` });
  const file = `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}.js`;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, file), text);
  return file;
}
