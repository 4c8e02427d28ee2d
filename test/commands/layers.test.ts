// Imports run down the layers only: the service, storage, export, sandbox and text modules never import the
// commands, the console or the start-up code above them.
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
