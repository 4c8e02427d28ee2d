// The console's first run and profiles: the welcome screen, adding a profile (connection checked before
// anything is saved; the secret to the real keychain), a keychain that fails (session-only credentials),
// the profile switcher, and no secret left in any file or later frame.
import React from 'react';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import { KeychainError, folderKeychain, keychainAccount, openKeychain, problem, type Keychain } from '../../src/credentials/keychain';
import { findProfile, loadProfiles, removeProfile, saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { ConsoleRoot } from '../../src/ui/run';
import { makeTheme } from '../../src/ui/theme';
import { KEYS, sleep } from './harness';
import { renderInTerminal } from './terminal';
import { afterRender } from '../../src/terminal/keyStream';
import { ownSandbox } from '../sandbox/helpers';
import { testProxy } from '../api/networkServers';

/** Whether a real Secret Service answers here; the reason when it does not. */
async function keychainReachable(): Promise<string | undefined> {
  try {
    const keychain = await openKeychain();
    const probe = `probe-${process.pid}-${Date.now()}`;
    await keychain.set(probe, { apiKey: 'k', secretKey: 's' });
    const back = await keychain.get(probe);
    await keychain.remove(probe);
    return back?.secretKey === 's' ? undefined : 'the keychain did not give back what was stored';
  } catch (error) {
    return error instanceof KeychainError ? error.problem.message : String(error);
  }
}

interface Driver {
  frame(): string;
  frames(): string[];
  press(key: keyof typeof KEYS | (string & {})): Promise<void>;
  type(text: string): Promise<void>;
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  cleanup(): Promise<void>;
}

function drive(targets: ConsoleTargets): Driver {
  const terminal = renderInTerminal(
    <ConsoleRoot switcher={targets} theme={makeTheme(false)} copy={async () => 'sent to the test clipboard'} onExit={() => undefined} />,
    { columns: 100, rows: 30, everyCommit: true },
  );
  const instance = { stdout: terminal.stdout };
  const frame = () => stripVTControlCharacters(instance.stdout.lastFrame() ?? '');
  /** Until every key written is handled and rendered; keys that start work get a moment to show it. */
  const settle = async (before: number) => {
    while (terminal.keys.backlog() > 0) await afterRender();
    await afterRender();
    const until = Date.now() + 40;
    while (instance.stdout.frames.length <= before && Date.now() < until) await sleep(2);
  };
  return {
    frame,
    frames: () => instance.stdout.frames.map((f) => stripVTControlCharacters(f)),
    async press(key) {
      const sequence = (KEYS as Record<string, string>)[key] ?? key;
      const before = instance.stdout.frames.length;
      terminal.write(sequence);
      await settle(before);
    },
    async type(text) {
      for (const ch of text) {
        const before = instance.stdout.frames.length;
        terminal.write(ch);
        await settle(before);
      }
    },
    async waitForText(text, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      const ok = () => (typeof text === 'string' ? frame().includes(text) : text.test(frame()));
      while (!ok()) {
        if (Date.now() > until)
          throw new Error(
            `timed out waiting for ${String(text)}; frames:\n${instance.stdout.frames
              .slice(-3)
              .map((f) => stripVTControlCharacters(f))
              .join('\n-----\n')}`,
          );
        await sleep(5);
      }
    },
    async cleanup() {
      terminal.unmount();
      await targets.close();
    },
  };
}

async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

/**
 * Every file under `folder` and its text, once no atomic write is under way: the console saves recent names
 * in the background (a temporary file, then a rename), so a scan taken mid-write met a file that was gone
 * before it was read. A temporary file still there after 3 s is read like any other.
 */
async function settledTexts(folder: string): Promise<Array<[string, string]>> {
  const until = Date.now() + 3000;
  for (;;) {
    const files = await filesUnder(folder);
    if (files.some((f) => f.endsWith('.tmp')) && Date.now() < until) {
      await sleep(10);
      continue;
    }
    try {
      return await Promise.all(files.map(async (f): Promise<[string, string]> => [f, await readFile(f, 'utf8')]));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || Date.now() >= until) throw error;
    }
  }
}

const keychainMissing = await keychainReachable();
if (keychainMissing) console.warn(`SKIPPED console keychain tests: ${keychainMissing}`);

/** A keychain in memory that can list its entries (so a missing one is known missing), and what it holds. */
function listedMemoryKeychain(): { stored: Map<string, { apiKey: string; secretKey: string }>; keychain: Keychain } {
  const stored = new Map<string, { apiKey: string; secretKey: string }>();
  const keychain: Keychain = {
    get: async (n) => stored.get(n),
    set: async (n, c) => void stored.set(n, c),
    remove: async (n) => stored.delete(n),
    accounts: async () => [...stored.keys()],
  };
  return { stored, keychain };
}

describe('first run and profiles in the console', () => {
  let sandbox: RunningSandbox;
  let folder: string;
  let driver: Driver | undefined;
  const profileName = `ui${process.pid}${Math.floor(Math.random() * 1e6)}`;

  afterEach(async () => {
    await driver?.cleanup();
    driver = undefined;
    await sandbox?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
    if (!keychainMissing) await (await openKeychain()).remove(keychainAccount(profileName, folder)).catch(() => false);
  });

  const setUp = async (keychain?: () => Promise<Keychain>) => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-ui-'));
    const targets = createConsoleTargets({ folder, exportFolder: folder, ...(keychain ? { keychain } : {}) });
    targets.setStartupProblem({ kind: 'no-profile', message: 'No profile is set up yet.' });
    driver = drive(targets);
    await sleep(30);
    return driver;
  };

  /** From the profiles screen: s, the sandbox's credentials for this run only, and its console open (LIVE). */
  const useSandboxForTheRun = async (d: Driver) => {
    await d.press('s');
    await d.waitForText('for this run only');
    await d.type(sandbox.baseUrl);
    await d.press('tab');
    await d.type(sandbox.apiKey);
    await d.press('tab');
    await d.type(sandbox.secretKey);
    await d.press('enter');
    await d.waitForText('LIVE');
  };

  const fillProfile = async (d: Driver, secret: string) => {
    await d.type(profileName);
    await d.press('tab');
    await d.type(sandbox.baseUrl);
    await d.press('tab');
    await d.type(sandbox.apiKey);
    await d.press('tab');
    await d.type(secret);
  };

  it('opens on the welcome screen with the demo one key away', async () => {
    const d = await setUp();
    await d.waitForText('Welcome to broker-console');
    expect(d.frame()).toContain('SETUP');
    expect(d.frame()).toMatch(/› Open the demo/);
    // j and k move as in every other list.
    await d.press('j');
    await d.waitForText(/› Add a profile/);
    await d.press('k');
    await d.waitForText(/› Open the demo/);
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    expect(d.frame()).toContain('DEMO');
    expect(d.frame()).toContain('demo · sandbox');
  });

  it.skipIf(keychainMissing !== undefined)('adds a profile: a wrong secret is refused and nothing saved; the right one goes to the keychain only', async () => {
    const d = await setUp();
    await d.press('down');
    await d.press('enter');
    await d.waitForText('Add a profile');
    await fillProfile(d, 'not-the-secret');
    await d.press('enter');
    await d.waitForText('the service rejected the signature');
    expect((await loadProfiles(folder)).profiles).toHaveLength(0);
    expect(await folderKeychain(await openKeychain(), folder).get(profileName)).toBeUndefined();

    await d.press('\u0015');
    await d.type(sandbox.secretKey);
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    expect(d.frame()).toContain('LIVE');
    expect(d.frame()).toContain(new URL(sandbox.baseUrl).host);
    expect(d.frame()).toContain(`${profileName} · keychain`);
    const saved = await loadProfiles(folder);
    expect(saved.profiles.map((p) => p.name)).toEqual([profileName]);
    expect(saved.defaultProfile).toBe(profileName);
    expect(saved.profiles[0]?.postSignature).toBe('auto');
    expect(await folderKeychain(await openKeychain(), folder).get(profileName)).toEqual({ apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });

    // Create a key in the console; then neither secret is in any file, nor in a frame after the secret screen.
    await d.type(sandbox.subAccounts[1]!);
    await d.press('enter');
    await d.waitForText(`API keys of ${sandbox.subAccounts[1]}`);
    await d.press('n');
    await d.press('space');
    await d.press('tab');
    await d.press('tab');
    // An IP: a LIVE key without one would first ask for the sub-account's name.
    await d.type('203.0.113.7');
    await d.press('tab');
    await d.type('leak scan');
    await d.press('enter');
    await d.waitForText('exactly what will be sent');
    await d.press('enter');
    await d.waitForText('Store the secret key now');
    await d.press('v');
    await d.waitForText(/Secret key\s+[0-9a-f]{64}/);
    const created = /Secret key\s+([0-9a-f]{64})/.exec(d.frame())![1]!;
    const shownAt = d.frames().length;
    await d.press('enter');
    await d.press('y');
    await d.waitForText(`API keys of ${sandbox.subAccounts[1]}`);
    // From the first frame that is no longer the secret screen, no frame holds the secret.
    const after = d.frames().slice(shownAt);
    const left = after.findIndex((f) => !f.includes('Store the secret key now'));
    expect(left).toBeGreaterThanOrEqual(0);
    expect(after.slice(left).some((f) => f.includes(created))).toBe(false);
    const texts = await settledTexts(folder);
    expect(texts.length).toBeGreaterThan(0);
    for (const [file, text] of texts) {
      expect(text, file).not.toContain(sandbox.secretKey);
      expect(text, file).not.toContain(created);
    }
  });

  it('the form offers POST signing (auto unless changed); a value it cannot mean is named there, and nothing is sent or saved', async () => {
    const d = await setUp();
    await d.press('down');
    await d.press('enter');
    await d.waitForText('Add a profile');
    expect(d.frame()).toMatch(/POST signing\s+auto/);
    await fillProfile(d, sandbox.secretKey);
    await d.press('tab');
    await d.press('tab');
    await d.press('\u0015');
    await d.type('sideways');
    await d.press('enter');
    await d.waitForText('POST signing: must be auto, query, body');
    expect(sandbox.requests()).toHaveLength(0);
    expect((await loadProfiles(folder)).profiles).toHaveLength(0);
  });

  it.skipIf(keychainMissing !== undefined)('the POST signing chosen in the form is saved with the profile', async () => {
    const d = await setUp();
    await d.press('down');
    await d.press('enter');
    await d.waitForText('Add a profile');
    await fillProfile(d, sandbox.secretKey);
    await d.press('tab');
    await d.press('tab');
    await d.press('\u0015');
    await d.type('Query');
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    expect((await loadProfiles(folder)).profiles.map((p) => [p.name, p.postSignature])).toEqual([[profileName, 'query']]);
  });

  it('when the keychain fails, saves nothing and offers the same credentials for this run only', async () => {
    const failing = async (): Promise<Keychain> => ({
      get: async () => undefined,
      set: async () => {
        throw new KeychainError(problem('no-dbus', 'Cannot autolaunch D-Bus without X11 $DISPLAY'));
      },
      remove: async () => false,
    });
    const d = await setUp(failing);
    await d.press('down');
    await d.press('enter');
    await d.waitForText('Add a profile');
    await fillProfile(d, sandbox.secretKey);
    expect(d.frame()).not.toContain(sandbox.secretKey);
    await d.press('enter');
    await d.waitForText('Nothing was saved');
    expect(d.frame()).toContain('D-Bus');
    expect((await loadProfiles(folder)).profiles).toHaveLength(0);
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    expect(d.frame()).toContain('session · memory only');
    expect(await filesUnder(folder)).toEqual([]);
    expect(d.frames().some((f) => f.includes(sandbox.secretKey))).toBe(false);
  });

  it('keys typed while the demo opens act on its first screen, in order', async () => {
    const d = await setUp();
    await d.waitForText('Welcome to broker-console');
    // enter opens the demo; the name and its enter arrive before the demo's sandbox is up.
    await d.press('\rgridbot2901\r');
    await d.waitForText('API keys of gridbot2901');
    expect(d.frame()).toContain('DEMO');
  });

  it('keys typed while a target opens from ctrl+p act on its first screen', async () => {
    const d = await setUp();
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    await d.press('\u0010');
    await d.waitForText('Profiles');
    // The demo again from the list: a new console; what was typed meanwhile reaches its picker.
    await d.press('\rdelta043\r');
    await d.waitForText('API keys of delta043');
  });

  it('a form left half filled on a target is there again after a switch away and back', async () => {
    const d = await setUp();
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    await d.press('gridbot2901\r');
    await d.waitForText('API keys of gridbot2901');
    await d.press('n');
    await d.waitForText('New API key for gridbot2901');
    for (const key of ['tab', 'tab', 'tab']) await d.press(key);
    await d.type('kept across');
    await d.press('esc');
    await d.waitForText('API keys of gridbot2901');
    // Away (credentials for this run), then back to the demo.
    await d.press('\u0010');
    await d.waitForText('Profiles');
    await useSandboxForTheRun(d);
    await d.press('\u0010');
    await d.waitForText(/› session .*← now/);
    await d.press('down');
    await d.press('enter');
    await d.waitForText('DEMO');
    await d.waitForText('Choose a sub-account');
    await d.press('gridbot2901\r');
    await d.waitForText('API keys of gridbot2901');
    await d.press('n');
    await d.waitForText('as you left it');
    expect(d.frame()).toContain('kept across');
  });

  it('ctrl+p switches between the demo and a session target', async () => {
    const d = await setUp();
    await d.press('enter');
    await d.waitForText('Choose a sub-account');
    await d.press('\u0010');
    await d.waitForText('Profiles');
    expect(d.frame()).toMatch(/demo\s+embedded sandbox/);
    await useSandboxForTheRun(d);
    expect(d.frame()).toContain('session · memory only');
    // Away to the demo and back: the run's credentials are listed, and open again without being typed again.
    await d.press('\u0010');
    // The list is read as the screen opens: the run's own entry comes with it, the cursor on it.
    await d.waitForText(/› session +\(this run only, in memory\) +http:\/\/127\.\d+\.\d+\.\d+:\d+ +← now/);
    await d.press('down');
    await d.press('enter');
    await d.waitForText('DEMO');
    await d.press('\u0010');
    // Read and placed: the run's entry listed, and the cursor moved to the target in use (the demo).
    await d.waitForText(/ session +\(this run only, in memory\) +http:\/\/127\.\d+\.\d+\.\d+:\d+ *\n› demo .*← now/);
    await d.press('up');
    await d.press('enter');
    await d.waitForText('LIVE');
    expect(d.frame()).toContain('session · memory only');
  });

  it("a profile of the same name added elsewhere while the form's credentials are checked: the form's save refuses, the other stays", async () => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-race-'));
    const stored = new Map<string, { apiKey: string; secretKey: string }>();
    const keychain: Keychain = { get: async (n) => stored.get(n), set: async (n, c) => void stored.set(n, c), remove: async (n) => stored.delete(n) };
    const targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    // The check's request is held at the service while a shell adds the name.
    sandbox.queueFaults({ kind: 'hold' });
    const adding = targets.addProfile({ name: 'race1', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, apiKeyHeader: '' });
    for (let i = 0; i < 200 && sandbox.requests().length === 0; i += 1) await sleep(10);
    await saveProfile(folder, { name: 'race1', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    for (let i = 0; i < 200 && sandbox.releaseHeld() === 0; i += 1) await sleep(10);
    expect(await adding).toMatchObject({ ok: false, field: 'name', message: expect.stringMatching(/^a profile named race1 exists already/) });
    expect((await loadProfiles(folder)).profiles).toMatchObject([{ name: 'race1', baseUrl: 'http://127.0.0.1:9' }]);
    expect(stored.size).toBe(0);
    await targets.close();
  });

  it("the form's credentials are held to profile add's rules: trimmed, a bad key, secret or header named, nothing sent", async () => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-rules-'));
    const stored = new Map<string, { apiKey: string; secretKey: string }>();
    const keychain: Keychain = { get: async (n) => stored.get(n), set: async (n, c) => void stored.set(n, c), remove: async (n) => stored.delete(n) };
    const targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    const input = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, apiKeyHeader: '' };
    expect(await targets.addProfile({ name: 'a', ...input, apiKey: 'mx0v key' })).toEqual({
      ok: false,
      field: 'apiKey',
      message: 'the API key contains a space',
    });
    expect(await targets.addProfile({ name: 'a', ...input, secretKey: 'abc\u0007def' })).toEqual({
      ok: false,
      field: 'secretKey',
      message: 'the secret must not contain control characters',
    });
    expect(await targets.addProfile({ name: 'a', ...input, secretKey: 'x'.repeat(1025) })).toMatchObject({ ok: false, field: 'secretKey' });
    expect(await targets.addProfile({ name: 'a', ...input, apiKeyHeader: 'Host' })).toMatchObject({ ok: false, field: 'apiKeyHeader' });
    expect(await targets.addProfile({ name: 'a', ...input, apiKeyHeader: 'X Key' })).toMatchObject({ ok: false, field: 'apiKeyHeader' });
    expect(await targets.addProfile({ name: 'demo', ...input })).toMatchObject({
      ok: false,
      field: 'name',
      message: expect.stringContaining('choose another name'),
    });
    expect(await targets.useForSession({ ...input, secretKey: '   ' })).toEqual({ ok: false, field: 'secretKey', message: 'secret: required' });
    expect(sandbox.requests()).toHaveLength(0);
    // A secret pasted with a space or a line end around it is stored as profile add stores it: trimmed.
    expect(await targets.addProfile({ name: 'a', ...input, apiKey: ` ${sandbox.apiKey}`, secretKey: `${sandbox.secretKey} \n` })).toMatchObject({ ok: true });
    expect([...stored.values()]).toEqual([{ apiKey: sandbox.apiKey, secretKey: sandbox.secretKey }]);
    expect((await loadProfiles(folder)).profiles).toMatchObject([{ name: 'a', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000 }]);
    await targets.close();
  });

  it('environment credentials are listed for the run: after the demo, ctrl+p opens them again', async () => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-env-'));
    const targets = createConsoleTargets({
      folder,
      exportFolder: folder,
      keychain: async () => ({ get: async () => undefined, set: async () => undefined, remove: async () => false }),
    });
    await targets.openResolved({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' });
    expect(targets.current()?.profile).toBe('environment');
    await targets.openDemo();
    expect(targets.current()?.profile).toBe('demo');
    expect(await targets.profiles()).toEqual([{ name: 'environment', baseUrl: sandbox.baseUrl, isDefault: false, inMemory: true }]);
    expect(await targets.openInMemory!('environment')).toEqual({ ok: true });
    expect(targets.current()).toMatchObject({ profile: 'environment', mode: 'live' });
    expect((await targets.current()!.api.listSubAccountKeys(sandbox.subAccounts[0]!)).length).toBeGreaterThan(0);
    await targets.close();
  });

  it('a profile removed, changed or made read-only by another terminal: the open console sends no create through it', async () => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-retired-'));
    const stored = new Map<string, { apiKey: string; secretKey: string }>();
    const keychain: Keychain = { get: async (n) => stored.get(n), set: async (n, c) => void stored.set(n, c), remove: async (n) => stored.delete(n) };
    const settings = { name: 'desk', baseUrl: sandbox.baseUrl, apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const };
    await saveProfile(folder, settings);
    stored.set(keychainAccount('desk', folder), { apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    const targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    expect(await targets.openProfile('desk')).toEqual({ ok: true });
    const api = targets.current()!.api;
    const request = { subAccount: sandbox.subAccounts[0]!, permissions: ['SPOT_ACCOUNT_READ'], ips: ['203.0.113.7'], note: 'retired' };
    const refused = async (): Promise<string> => {
      const before = sandbox!.requests().length;
      const error = await api.createSubAccountKey(request).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(sandbox!.requests().length).toBe(before);
      return error?.message ?? 'created';
    };
    // Changed: pointed elsewhere.
    await saveProfile(folder, { ...settings, baseUrl: 'http://127.0.0.1:9' });
    expect(await refused()).toContain('profile desk was changed (by another terminal?): nothing was sent — ctrl+p opens a profile');
    // Made read-only.
    await saveProfile(folder, { ...settings, readOnly: true });
    expect(await refused()).toContain('profile desk was made read-only: nothing was sent');
    // Removed.
    await removeProfile(folder, 'desk');
    expect(await refused()).toContain('profile desk was removed (by another terminal?): nothing was sent');
    // Put back as it was: the create goes.
    await saveProfile(folder, settings);
    expect((await api.createSubAccountKey(request)).note).toBe('retired');
    // Reading goes on meanwhile: the key list still answers.
    expect((await api.listSubAccountKeys(sandbox.subAccounts[0]!)).some((k) => k.note === 'retired')).toBe(true);
    await targets.close();
  });

  it("a repair is checked through the profile's proxy, and keeps its recvWindow", async ({ onTestFinished }) => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-repair-proxy-'));
    const proxy = await testProxy(onTestFinished);
    const { keychain } = listedMemoryKeychain();
    await saveProfile(folder, {
      name: 'proxied',
      baseUrl: sandbox.baseUrl,
      apiKeyHeader: 'X-MEXC-APIKEY',
      recvWindow: 20_000,
      postSignature: 'auto',
      proxy: proxy.url,
    });
    const targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    onTestFinished(() => targets.close());
    expect(
      await targets.addProfile({ name: 'proxied', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, apiKeyHeader: '' }),
    ).toMatchObject({ ok: true });
    // The check and nothing else went out, through the proxy, not around it.
    expect(proxy.targets).toHaveLength(1);
    expect(sandbox.requests()).toHaveLength(1);
    expect(findProfile(await loadProfiles(folder), 'proxied')).toMatchObject({ proxy: proxy.url, recvWindow: 20_000 });
  });

  it('a profile whose keychain entry is gone is given its secret again from the form; one with its secret is never replaced', async () => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-profiles-repair-'));
    const { stored, keychain } = listedMemoryKeychain();
    const targets = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => keychain });
    const settings = { baseUrl: sandbox.baseUrl, apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const };
    await saveProfile(folder, { name: 'gone', ...settings, readOnly: true, color: 'blue' });
    await saveProfile(folder, { name: 'kept', ...settings });
    const input = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, apiKeyHeader: '' };
    // gone has no secret in the keychain: the form gives it one.
    expect(await targets.addProfile({ name: 'gone', ...input })).toMatchObject({ ok: true });
    expect([...stored.values()]).toEqual([{ apiKey: sandbox.apiKey, secretKey: sandbox.secretKey }]);
    // What the form does not ask is kept: still read-only (and so opened), still blue.
    expect(findProfile(await loadProfiles(folder), 'gone')).toMatchObject({ readOnly: true, color: 'blue' });
    expect(targets.current()?.readOnly).toBeDefined();
    // kept has its secret: refused, nothing changed.
    const keptSecret = { apiKey: 'mx0vkeptkey', secretKey: 'kept-secret' };
    for (const [account] of stored) if (!account.startsWith('gone')) throw new Error(`unexpected entry ${account}`);
    const keptAccount = [...stored.keys()][0]!.replace(/^gone/, 'kept');
    stored.set(keptAccount, keptSecret);
    expect(await targets.addProfile({ name: 'kept', ...input })).toMatchObject({ ok: false, field: 'name', message: 'a profile named kept exists already' });
    expect(stored.get(keptAccount)).toEqual(keptSecret);
    expect((await loadProfiles(folder)).profiles.map((p) => p.name).sort()).toEqual(['gone', 'kept']);
    await targets.close();
    // A keychain that cannot list its entries (a locked keyring reads as no entry) cannot show the secret gone.
    stored.clear();
    const unlisted = createConsoleTargets({ folder, exportFolder: folder, keychain: async () => ({ ...keychain, accounts: undefined }) });
    expect(await unlisted.addProfile({ name: 'gone', ...input })).toMatchObject({ ok: false, field: 'name' });
    expect(stored.size).toBe(0);
    await unlisted.close();
  });
});
