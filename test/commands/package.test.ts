// The package as npm packs it: only what runs (the bundle and the licence notices of what it holds, README,
// package.json), under 30 files; nothing
// the bundle already holds is a runtime dependency; `engines` is the real minimum. CI goes further (.ci/run):
// it packs, installs the tarball into a temporary prefix and runs the installed binary.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageNotice } from '../../scripts/notices.mjs';
import { buildCli } from './helpers';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license?: string;
  private?: boolean;
  files?: string[];
  engines?: { node?: string };
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

interface PackFile {
  path: string;
}

let bundle: string;
beforeAll(async () => {
  // The bundle the package is made of (built by npm's prepack; here by the tests' shared build).
  bundle = dirname(await buildCli());
});

/** Every module the bundle loads from outside itself (not relative, not a Node built-in). */
function outsideImports(dir: string): Set<string> {
  const found = new Set<string>();
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith('.js'));
  for (const file of files) {
    const text = readFileSync(join(file.parentPath, file.name), 'utf8');
    // import("x") (not ObjC.import("AppKit") inside a macOS script), from"x", import"x", require("x").
    for (const match of text.matchAll(/(?<![.\w$])(?:import\(|require\()\s*["']([^"']+)["']\s*\)|\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']/g)) {
      const name = match[1] ?? match[2] ?? match[3] ?? '';
      // Only what can name a package (minified code also has `from"` inside strings).
      if (name.startsWith('.') || builtins.has(name) || !/^(@[\w.-]+\/)?[\w.-]+(\/[\w.@-]+)*$/.test(name)) continue;
      found.add(name);
    }
  }
  return found;
}

describe('the package', () => {
  it('npm pack holds the bundle, its licence notices, README.md and package.json only, under 30 files', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [packed] = JSON.parse(r.stdout) as { files: PackFile[]; entryCount: number }[];
    const paths = (packed?.files ?? []).map((f) => f.path).sort();
    expect(paths.length).toBeLessThan(30);
    expect(paths).toContain('dist/broker-console.js');
    expect(paths).toContain('README.md');
    expect(paths).toContain('package.json');
    expect(paths).toContain('dist/THIRD-PARTY-NOTICES.txt');
    // dist/package.json says the bin is CommonJS (Node then starts it without its ES module loader).
    const unexpected = paths.filter(
      (p) => !['README.md', 'package.json'].includes(p) && !/^dist\/(broker-console\.js|package\.json|THIRD-PARTY-NOTICES\.txt|chunks\/[\w-]+\.js)$/.test(p),
    );
    expect(unexpected).toEqual([]);
    // Every file of the bundle is in it (the chunks are loaded lazily: a missing one fails only later).
    const built = readdirSync(join(ROOT, 'dist', 'chunks')).map((f) => `dist/chunks/${f}`);
    expect(paths.filter((p) => p.startsWith('dist/chunks/')).sort()).toEqual(built.sort());
  });

  it('runtime dependencies: only what the bundle loads from node_modules (@github/keytar, optional); the rest is bundled, so dev', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual(['@github/keytar']);
    const outside = outsideImports(bundle);
    expect([...outside].sort()).toEqual(['@github/keytar']);
    // What the bundle holds is declared (for the build) as a devDependency.
    for (const name of ['big.js', 'commander', 'env-paths', 'ink', 'react', 'string-width', 'undici', 'valibot']) {
      expect(pkg.devDependencies?.[name], name).toBeDefined();
    }
    expect(pkg.devDependencies?.['ink-table']).toBeUndefined();
  });

  it("every package the code, the tests and the scripts import is declared, none reached through another's", () => {
    const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.devDependencies }));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const undeclared = new Set<string>();
    for (const top of ['src', 'test', 'scripts', 'bench']) {
      for (const file of readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:ts|tsx|mjs|cjs)$/.test(f))) {
        const text = readFileSync(join(ROOT, top, file), 'utf8');
        // Static imports, import() and require() of a bare name: its package is the name up to its first
        // slash (two for a scope).
        for (const [, specifier = ''] of text.matchAll(/(?:\bfrom |\bimport\(|\brequire\(|createRequire\([^)]*\)\()\s*'([@a-z0-9][^']*)'/g)) {
          if (builtins.has(specifier) || builtins.has(specifier.split('/')[0]!)) continue;
          const name = specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/');
          if (!declared.has(name)) undeclared.add(`${name} (${top}/${file})`);
        }
      }
    }
    expect([...undeclared].sort()).toEqual([]);
  });

  it('the licence notice of every bundled package ships beside the bundle, as the package wrote it', () => {
    const text = readFileSync(join(bundle, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    const headers = [...text.matchAll(/^={78}\n(.+)@([^@\s]+) \((.+)\)\n={78}$/gm)].map(([, name, version, license]) => ({ name, version, license }));
    const names = new Set(headers.map((h) => h.name));
    // What the bundle is built from (the devDependencies it holds) and what Ink and React bring in.
    for (const name of [
      'big.js',
      'commander',
      'env-paths',
      'ink',
      'react',
      'string-width',
      'undici',
      'valibot',
      'react-reconciler',
      'scheduler',
      'yoga-layout',
      'chalk',
    ]) {
      expect(names.has(name), name).toBe(true);
    }
    // Each notice is the licence of the installed package of that name and version (top-level or nested).
    const nested = readdirSync(join(ROOT, 'node_modules'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) =>
        e.name.startsWith('@') ? readdirSync(join(ROOT, 'node_modules', e.name)).map((n) => `node_modules/${e.name}/${n}`) : [`node_modules/${e.name}`],
      );
    for (const { name, version, license } of headers) {
      const dir = [`node_modules/${name}`, ...nested.map((d) => `${d}/node_modules/${name}`)].find((d) => {
        try {
          return (JSON.parse(readFileSync(join(ROOT, d, 'package.json'), 'utf8')) as { version?: string }).version === version;
        } catch {
          return false;
        }
      });
      expect(dir, `${name}@${version} installed`).toBeDefined();
      const notice = packageNotice(ROOT, dir ?? '');
      expect(license, name).toBe(notice.license);
      expect(notice.text.length, name).toBeGreaterThan(0);
      expect(text).toContain(notice.text);
    }
  });

  it('engines: Node 22.19 or later (20 is past end of life; undici 8 needs 22.19); prepack builds; licence stays honest', () => {
    const minimum = (name: string): string | undefined =>
      (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
    expect(pkg.engines?.node).toBe('>=22.19');
    for (const name of ['undici', 'ink', 'commander']) {
      const floor = /(\d+)(?:\.(\d+))?/.exec(minimum(name) ?? '>=0')!;
      expect(Number(floor[1]) * 1000 + Number(floor[2] ?? 0), `${name} needs ${minimum(name)}`).toBeLessThanOrEqual(22 * 1000 + 19);
    }
    expect(pkg.scripts?.prepack).toMatch(/npm run build/);
    expect(pkg.files).toEqual(['dist/']);
    expect(pkg.bin).toEqual({ 'broker-console': 'dist/broker-console.js' });
    expect(pkg.license).toBe('UNLICENSED');
    expect(pkg.private).toBe(true);
  });
});
