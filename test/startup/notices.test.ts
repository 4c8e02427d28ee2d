// The licence notices the package ships (dist/THIRD-PARTY-NOTICES.txt): the packages are read from esbuild's
// metafile inputs, and each notice is the package's own licence file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledPackageDirs, noticesText, packageNotice } from '../../scripts/notices.mjs';

// Package folders as esbuild's metafile names them, laid out in a temporary folder (no real package is read).
const NM = 'node_modules';
const root = mkdtempSync(join(tmpdir(), 'bc-notices-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): void => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

describe('the packages behind a bundle', () => {
  it('one per package folder: scoped, nested under another package, and none for the project’s own files', () => {
    const dirs = bundledPackageDirs([
      'src/cli.ts',
      `${NM}/ink/build/index.js`,
      `${NM}/ink/build/render.js`,
      `${NM}/@alcalzone/ansi-tokenize/build/index.js`,
      `${NM}/wrap-ansi/${NM}/string-width/index.js`,
      'node_modules\\string-width\\index.js',
      'src/terminal/text.ts',
    ]);
    expect(dirs).toEqual([`${NM}/@alcalzone/ansi-tokenize`, `${NM}/ink`, `${NM}/string-width`, `${NM}/wrap-ansi/${NM}/string-width`]);
  });

  it('each notice holds the package’s name, version, declared licence and every licence file’s text', () => {
    write(`${NM}/a/package.json`, JSON.stringify({ name: 'a', version: '1.2.3', license: 'MIT' }));
    write(`${NM}/a/LICENSE`, 'Copyright (c) A\n');
    write(`${NM}/a/index.js`, '');
    write(`${NM}/@s/b/package.json`, JSON.stringify({ name: '@s/b', version: '0.1.0', license: 'Apache-2.0' }));
    write(`${NM}/@s/b/LICENSE.txt`, 'Apache licence of b');
    write(`${NM}/@s/b/NOTICE`, 'b notice');
    expect(packageNotice(root, `${NM}/@s/b`)).toMatchObject({ name: '@s/b', license: 'Apache-2.0', files: ['LICENSE.txt', 'NOTICE'] });
    const text = noticesText(root, [`${NM}/@s/b`, `${NM}/a`]);
    expect(text).toContain('@s/b@0.1.0 (Apache-2.0)');
    expect(text).toContain('Apache licence of b');
    expect(text).toContain('b notice');
    expect(text).toContain('a@1.2.3 (MIT)');
    expect(text).toContain('Copyright (c) A');
  });

  it('a package that ships no licence file fails the build rather than ship an empty notice', () => {
    write(`${NM}/bare/package.json`, JSON.stringify({ name: 'bare', version: '1.0.0', license: 'MIT' }));
    expect(() => noticesText(root, [`${NM}/bare`])).toThrow(/no licence file in bare@1\.0\.0/);
  });

  it('a known package without a licence file gets the licence its package.json declares', () => {
    write(`${NM}/yoga-layout/package.json`, JSON.stringify({ name: 'yoga-layout', version: '3.2.1', license: 'MIT' }));
    const text = noticesText(root, [`${NM}/yoga-layout`]);
    expect(text).toContain('yoga-layout@3.2.1 (MIT)');
    expect(text).toContain('Copyright (c) Meta Platforms, Inc. and affiliates.');
    expect(text).toContain('Permission is hereby granted, free of charge');
  });
});
