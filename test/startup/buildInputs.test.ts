// scripts/build.mjs skips a build only when dist/ is what a build of the same inputs wrote: any source, build script,
// lockfile or output changed, added or removed means a build.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { distIsCurrent, inputsHash, stampBuild } from '../../scripts/buildInputs.mjs';

const root = mkdtempSync(join(tmpdir(), 'bc-build-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): void => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

describe('whether dist/ is current', () => {
  it('yes after a build; no once an input or an output differs, until built again', () => {
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'scripts/scriptBundle.mjs', 'scripts/textPatches.mjs', 'scripts/buildInputs.mjs', 'scripts/notices.mjs']) write(file, `${file}\n`);
    write('src/cli.ts', 'one');
    write('src/ui/App.tsx', 'app');
    write('dist/broker-console.js', 'bin');
    write('dist/chunks/app-1.js', 'chunk');
    expect(distIsCurrent(root)).toBe(false); // never built
    stampBuild(root, inputsHash(root));
    expect(distIsCurrent(root)).toBe(true);

    const differs = (change: () => void, undo: () => void): void => {
      change();
      expect(distIsCurrent(root)).toBe(false);
      undo();
      expect(distIsCurrent(root)).toBe(true);
    };
    differs(() => write('src/ui/App.tsx', 'app2'), () => write('src/ui/App.tsx', 'app'));
    differs(() => write('src/ui/new.ts', ''), () => unlinkSync(join(root, 'src/ui/new.ts')));
    differs(() => write('package-lock.json', 'other'), () => write('package-lock.json', 'package-lock.json\n'));
    differs(() => write('scripts/scriptBundle.mjs', 'x'), () => write('scripts/scriptBundle.mjs', 'scripts/scriptBundle.mjs\n'));
    differs(() => write('dist/chunks/app-1.js', 'edited'), () => write('dist/chunks/app-1.js', 'chunk'));
    differs(() => write('dist/chunks/app-2.js', 'extra'), () => unlinkSync(join(root, 'dist/chunks/app-2.js')));
    differs(() => unlinkSync(join(root, 'dist/broker-console.js')), () => write('dist/broker-console.js', 'bin'));

    // Inputs hashed as a build started, changed before it ended: the next build runs.
    const before = inputsHash(root);
    write('src/cli.ts', 'two');
    stampBuild(root, before);
    expect(distIsCurrent(root)).toBe(false);
  });
});
