// The bin and the two scripts it runs through V8's code cache (src/startup/bin.ts):
//   dist/broker-console.js       the bin: --version, then the program from the cache (or compiled, and cached)
//   dist/chunks/app-<hash>.js    the program, commands and console (React's production build, Ink)
//   dist/chunks/undici-<hash>.js undici, loaded at the first request
// A script is the bundle's module body wrapped in `(async function (require, __bcHost, __bcImportMetaUrl) {…})`,
// something vm.Script can compile with a cache (an ES module cannot be, in Node 20). The hash in a script's name
// changes with its content, and so does the name of its cache: a new build never meets an old cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { Script } from 'node:vm';
import { build } from 'esbuild';

// Ink imports react-devtools-core only for development (DEV=true); the production bundle gets an empty stand-in.
const noDevtools = {
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

// string-width (every width Ink and the console measure) builds /^\p{RGI_Emoji}$/v as it loads and compiles it at
// its first non-ASCII text: ~30 ms before the first frame. src/startup/rgiEmoji.ts builds it only when a cluster
// has an Emoji character (every RGI emoji does), which most frames never have.
const RGI_EMOJI_LINE = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const lazyRgiEmoji = {
  name: 'lazy-rgi-emoji',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('/^\\p{RGI_Emoji}$/v')) return undefined;
      if (source.split(RGI_EMOJI_LINE).length !== 2) throw new Error(`lazy-rgi-emoji: ${args.path} changed (expected: ${RGI_EMOJI_LINE})`);
      const lazy = `import { rgiEmojiRegex } from ${JSON.stringify(resolve('src/startup/rgiEmoji.ts'))};`;
      return { contents: source.replace(RGI_EMOJI_LINE, lazy), loader: 'js' };
    });
  },
};

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

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
};

/** Bundles `entry` as one script; `imports` are the import() calls left to the host (resolved by the bin). */
async function script(name, entry, imports) {
  const result = await build({
    ...common,
    entryPoints: [entry],
    format: 'esm',
    write: false,
    outdir: 'dist/chunks',
    define: { ...common.define, 'import.meta.url': '__bcImportMetaUrl' },
    external: imports,
    plugins: [noDevtools, yogaWithoutFetch, lazyRgiEmoji, requireBuiltins],
  });
  let body = result.outputFiles[0].text;
  for (const specifier of imports) {
    const call = `import(${JSON.stringify(specifier)})`;
    if (body.split(call).length !== 2) throw new Error(`${name} script: expected one ${call}`);
    body = body.replace(call, `__bcHost.import(${JSON.stringify(specifier)})`);
  }
  if (/(?<![\w$.])import\s*\(|import\.meta/.test(body)) throw new Error(`${name} script: an import() or import.meta is left, which a script cannot run`);
  const text = `(async function (require, __bcHost, __bcImportMetaUrl) {"use strict";\n${body}\n})`;
  // Throws on an import or export statement: the file must be a script.
  new Script(text, { filename: `${name}.js` });
  const file = `chunks/${name}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}.js`;
  writeFileSync(`dist/${file}`, text);
  return file;
}

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/chunks', { recursive: true });
const appScript = await script('app', 'src/startup/appScript.ts', ['keytar', 'undici']);
const undiciScript = await script('undici', 'src/startup/undiciScript.ts', []);

// The bin is CommonJS (dist/package.json says so): Node starts it without setting up its ES module loader.
await build({
  ...common,
  entryPoints: { 'broker-console': 'src/startup/bin.ts' },
  outdir: 'dist',
  format: 'cjs',
  define: { ...common.define, __BC_APP_SCRIPT__: JSON.stringify(appScript), __BC_UNDICI_SCRIPT__: JSON.stringify(undiciScript) },
  // keytar is a native addon outside the bundle: the bin imports it from node_modules for the program.
  external: ['keytar'],
  banner: { js: '#!/usr/bin/env node' },
});
writeFileSync('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
