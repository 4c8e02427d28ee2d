// A read-only target in the console: READ-ONLY in the header at every size and without colour,
// n refused with the reason (from the list and the empty list), not offered in the footer, the create request
// refused by the client even if the form were reached, and a read-only profile switched to with ctrl+p.
import React from 'react';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import { keychainAccount, openKeychain } from '../../src/credentials/keychain';
import { saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { afterRender } from '../../src/terminal/keyStream';
import { displayWidth } from '../../src/terminal/text';
import { footerLine } from '../../src/ui/components/Footer';
import { bindingsIn } from '../../src/ui/keyboard/bindings';
import { footerHints, MODES } from '../../src/ui/keyboard/modes';
import { ConsoleRoot } from '../../src/ui/run';
import { makeTheme } from '../../src/ui/theme';
import { probeKeychain, uniqueProfile } from '../credentials/keychainProbe';
import { fillCreateForm, openKeys, seededAccounts } from './flows';
import { KEYS, sleep, startConsole, type TestConsole, expectFits } from './harness';
import { renderInTerminal } from './terminal';
import { ownSandbox } from '../sandbox/helpers';

const REASON = "read-only profile 'ops': creating keys is disabled";

let c: TestConsole | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

const posts = (t: TestConsole) => t.requestsOf('POST');

describe('the key bindings of a read-only list', () => {
  it('keep every binding of the list, with keys or none yet, creating disabled with its reason (n only explains); the footer never offers n', () => {
    const mode = 'keys';
    for (const state of [{}, { empty: true }]) {
      const readOnly = { ...state, readOnly: 'read-only profile' };
      const plain = bindingsIn(MODES[mode], state);
      const refusing = bindingsIn(MODES[mode], readOnly);
      expect(refusing.map((b) => b.command)).toEqual(plain.map((b) => b.command));
      expect(plain.filter((b) => b.disabled)).toEqual([]);
      expect(refusing.filter((b) => b.disabled).map((b) => b.command)).toEqual(['create']);
      const refused = refusing.find((b) => b.command === 'create');
      expect(refused?.keystrokes).toEqual(['n']);
      expect(refused?.hint).toBeUndefined();
      expect(refused?.description).toBe('Creating keys is disabled (read-only): n says why, opens nothing');
      expect(footerHints(mode, state)).toContain('n new key');
      expect(footerHints(mode, readOnly)).not.toContain('n new key');
      for (const width of [40, 80, 200]) expect(footerLine(mode, width, readOnly)).not.toMatch(/\bn new\b/);
    }
  });
});

describe('a read-only console', () => {
  it('says READ-ONLY beside the mode badge at 40x12 and 80x24, with and without colour; not when it is not read-only', async () => {
    for (const [columns, rows] of [
      [40, 12],
      [80, 24],
    ] as const) {
      for (const noColor of [false, true]) {
        c = await startConsole({ readOnly: REASON, mode: 'live', columns, rows, noColor });
        const header = c.frame().split('\n')[0]!;
        expect(header).toMatch(/ LIVE ops {3}READ-ONLY /);
        expect(displayWidth(header)).toBeLessThanOrEqual(columns);
        // Without colour the badge is still set apart: reverse video.
        if (noColor) expect(c.rawFrame().split('\n')[0]).toMatch(/\u001b\[7m(\u001b\[1m)? READ-ONLY /);
        await c.cleanup();
      }
    }
    c = await startConsole({ mode: 'live', columns: 40, rows: 12 });
    expect(c.frame()).not.toContain('READ-ONLY');
  });

  it('n in the key list opens nothing, says why in the status line, and sends nothing; the footer and help do not offer it', async () => {
    c = await startConsole({ readOnly: REASON });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    const footer = c.frame().trimEnd().split('\n').at(-1)!;
    expect(footer).toContain('c copy key');
    expect(footer).not.toContain('n new key');
    const before = c.requests().length;
    await c.press('n');
    await c.waitForText(REASON);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
    expect(c.frame()).not.toContain('New API key');
    await c.press('?');
    await c.waitForText('API keys (read-only)');
    expect(c.frame()).toContain('Creating keys is disabled (read-only)');
    await c.press('esc');
    await c.settle(30);
    expect(c.requests().slice(before)).toEqual([]);
  });

  it('the empty list says creating is disabled instead of "press n", and n says why', async () => {
    c = await startConsole({ readOnly: REASON, columns: 40, rows: 12 });
    const { empty } = await seededAccounts(c);
    await openKeys(c, empty);
    expect(c.frame()).toContain('Read-only: creating keys is');
    expect(c.frame()).not.toContain('Press n');
    await c.press('n');
    // At 40 columns the long reason would be cut: the short one, whole.
    await c.waitForText(/^read-only: creating keys is disabled$/m);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
    expectFits(c.frame(), 40, 12);
    expect(c.frame().trimEnd().split('\n').at(-1)).not.toContain('n new');
    expect(posts(c)).toEqual([]);
  });

  it('a create form reached anyway (a route pushed directly): the review is refused by the client, nothing sent', async () => {
    c = await startConsole({ readOnly: REASON, initialRoute: { screen: 'createKey', subAccount: 'anyone' } });
    await c.waitForText('New API key for anyone');
    await fillCreateForm(c, { toggle: [0], note: 'never sent' });
    await c.press('enter');
    await c.waitForText('Review: this is exactly what will be sent');
    await c.press('enter');
    await c.waitForText('creating keys is disabled');
    expect(c.frame()).toContain('create key was not sent');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('createKey');
    expect(c.requests()).toEqual([]);
  });
});

describe("a read-only run (--read-only) through the console's targets", () => {
  it('the welcome screen already says READ-ONLY; the demo opened from it is read-only and its client refuses to create', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bc-readonly-run-'));
    const targets = createConsoleTargets({ folder, exportFolder: folder, readOnly: { kind: 'flag' } });
    targets.setStartupProblem({ kind: 'no-profile', message: 'No profile is set up yet.' });
    const terminal = renderInTerminal(<ConsoleRoot switcher={targets} theme={makeTheme(false)} copy={async () => 'copied'} onExit={() => undefined} />, {
      columns: 40,
      rows: 12,
    });
    const frame = () => stripVTControlCharacters(terminal.stdout.lastFrame() ?? '');
    const waitFor = async (pattern: RegExp) => {
      const until = Date.now() + 5000;
      while (!pattern.test(frame())) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${String(pattern)}:\n${frame()}`);
        await sleep(5);
      }
    };
    try {
      await waitFor(/ SETUP {3}READ-ONLY /);
      await sleep(20);
      terminal.write(KEYS.enter); // the first choice: open the demo
      await waitFor(/ DEMO {3}READ-ONLY /);
      const target = targets.current()!;
      expect(target.readOnly).toBe('read-only run (--read-only): creating keys is disabled');
      await expect(target.api.createSubAccountKey({ subAccount: 'x', permissions: ['SPOT_ACCOUNT_READ'], note: 'n' })).rejects.toMatchObject({
        kind: 'invalid-request',
        message: 'create key was not sent: read-only run (--read-only): creating keys is disabled',
      });
      // Listing still works through the same client.
      expect(Array.isArray(await target.api.listSubAccountKeys(target.suggestions[0]!))).toBe(true);
    } finally {
      terminal.unmount();
      await targets.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});

const keychain = await probeKeychain();
if (!keychain.ok) console.warn(`SKIPPED read-only profile switching tests: ${keychain.reason}`);

describe.skipIf(!keychain.ok)('switching to a read-only profile with ctrl+p', () => {
  let sandbox: RunningSandbox | undefined;
  let targets: ConsoleTargets | undefined;
  let folder = '';
  const names: string[] = [];
  afterEach(async () => {
    await targets?.close();
    await sandbox?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
    const store = await openKeychain();
    for (const n of names.splice(0)) await store.remove(keychainAccount(n, folder)).catch(() => false);
  });

  it('the profile is read-only (header, n refused, nothing sent); back in the demo, creating is offered again', async () => {
    sandbox = await ownSandbox({ seed: 5 });
    folder = await mkdtemp(join(tmpdir(), 'bc-readonly-ui-'));
    const [viewer, full] = [uniqueProfile('rov'), uniqueProfile('rof')];
    names.push(viewer, full);
    // Under this folder's own accounts: an entry of no folder is seen (and may be moved) by every folder, and other
    // files use the same keychain at the same time.
    for (const name of [viewer, full])
      await (await openKeychain()).set(keychainAccount(name, folder), { apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    const settings = { baseUrl: sandbox.baseUrl, apiKeyHeader: sandbox.apiKeyHeader, recvWindow: 5000, postSignature: 'auto' as const };
    await saveProfile(folder, { name: full, ...settings });
    await saveProfile(folder, { name: viewer, ...settings, readOnly: true });
    targets = createConsoleTargets({ folder, exportFolder: folder });
    await targets.openDemo();
    const terminal = renderInTerminal(<ConsoleRoot switcher={targets} theme={makeTheme(true)} copy={async () => 'copied'} onExit={() => undefined} />, {
      columns: 80,
      rows: 24,
    });
    const frame = () => stripVTControlCharacters(terminal.stdout.lastFrame() ?? '');
    const waitFor = async (text: string | RegExp) => {
      const until = Date.now() + 5000;
      while (!(typeof text === 'string' ? frame().includes(text) : text.test(frame()))) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${String(text)}:\n${frame()}`);
        await sleep(5);
      }
    };
    const press = async (key: string) => {
      terminal.write((KEYS as Record<string, string>)[key] ?? key);
      while (terminal.keys.backlog() > 0) await afterRender();
      await afterRender();
    };
    try {
      await waitFor('Choose a sub-account');
      expect(frame()).not.toContain('READ-ONLY');
      await press('\u0010'); // ctrl+p
      await waitFor(`${viewer}`);
      // The tag before the address, which a narrow window cuts first.
      expect(frame()).toMatch(new RegExp(`${viewer}\\s+\\(read-only\\)\\s+http`));
      // The profiles are listed by name: move to the read-only one and open it.
      const order = frame()
        .split('\n')
        .filter((l) => l.includes(viewer) || l.includes(full));
      // The list opens on the profile in use (the demo, last): home goes to the first profile.
      await press('\u001b[H');
      if (order[0]?.includes(full)) await press('down');
      await press('enter');
      await waitFor(new RegExp(`LIVE ${viewer.slice(0, 4)}\\S* {3}READ-ONLY`));
      const sub = sandbox.subAccounts[0]!;
      for (const ch of sub) await press(ch);
      await press('enter');
      await waitFor(new RegExp(`API keys of ${sub}`));
      const before = sandbox.requests().length;
      await press('n');
      await waitFor(`read-only profile '${viewer}': creating keys is disabled`);
      expect(frame()).not.toContain('New API key');
      expect(
        sandbox
          .requests()
          .slice(before)
          .filter((r) => r.method === 'POST'),
      ).toEqual([]);
      expect(sandbox.requests().filter((r) => r.method === 'POST')).toEqual([]);

      // The full profile is not read-only.
      await press('\u0010');
      await waitFor(`${full}`);
      const rows = frame().split('\n');
      const at = rows.findIndex((l) => l.startsWith('›'));
      const want = rows.findIndex((l) => l.includes(full) && !l.includes('(read-only)'));
      // The list opens on the profile in use: up or down to the full one.
      for (let i = at; i < want; i++) await press('down');
      for (let i = at; i > want; i--) await press('up');
      await press('enter');
      await waitFor(new RegExp(` LIVE ${full.slice(0, 4)}\\S* {2}[^ R]`));
      expect(frame().split('\n')[0]).not.toContain('READ-ONLY');
    } finally {
      terminal.unmount();
    }
  });
});
