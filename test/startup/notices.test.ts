// The licence notices the package ships (dist/THIRD-PARTY-NOTICES.txt): the packages are read from esbuild's
// metafile inputs, and each notice is the package's own licence file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledPackageDirs, noticesText, packageNotice } from '../../scripts/notices.mjs';

const root = mkdtempSync(join(tmpdir(), 'bc-notices-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): void => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

describe('the packages behind a bundle', () => {
  it('one per package folder: scoped, nested under another package, and none for the project’s own files', () => {
    const dirs = bundledPackageDirs([
      'src/cli.tsx',
      'node_modules/ink/build/index.js',
      'node_modules/ink/build/render.js',
      'node_modules/@alcalzone/ansi-tokenize/build/index.js',
      'node_modules/wrap-ansi/node_modules/string-width/index.js',
      'node_modules\\string-width\\index.js',
      'src/startup/graphemeSegmenter.mjs',
    ]);
    expect(dirs).toEqual([
      'node_modules/@alcalzone/ansi-tokenize',
      'node_modules/ink',
      'node_modules/string-width',
      'node_modules/wrap-ansi/node_modules/string-width',
    ]);
  });

  it('each notice holds the package’s name, version, declared licence and every licence file’s text', () => {
    write('node_modules/a/package.json', JSON.stringify({ name: 'a', version: '1.2.3', license: 'MIT' }));
    write('node_modules/a/LICENSE', 'Copyright (c) A\n');
    write('node_modules/a/index.js', '');
    write('node_modules/@s/b/package.json', JSON.stringify({ name: '@s/b', version: '0.1.0', license: 'Apache-2.0' }));
    write('node_modules/@s/b/LICENSE.txt', 'Apache licence of b');
    write('node_modules/@s/b/NOTICE', 'b notice');
    expect(packageNotice(root, 'node_modules/@s/b')).toMatchObject({ name: '@s/b', license: 'Apache-2.0', files: ['LICENSE.txt', 'NOTICE'] });
    const text = noticesText(root, ['node_modules/@s/b', 'node_modules/a']);
    expect(text).toContain('@s/b@0.1.0 (Apache-2.0)');
    expect(text).toContain('Apache licence of b');
    expect(text).toContain('b notice');
    expect(text).toContain('a@1.2.3 (MIT)');
    expect(text).toContain('Copyright (c) A');
  });

  it('a package that ships no licence file fails the build rather than ship an empty notice', () => {
    write('node_modules/bare/package.json', JSON.stringify({ name: 'bare', version: '1.0.0', license: 'MIT' }));
    expect(() => noticesText(root, ['node_modules/bare'])).toThrow(/no licence file in bare@1\.0\.0/);
  });

  it('a known package without a licence file gets the licence its package.json declares', () => {
    write('node_modules/yoga-layout/package.json', JSON.stringify({ name: 'yoga-layout', version: '3.2.1', license: 'MIT' }));
    const text = noticesText(root, ['node_modules/yoga-layout']);
    expect(text).toContain('yoga-layout@3.2.1 (MIT)');
    expect(text).toContain('Copyright (c) Meta Platforms, Inc. and affiliates.');
    expect(text).toContain('Permission is hereby granted, free of charge');
  });
});
