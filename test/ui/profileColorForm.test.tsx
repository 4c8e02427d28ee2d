// The console's add-profile form takes the profile's colour too: a word outside the set is named on the field
// and nothing is checked or saved; a colour of the set is saved and the header shows the name in it at once.
import React from 'react';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import type { Keychain, StoredCredentials } from '../../src/credentials/keychain';
import { loadProfiles } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { afterRender } from '../../src/terminal/keyStream';
import { ConsoleRoot } from '../../src/ui/run';
import { makeTheme } from '../../src/ui/theme';
import { KEYS, sleep } from './harness';
import { renderInTerminal, type TestTerminal } from './terminal';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox | undefined;
let targets: ConsoleTargets | undefined;
let terminal: TestTerminal | undefined;
let folder: string | undefined;
afterEach(async () => {
  terminal?.unmount();
  await targets?.close();
  await sandbox?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

function memoryKeychain(): Keychain {
  const entries = new Map<string, StoredCredentials>();
  return {
    get: async (profile) => entries.get(profile),
    set: async (profile, credentials) => void entries.set(profile, credentials),
    remove: async (profile) => entries.delete(profile),
  };
}

describe('the add-profile form: Colour', () => {
  it('refuses a colour outside the set on its field, then saves green and shows LIVE NAME in green', async () => {
    sandbox = await ownSandbox({ seed: 2 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profile-colour-form-'));
    const keychain = memoryKeychain();
    targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    targets.setStartupProblem({ kind: 'no-profile', message: 'No profile is set up yet.' });
    const t = renderInTerminal(<ConsoleRoot switcher={targets} theme={makeTheme(false)} copy={async () => 'copied'} onExit={() => undefined} />, {
      columns: 100,
      rows: 30,
    });
    terminal = t;
    const frame = () => stripVTControlCharacters(t.stdout.lastFrame() ?? '');
    const press = async (sequence: string) => {
      t.write(sequence);
      while (t.keys.backlog() > 0) await afterRender();
      await afterRender();
    };
    const type = async (text: string) => {
      for (const ch of text) await press(ch);
    };
    const waitFor = async (text: string) => {
      const until = Date.now() + 5000;
      while (!frame().includes(text)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${text}; the frame was:\n${frame()}`);
        await sleep(5);
      }
    };
    await waitFor('Add a profile');
    await press(KEYS.down);
    await press(KEYS.enter);
    await waitFor('Colour');
    expect(frame()).toContain('blank, or red, yellow, green, blue, magenta, cyan');
    await type('desk');
    await press(KEYS.tab);
    await type(sandbox.baseUrl);
    await press(KEYS.tab);
    await type(sandbox.apiKey);
    await press(KEYS.tab);
    await type(sandbox.secretKey);
    for (let i = 0; i < 3; i++) await press(KEYS.tab);
    await type('purple');
    await press(KEYS.enter);
    await waitFor('colour: blank, or one of red, yellow, green, blue, magenta, cyan');
    expect(sandbox.requests()).toHaveLength(0);
    expect((await loadProfiles(folder)).profiles).toHaveLength(0);
    await press('\u0015'); // ctrl+u clears the field
    await type('Green');
    await press(KEYS.enter);
    await waitFor('Choose a sub-account');
    expect((await loadProfiles(folder)).profiles).toMatchObject([{ name: 'desk', color: 'green' }]);
    await waitFor(' LIVE desk ');
    expect((t.stdout.lastFrame() ?? '').split('\n')[0]).toMatch(/\u001b\[42m[^\n]* LIVE desk /);
  });

  it('at 40x12 the form, Colour included, fits', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-profile-colour-form-'));
    targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => memoryKeychain() });
    targets.setStartupProblem({ kind: 'no-profile', message: 'No profile is set up yet.' });
    const t = renderInTerminal(<ConsoleRoot switcher={targets} theme={makeTheme(false)} copy={async () => 'copied'} onExit={() => undefined} />, {
      columns: 40,
      rows: 12,
    });
    terminal = t;
    const frame = () => stripVTControlCharacters(t.stdout.lastFrame() ?? '');
    t.write(KEYS.down);
    t.write(KEYS.enter);
    const until = Date.now() + 5000;
    while (!frame().includes('Colour') && Date.now() < until) await sleep(5);
    expect(frame()).toContain('Colour');
    expect(frame()).toContain('Profile name');
    const lines = frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);
  });
});
