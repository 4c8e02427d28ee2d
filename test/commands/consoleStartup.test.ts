// What the console's first screen says when no target opens: nothing set up, no default among the profiles,
// or a profile file that cannot be read (named, never replaced) — from real files, through resolveTarget.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startupProblem } from '../../src/commands/interactive';
import { profilesPath, removeProfile, saveProfile } from '../../src/credentials/profiles';
import { resolveTarget } from '../../src/credentials/resolve';

const root = mkdtempSync(join(tmpdir(), 'bc-console-startup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const folderFor = (label: string): string => mkdtempSync(join(root, `${label}-`));
const profile = (name: string) => ({ name, baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const });

async function problemIn(folder: string, flags: { profile?: string; baseUrl?: string } = {}) {
  const resolved = await resolveTarget({ flags, env: {}, folder });
  if (resolved.ok) throw new Error('a target opened');
  return startupProblem(resolved, folder, flags.baseUrl !== undefined);
}

describe("the console's first screen without a target", () => {
  it('nothing set up: the welcome', async () => {
    expect(await problemIn(folderFor('none'))).toEqual({ kind: 'no-profile', message: 'No profile is set up yet.' });
  });

  it('profiles, none the default (its default removed): says so, naming them', async () => {
    const folder = folderFor('nodefault');
    await saveProfile(folder, profile('first'));
    await saveProfile(folder, profile('second'));
    await removeProfile(folder, 'first');
    expect(await problemIn(folder)).toEqual({
      kind: 'no-profile',
      message: 'No profile is the default (second): ctrl+p opens one; `broker-console profile use NAME` makes it the default.',
    });
  });

  it.each([
    ['truncated', '{"profiles": [{"name": "prod"'],
    ['empty', ''],
    ['not JSON', 'not json at all'],
  ])('a profile file %s: named, with --profile too, and left as it was', async (_label, content) => {
    const folder = folderFor('damaged');
    mkdirSync(folder, { recursive: true });
    writeFileSync(profilesPath(folder), content);
    for (const flags of [{}, { profile: 'prod' }]) {
      const problem = await problemIn(folder, flags);
      expect(problem?.kind).toBe('profiles');
      expect(problem?.message).toContain(profilesPath(folder));
    }
    expect(readFileSync(profilesPath(folder), 'utf8')).toBe(content);
  });

  it('a base URL given names a target: no welcome (the error is said instead)', async () => {
    expect(await problemIn(folderFor('url'), { baseUrl: 'http://127.0.0.1:9' })).toBeUndefined();
  });
});
