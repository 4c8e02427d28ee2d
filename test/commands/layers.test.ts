// Imports run down the layers only (docs/design.md): the service, storage, export, sandbox and text modules never
// import the front ends or the start-up code above them; the console never imports the commands; neither front end
// imports the start-up code.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
const LOWER = ['api', 'audit', 'config', 'credentials', 'export', 'format', 'sandbox', 'terminal'];
const UPPER = ['commands', 'ui', 'startup', 'cli'];

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

it('no lower module imports the commands, the console or start-up', () => {
  const upward: string[] = [];
  for (const layer of LOWER) {
    for (const file of files(join(SRC, layer))) {
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
        const target = relative(SRC, join(file, '..', specifier!)).split('/')[0]!;
        if (UPPER.includes(target.replace(/\.tsx?$/, ''))) upward.push(`${relative(SRC, file)} → ${specifier}`);
      }
    }
  }
  expect(upward).toEqual([]);
});

/** The imports of the files under `folder` whose target's first path part is in `targets`. */
function importsInto(folder: string, targets: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files(join(SRC, folder))) {
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
      const target = relative(SRC, join(file, '..', specifier!)).split('/')[0]!;
      if (targets.includes(target.replace(/\.tsx?$/, ''))) found.push(`${relative(SRC, file)} → ${specifier}`);
    }
  }
  return found;
}

it('the console imports neither the commands nor start-up; the commands do not import start-up', () => {
  expect(importsInto('ui', ['commands', 'startup', 'cli'])).toEqual([]);
  expect(importsInto('commands', ['startup', 'cli'])).toEqual([]);
});
