// The bin and the two scripts it runs through V8's code cache (src/startup/bin.ts):
//   dist/broker-console.js       the bin: --version, then the program from the cache (or compiled, and cached)
//   dist/chunks/app-<hash>.js    the program, commands and console (React's production build, Ink)
//   dist/chunks/undici-<hash>.js undici's Pool, loaded at the first request
//   dist/THIRD-PARTY-NOTICES.txt the licence notice of every package in the bundle (scripts/notices.mjs)
// How a script is bundled, and what the bundle changes in Ink's dependencies: scripts/scriptBundle.mjs.
// Nothing is done when dist/ is what a build of the same inputs wrote (scripts/buildInputs.mjs); --force builds anyway.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { distIsCurrent, inputsHash, stampBuild } from './buildInputs.mjs';

const inputs = inputsHash('.');
if (!process.argv.includes('--force') && distIsCurrent('.', inputs)) process.exit(0);
// Loaded only for a build: esbuild's API is most of a skipped build's time.
const { build } = await import('esbuild');
const { APP_LAZY_BUILTINS, UNDICI_LAZY_BUILTINS, bundleScript, common } = await import('./scriptBundle.mjs');
const { writeNotices } = await import('./notices.mjs');
const metafiles = [];
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/chunks', { recursive: true });
const appScript = `chunks/${await bundleScript({ name: 'app', entry: 'src/startup/appScript.ts', outDir: 'dist/chunks', imports: ['@github/keytar', 'undici'], inkPatches: true, lazy: APP_LAZY_BUILTINS, metafiles })}`;
const undiciScript = `chunks/${await bundleScript({ name: 'undici', entry: 'src/startup/undiciScript.ts', outDir: 'dist/chunks', lazy: UNDICI_LAZY_BUILTINS, metafiles })}`;
// The bin is CommonJS (dist/package.json says so): Node starts it without setting up its ES module loader.
const bin = await build({
  ...common,
  metafile: true,
  entryPoints: { 'broker-console': 'src/startup/bin.ts' },
  outdir: 'dist',
  format: 'cjs',
  define: { ...common.define, __BC_APP_SCRIPT__: JSON.stringify(appScript), __BC_UNDICI_SCRIPT__: JSON.stringify(undiciScript) },
  // @github/keytar is a native addon outside the bundle: the bin imports it from node_modules for the program.
  external: ['@github/keytar'],
  banner: { js: '#!/usr/bin/env node' },
});
writeFileSync('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
writeNotices('.', [...metafiles, bin.metafile], 'dist/THIRD-PARTY-NOTICES.txt');
stampBuild('.', inputs);
