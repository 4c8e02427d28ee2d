// Comments cite only what the repository holds: no outside design brief, style guide, spec section or issue
// number; every docs/ page a source file or the README names exists, and a "docs/design.md, <rule>" names one
// of that page's sections.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['src', 'scripts', 'test', 'bench', '.ci'];
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$|^[^.]+$/;

function sources(): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name)) files.push({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') });
    }
  };
  for (const folder of FOLDERS) walk(join(ROOT, folder));
  return files;
}

/** The comment lines of a file: `//` lines, block-comment lines, and `#` lines of shell scripts. */
function commentLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s*(\/\/|\/\*|\*|#)/.test(line) || /\s\/\/\s/.test(line));
}

// This file names the patterns it forbids, so it is left out of the scan.
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/** The README and every page of docs/. */
function docPages(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

describe('what comments cite', () => {
  it('no design brief, style guide, spec section or issue number the repository does not hold', () => {
    const forbidden = /DESIGN\b|STYLE\.md|design brief|spec §|§\s?\d|\b[Ii]ssue \d+|(?<!UTS )#\d{2,}\b/;
    const found = sources()
      .filter((file) => file.path !== SELF)
      .flatMap((file) =>
        commentLines(file.text)
          .filter((line) => forbidden.test(line))
          .map((line) => `${file.path}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });

  it('the docs and the README cite no design brief, style guide, spec section, open issue or session either', () => {
    const pages = docPages();
    const forbidden = /DESIGN\b|STYLE\.md|design brief|the design named|original design|spec\/service-api|§\s?\d|\bthe open issue\b|this session/;
    const found = pages.flatMap((page) =>
      readFileSync(join(ROOT, page), 'utf8')
        .split('\n')
        .filter((line) => forbidden.test(line))
        .map((line) => `${page}: ${line.trim().slice(0, 120)}`),
    );
    expect(found).toEqual([]);
  });

  it('every docs/ page named in a source file or the README exists', () => {
    const named = [...sources(), { path: 'README.md', text: readFileSync(join(ROOT, 'README.md'), 'utf8') }].flatMap((file) =>
      [...file.text.matchAll(/\bdocs\/([\w-]+\.md)\b/g)].map((m) => ({ file: file.path, page: `docs/${m[1]}` })),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(({ page }) => !existsSync(join(ROOT, page)))).toEqual([]);
  });

  it('every relative link in the README and docs/ reaches a file there (its #anchor a heading of it)', () => {
    const pages = docPages();
    // GitHub's anchor of a heading: lower case, punctuation gone, spaces as hyphens.
    const anchorsOf = (page: string): string[] =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
        (m[1] ?? '')
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      );
    const broken = pages.flatMap((page) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] ?? '')
        .filter((link) => !/^[a-z]+:/i.test(link))
        .flatMap((link) => {
          const [file = '', anchor] = link.split('#');
          const target = file === '' ? page : relative(ROOT, join(ROOT, dirname(page), file));
          if (!existsSync(join(ROOT, target))) return [`${page}: ${link} (no ${target})`];
          if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).includes(anchor)) return [`${page}: ${link} (no heading #${anchor})`];
          return [];
        }),
    );
    expect(broken).toEqual([]);
  });

  it('"docs/design.md, <rule>" names a section of docs/design.md', () => {
    const sections = [...readFileSync(join(ROOT, 'docs/design.md'), 'utf8').matchAll(/^## (.+)$/gm)].map((m) => m[1]?.toLowerCase());
    const cited = sources().flatMap((file) => [...file.text.matchAll(/docs\/design\.md, ([a-z ]+?)[):]/g)].map((m) => ({ file: file.path, rule: m[1] ?? '' })));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter(({ rule }) => !sections.includes(rule))).toEqual([]);
  });
});
