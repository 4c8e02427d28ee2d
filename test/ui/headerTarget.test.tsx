// The header names the target: LIVE with the profile's name (in the colour the profile chose, and readable as
// a name under NO_COLOR), DEMO alone; and a profile saved with a colour brings it to the header.
import React from 'react';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import { type Keychain, type StoredCredentials, keychainAccount } from '../../src/credentials/keychain';
import { saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { displayWidth } from '../../src/terminal/text';
import { ConsoleRoot } from '../../src/ui/run';
import { makeTheme } from '../../src/ui/theme';
import { sleep, startConsole, type TestConsole } from './harness';
import { renderInTerminal, type TestTerminal } from './terminal';
import { ownSandbox } from '../sandbox/helpers';

let c: TestConsole | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

const header = (t: TestConsole) => t.frame().split('\n')[0]!;
const rawHeader = (t: TestConsole) => t.rawFrame().split('\n')[0]!;

describe('the header names the target', () => {
  it('LIVE carries the profile name at 120x40, 80x24 and 40x12, within the width', async () => {
    for (const [columns, rows] of [
      [120, 40],
      [80, 24],
      [40, 12],
    ] as const) {
      c = await startConsole({ mode: 'live', profile: 'prod', columns, rows });
      expect(header(c)).toContain(' LIVE prod ');
      expect(displayWidth(header(c))).toBeLessThanOrEqual(columns);
      await c.cleanup();
      c = undefined;
    }
  });

  it('under NO_COLOR the name is inside the reversed badge, so it still tells the target apart', async () => {
    c = await startConsole({ mode: 'live', profile: 'sbx', profileColor: 'green', noColor: true, columns: 80, rows: 24 });
    expect(rawHeader(c)).toMatch(/\u001b\[7m(\u001b\[1m)? LIVE sbx /);
    // No colour escape at all in the header: the name carries the target alone.
    expect(rawHeader(c)).not.toMatch(/\u001b\[(3[0-7]|4[0-7])m/);
  });

  it("the badge takes the profile's colour; without one, the LIVE red", async () => {
    c = await startConsole({ mode: 'live', profile: 'sbx', profileColor: 'green', columns: 80, rows: 24 });
    expect(rawHeader(c)).toMatch(/\u001b\[42m[^\n]* LIVE sbx /);
    await c.cleanup();
    c = await startConsole({ mode: 'live', profile: 'prod', columns: 80, rows: 24 });
    expect(rawHeader(c)).toMatch(/\u001b\[41m[^\n]* LIVE prod /);
    expect(rawHeader(c)).not.toContain('\u001b[42m');
  });

  it('a long profile name is cut with … so the breadcrumbs keep their room', async () => {
    c = await startConsole({ mode: 'live', profile: 'production-eu-west-market-makers', columns: 80, rows: 24 });
    expect(header(c)).toMatch(/ LIVE production-… /);
    expect(header(c)).toContain('Sub-accounts');
  });

  it('the demo says DEMO and no profile name', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    expect(header(c)).toContain(' DEMO ');
    expect(header(c)).not.toContain('DEMO demo');
  });
});

/** A keychain in memory: the profile's secret half, as the OS keychain would hold it. */
function memoryKeychain(): Keychain {
  const entries = new Map<string, StoredCredentials>();
  return {
    get: async (profile) => entries.get(profile),
    set: async (profile, credentials) => void entries.set(profile, credentials),
    remove: async (profile) => entries.delete(profile),
  };
}

describe('a profile saved with a colour', () => {
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

  it('opens with its name in its colour in the header', async () => {
    sandbox = await ownSandbox({ seed: 3 });
    folder = await mkdtemp(join(tmpdir(), 'bc-header-'));
    const keychain = memoryKeychain();
    await saveProfile(folder, {
      name: 'staging',
      baseUrl: sandbox.baseUrl,
      apiKeyHeader: 'X-MEXC-APIKEY',
      recvWindow: 5000,
      postSignature: 'auto',
      color: 'magenta',
    });
    await keychain.set(keychainAccount('staging', folder), { apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    expect(await targets.openProfile('staging')).toEqual({ ok: true });
    expect(targets.current()?.profileColor).toBe('magenta');
    // What a command needs to reach the same service: said in the advice after a create left unanswered.
    expect(targets.current()?.keyListCommand).toBe('broker-console keys list --profile staging');
    // Credentials typed for the session reach the service only when a shell is given them too.
    expect(await targets.useForSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey })).toMatchObject({
      ok: true,
    });
    expect(targets.current()?.keyListCommand).toBe(`BROKER_API_KEY=… BROKER_API_SECRET=… broker-console keys list --base-url ${sandbox.baseUrl}`);
    expect(await targets.openProfile('staging')).toEqual({ ok: true });
    const t = renderInTerminal(<ConsoleRoot switcher={targets} theme={makeTheme(false)} copy={async () => 'copied'} onExit={() => undefined} />, {
      columns: 80,
      rows: 24,
    });
    terminal = t;
    const until = Date.now() + 5000;
    while (!stripVTControlCharacters(t.stdout.lastFrame() ?? '').includes('LIVE staging') && Date.now() < until) await sleep(5);
    const first = (t.stdout.lastFrame() ?? '').split('\n')[0]!;
    expect(stripVTControlCharacters(first)).toContain(' LIVE staging ');
    expect(first).toMatch(/\u001b\[45m[^\n]* LIVE staging /);
  });
});
