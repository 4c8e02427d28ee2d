// The licence notices of every package the bundle holds: esbuild's metafile names each input file, the
// package it comes from is the folder after its last node_modules/, and that package's own licence file and
// package.json `license` are copied into one text the package ships beside the bundle.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

const MIT = (holder) => `MIT License

Copyright (c) ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

/**
 * Packages whose published files hold no licence file: the licence their package.json declares, with the
 * copyright line their sources carry. A package missing here and shipping no licence file fails the build.
 */
const WITHOUT_LICENCE_FILE = {
  'yoga-layout': { license: 'MIT', text: MIT('Meta Platforms, Inc. and affiliates.') },
};

/** The package folders (relative, as the metafile names them) of these bundled input files, sorted. */
export function bundledPackageDirs(inputFiles) {
  const dirs = new Set();
  for (const file of inputFiles) {
    const path = file.replaceAll('\\', '/');
    const at = path.lastIndexOf('node_modules/');
    if (at === -1) continue;
    const rest = path.slice(at + 'node_modules/'.length).split('/');
    const name = rest[0]?.startsWith('@') ? rest.slice(0, 2).join('/') : rest[0];
    if (name) dirs.add(path.slice(0, at + 'node_modules/'.length) + name);
  }
  const name = (dir) => dir.slice(dir.lastIndexOf('node_modules/'));
  return [...dirs].sort((a, b) => name(a).localeCompare(name(b)) || a.localeCompare(b));
}

/** One package's notice: name, version, declared licence and the text of each licence file it ships. */
export function packageNotice(root, dir) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'UNKNOWN');
  const files = readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isFile() && LICENCE_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const texts = files.map((file) => readFileSync(join(root, dir, file), 'utf8').trim());
  const known = WITHOUT_LICENCE_FILE[pkg.name];
  if (texts.length === 0 && known?.license === license) return { name: pkg.name, version: pkg.version, license, files: ['package.json'], text: known.text };
  return { name: pkg.name, version: pkg.version, license, files, text: texts.join('\n\n') };
}

/** The notices text for these package folders; throws when one ships no licence file (its notice would be empty). */
export function noticesText(root, dirs) {
  const notices = dirs.map((dir) => packageNotice(root, dir));
  const bare = notices.filter((n) => n.files.length === 0).map((n) => `${n.name}@${n.version}`);
  if (bare.length > 0) throw new Error(`no licence file in ${bare.join(', ')}: add its notice to WITHOUT_LICENCE_FILE in scripts/notices.mjs`);
  const head = `Third-party software bundled in broker-console's dist/, with the licence notice each package ships.\n`;
  const sections = notices.map((n) => `${'='.repeat(78)}\n${n.name}@${n.version} (${n.license})\n${'='.repeat(78)}\n\n${n.text}\n`);
  return [head, ...sections].join('\n');
}

/** Writes the notices of the packages behind these esbuild metafiles' inputs to `outFile`; returns their folders. */
export function writeNotices(root, metafiles, outFile) {
  const dirs = bundledPackageDirs(metafiles.flatMap((metafile) => Object.keys(metafile.inputs)));
  writeFileSync(join(root, outFile), noticesText(root, dirs));
  return dirs;
}
