// `profile add --color`: one of a few named colours, saved in the profile for the console's header; any other
// word is refused naming the flag (exit 2) before a secret is asked for or anything is saved.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { folderKeychain, openKeychain } from '../../src/credentials/keychain';
import { loadProfiles, profilesPath } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { probeKeychain, uniqueProfile, busEnv } from '../credentials/keychainProbe';
import { runCli } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

const availability = await probeKeychain();
if (!availability.ok) console.warn(`SKIPPED keychain tests: ${availability.reason}`);

let sandbox: RunningSandbox;
const homes: string[] = [];
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 7 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
const newHome = (): string => {
  const home = mkdtempSync(join(tmpdir(), 'bc-profile-color-'));
  homes.push(home);
  return home;
};

describe('profile add --color', () => {
  it('a colour outside the set is refused naming the flag, exit 2, nothing asked, nothing saved', async () => {
    const home = newHome();
    const r = await runCli(['profile', 'add', 'prod', '--base-url', sandbox.baseUrl, '--color', 'purple'], { BROKER_CONSOLE_HOME: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'--color <name>' argument 'purple' is invalid. must be one of red, yellow, green, blue, magenta, cyan");
    expect(existsSync(profilesPath(home))).toBe(false);
    expect(sandbox.requests()).toEqual([]);
  });

  it('the help lists the colours', async () => {
    const r = await runCli(['profile', 'add', '--help'], {});
    expect(r.stdout.replace(/\s+/g, ' ')).toContain("--color <name> colour of its name in the console's header: red, yellow, green, blue, magenta, cyan");
  });

  it.skipIf(!availability.ok)('a colour of the set is saved in the profile and said back', async () => {
    const home = newHome();
    const n = uniqueProfile('colour');
    try {
      const r = await runCli(
        ['profile', 'add', n, '--base-url', sandbox.baseUrl, '--color', 'Cyan'],
        { ...busEnv(), BROKER_CONSOLE_HOME: home },
        { input: `${sandbox.apiKey}\n${sandbox.secretKey}\n` },
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('shown cyan');
      expect((await loadProfiles(home)).profiles).toMatchObject([{ name: n, color: 'cyan' }]);
    } finally {
      await folderKeychain(await openKeychain(), home)
        .remove(n)
        .catch(() => false);
    }
  });
});
