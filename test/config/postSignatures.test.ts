// post-signatures.json: the rule each base URL last accepted. A damaged file or entry counts as none; the file
// keeps the most recently confirmed base URLs only.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_POST_SIGNATURES, loadPostSignature, postSignaturesPath, savePostSignature } from '../../src/config/postSignatures';

let folder: string | undefined;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('post-signatures.json', () => {
  it('keeps one rule per base URL and gives it back; another base URL is unknown', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-post-file-'));
    expect(await loadPostSignature(folder, 'http://127.0.0.1:1')).toBeUndefined();
    await savePostSignature(folder, 'http://127.0.0.1:1', 'body', 1000);
    await savePostSignature(folder, 'http://127.0.0.1:2', 'query', 2000);
    expect(await loadPostSignature(folder, 'http://127.0.0.1:1')).toBe('body');
    expect(await loadPostSignature(folder, 'http://127.0.0.1:2')).toBe('query');
    expect(await loadPostSignature(folder, 'http://127.0.0.1:3')).toBeUndefined();
    await savePostSignature(folder, 'http://127.0.0.1:1', 'query', 3000);
    expect(await loadPostSignature(folder, 'http://127.0.0.1:1')).toBe('query');
  });

  it('a damaged file, or an entry it cannot read, counts as none; the next save replaces it', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-post-file-'));
    await writeFile(postSignaturesPath(folder), '{ not json');
    expect(await loadPostSignature(folder, 'http://127.0.0.1:1')).toBeUndefined();
    await writeFile(
      postSignaturesPath(folder),
      JSON.stringify({ 'http://127.0.0.1:1': { rule: 'both', acceptedAt: 1 }, 'http://127.0.0.1:2': { rule: 'body', acceptedAt: 1 } }),
    );
    expect(await loadPostSignature(folder, 'http://127.0.0.1:1')).toBeUndefined();
    expect(await loadPostSignature(folder, 'http://127.0.0.1:2')).toBe('body');
    await savePostSignature(folder, 'http://127.0.0.1:3', 'query', 5);
    expect(Object.keys(JSON.parse(await readFile(postSignaturesPath(folder), 'utf8')) as object)).toEqual(['http://127.0.0.1:3', 'http://127.0.0.1:2']);
  });

  it(`keeps the ${MAX_POST_SIGNATURES} most recently confirmed base URLs`, async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-post-file-'));
    for (let i = 0; i <= MAX_POST_SIGNATURES; i += 1) await savePostSignature(folder, `http://127.0.0.1:${1000 + i}`, 'body', 10_000 + i);
    const kept = JSON.parse(await readFile(postSignaturesPath(folder), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(kept)).toHaveLength(MAX_POST_SIGNATURES);
    expect(await loadPostSignature(folder, 'http://127.0.0.1:1000')).toBeUndefined();
    expect(await loadPostSignature(folder, `http://127.0.0.1:${1000 + MAX_POST_SIGNATURES}`)).toBe('body');
  });
});
