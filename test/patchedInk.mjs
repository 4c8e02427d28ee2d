// The Ink the tests render with: copies of Ink and the text packages it measures and cuts with, patched as the
// console's bundle patches them (scripts/textPatches.mjs), in node_modules/.cache. The copies sit in a
// node_modules of their own, so their imports of each other find the patched copies and any other import
// (React, yoga-layout, chalk) finds the installed package, the one instance the tests use too. vitest.config.ts
// points `ink`, `string-width`, … at them; Node loads them as it loads any package, so no module hook (a thread
// every import of a worker goes through) is needed. Plain JavaScript: the config and the setup load it as is.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PATCHED_FILES, patchText } from '../scripts/textPatches.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The packages copied: every one that imports string-width, slice-ansi, the ANSI tokenizer or widest-line, and
 * ink-testing-library (one test renders through it: its Ink is then the same copy).
 */
export const PATCHED_PACKAGES = ['ink', 'string-width', 'wrap-ansi', 'cli-truncate', 'slice-ansi', 'widest-line', '@alcalzone/ansi-tokenize', 'ink-testing-library'];

const home = join(root, 'node_modules', '.cache', 'broker-console-ink');
/** Where the copies are: a node_modules of their own. */
export const PATCHED_MODULES = join(home, 'node_modules');

/** The file a bare import of `name` (one of PATCHED_PACKAGES) loads from the copies. */
export function patchedEntry(name) {
  const json = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
  const exported = typeof json.exports === 'string' ? json.exports : (json.exports?.['.'] ?? json.exports);
  const entry = (typeof exported === 'object' && exported !== null ? (exported.import ?? exported.default) : exported) ?? json.main ?? 'index.js';
  return join(PATCHED_MODULES, name, entry);
}

const SPECIFIERS = {
  rgiEmoji: pathToFileURL(join(root, 'src/terminal/rgiEmoji.mjs')).href,
  segmenter: pathToFileURL(join(root, 'src/terminal/graphemeSegmenter.mjs')).href,
  widestLine: pathToFileURL(join(root, 'src/ui/ink/widestLine.mjs')).href,
};

/** What the copies are made from: the packages' installed files and the patches. */
function inputsHash() {
  const hash = createHash('sha256');
  for (const file of [fileURLToPath(import.meta.url), join(root, 'scripts/textPatches.mjs'), join(root, 'package-lock.json')]) hash.update(readFileSync(file));
  for (const name of PATCHED_PACKAGES) {
    const stat = statSync(join(root, 'node_modules', name, 'package.json'));
    hash.update(`${name}\0${stat.mtimeMs}\0${stat.size}\0`);
  }
  hash.update(JSON.stringify(SPECIFIERS));
  return hash.digest('hex');
}

/** Every .js file under `dir`. */
function* jsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

/**
 * Makes the copies unless the ones there were made from the same inputs; returns the files patched (relative to
 * PATCHED_MODULES). Throws when a package no longer has what a patch expects. Made aside, then moved in place.
 */
export function preparePatchedInk() {
  const hash = inputsHash();
  const stamp = join(home, 'made-from');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return patchedFiles();
  const building = `${home}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  for (const name of PATCHED_PACKAGES) cpSync(join(root, 'node_modules', name), join(building, 'node_modules', name), { recursive: true, dereference: true });
  let patched = 0;
  for (const file of jsFiles(building)) {
    // The patterns look for /node_modules/<package>/…: the copies' paths have them too.
    if (!PATCHED_FILES.test(file)) continue;
    writeFileSync(file, patchText(file, readFileSync(file, 'utf8'), SPECIFIERS));
    patched += 1;
  }
  if (patched !== 5) throw new Error(`patched Ink: expected 5 files to patch (two string-widths, the tokenizers, the renderer), found ${patched}`);
  writeFileSync(join(building, 'made-from'), hash);
  rmSync(home, { recursive: true, force: true });
  renameSync(building, home);
  return patchedFiles();
}

/** The patched files among the copies, relative to PATCHED_MODULES. */
export function patchedFiles() {
  return [...jsFiles(PATCHED_MODULES)].filter((file) => PATCHED_FILES.test(file)).map((file) => relative(PATCHED_MODULES, file));
}
