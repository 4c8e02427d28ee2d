// `profile add|list|use|remove` and profile-based commands against the real keychain and an in-process
// sandbox over real sockets; the secret-leak scan; the command line, and the binary's own paths (stdin lines).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext, GlobalOptions } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { runProfileAdd, runProfileList, runProfileRemove, runProfileUse } from '../../src/commands/profile';
import { type Keychain, type StoredCredentials, folderKeychain, keychainAccount, openKeychain } from '../../src/credentials/keychain';
import { checkNewProfileName, loadProfiles, profilesPath, saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { probeKeychain, uniqueProfile, busEnv } from '../credentials/keychainProbe';
import { mountFullDisk } from '../config/fullDisk';
import { runBuiltCli, runCli, testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

const availability = await probeKeychain();
if (!availability.ok) console.warn(`SKIPPED keychain tests: ${availability.reason}`);
// A 64 KiB tmpfs to fill (root and mount(2)); where it cannot be had, its test says SKIPPED and why.
const fullDisk = mountFullDisk(64);
if (!fullDisk.ok) console.warn(`SKIPPED profile full-disk test: ${fullDisk.reason}`);
afterAll(() => {
  if (fullDisk.ok) fullDisk.disk.unmount();
});

function stdinOf(text: string): PassThrough {
  const stream = new PassThrough();
  stream.end(text);
  return stream;
}

/** Every file under a folder, recursively. */
function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? allFiles(path) : [path];
  });
}

let home: string;
const used: string[] = [];
const name = (prefix = 'cmd'): string => {
  const n = uniqueProfile(prefix);
  used.push(n);
  return n;
};

/** The keychain as the commands see it from this test's config folder (accounts are name@folder). */
const keychainHere = async () => folderKeychain(await openKeychain(), join(home, 'config'));

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bc-profile-cmd-'));
});
afterEach(async () => {
  rmSync(home, { recursive: true, force: true });
  if (!availability.ok) return;
  const keychain = await keychainHere();
  for (const n of used.splice(0)) await keychain.remove(n).catch(() => false);
});

/** A context with no environment credentials, profiles in `home`, and the given stdin. */
function ctxFor(globals: GlobalOptions = {}, stdin?: string, env: Record<string, string> = {}): ReturnType<typeof testContext> {
  const overrides: Partial<CommandContext> = { env, configFolder: join(home, 'config') };
  if (stdin !== undefined) overrides.stdin = stdinOf(stdin);
  return testContext(undefined, overrides, globals);
}

describe('profile commands that need no keychain', () => {
  it('add: the name, --base-url and the header are checked before anything is read', async () => {
    let t = ctxFor({ baseUrl: 'http://127.0.0.1:9' }, 'k\ns\n');
    expect(await runProfileAdd('bad name', {}, t.ctx)).toBe(2);
    expect(t.err.text()).toMatch(/^error: 'bad name' is not a profile name/);
    // The names the console gives targets that are not saved profiles (two "demo" rows in ctrl+p otherwise).
    for (const reserved of ['demo', 'Session', 'environment']) {
      t = ctxFor({ baseUrl: 'http://127.0.0.1:9' }, 'k\ns\n');
      expect(await runProfileAdd(reserved, {}, t.ctx)).toBe(2);
      expect(t.err.text()).toBe(`error: '${reserved}' is what the console calls a target that is not a saved profile: choose another name\n`);
    }
    // A profile of such a name from before the rule can still be given its secret again (or removed).
    const old = { name: 'session', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const };
    expect(checkNewProfileName('session', { profiles: [old] })).toEqual({ ok: true, value: 'session' });
    expect(checkNewProfileName('session', { profiles: [] })).toMatchObject({ ok: false });
    // A name that differs from a profile's only in case is refused (the same name, added again, is not).
    const fast = { ...old, name: 'fast' };
    expect(checkNewProfileName('Fast', { profiles: [fast] })).toEqual({
      ok: false,
      message: "'Fast' differs from profile fast only in case: choose another name, or use fast",
    });
    expect(checkNewProfileName('fast', { profiles: [fast] })).toEqual({ ok: true, value: 'fast' });
    t = ctxFor({}, 'k\ns\n');
    expect(await runProfileAdd('ok', {}, t.ctx)).toBe(2);
    expect(t.err.text()).toMatch(/^error: --base-url URL is required/);
    t = ctxFor({ baseUrl: 'ftp://x' }, 'k\ns\n');
    expect(await runProfileAdd('ok', {}, t.ctx)).toBe(2);
    expect(t.err.text()).toBe('error: --base-url: must start with http:// or https:// (got ftp:)\n');
    t = ctxFor({ baseUrl: 'http://x' }, 'k\ns\n');
    expect(await runProfileAdd('ok', { apiKeyHeader: 'X Key' }, t.ctx)).toBe(2);
    expect(t.err.text()).toMatch(/--api-key-header: 'X Key' is not an HTTP header name/);
  });

  it('list: a keychain whose entries cannot be listed is said on stderr, not taken for "none unowned"', async () => {
    const folder = join(home, 'config');
    await saveProfile(folder, { name: 'mine', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    const keychain: Keychain = {
      get: async () => ({ apiKey: 'mx0vlistedkey1234', secretKey: 's' }),
      set: async () => undefined,
      remove: async () => true,
      accounts: async () => {
        throw new Error("listing the keychain's entries ended on SIGSEGV");
      },
    };
    const t = testContext(undefined, { env: {}, configFolder: folder, keychain: async () => keychain });
    expect(await runProfileList({}, t.ctx)).toBe(0);
    expect(t.out.text()).toContain('mine');
    expect(t.err.text()).toBe("note: keychain entries no profile owns cannot be shown: the keychain failed: listing the keychain's entries ended on SIGSEGV\n");
  });

  it('two adds at once: each says whether it is the default as the locked save found it', async () => {
    const folder = join(home, 'config');
    const stored = new Map<string, StoredCredentials>();
    // Another process adds the first profile while this one first asks the keychain (after it read the profiles).
    let asked = false;
    const keychain: Keychain = {
      get: async (n) => {
        if (!asked)
          await saveProfile(folder, { name: 'other', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
        asked = true;
        return stored.get(n);
      },
      set: async (n, c) => void stored.set(n, c),
      remove: async (n) => stored.delete(n),
    };
    const t = testContext(
      undefined,
      { env: {}, configFolder: folder, stdin: stdinOf('k1\ns1\n'), keychain: async () => keychain },
      { baseUrl: 'http://127.0.0.1:9' },
    );
    expect(await runProfileAdd('mine', { check: false }, t.ctx)).toBe(0);
    expect((await loadProfiles(folder)).defaultProfile).toBe('other');
    expect(t.out.text()).toMatch(/^added profile mine: http/);
  });

  it('an add of one name while a remove talks to the keychain: the add waits, and its profile keeps its secret', async () => {
    const folder = join(home, 'config');
    const stored = new Map<string, StoredCredentials>();
    let adding: Promise<number> | undefined;
    let addOut = '';
    const keychain: Keychain = {
      get: async (n) => stored.get(n),
      set: async (n, c) => void stored.set(n, c),
      remove: async (n) => {
        // Another process adds the same name while this remove's keychain call is under way.
        if (adding === undefined) {
          const other = testContext(
            undefined,
            { env: {}, configFolder: folder, stdin: stdinOf('k2\ns2\n'), keychain: async () => keychain },
            { baseUrl: 'http://127.0.0.1:9' },
          );
          adding = runProfileAdd('ops', { check: false }, other.ctx).then((code) => ((addOut = other.out.text()), code));
          await Promise.race([adding, new Promise((resolve) => setTimeout(resolve, 300))]);
        }
        return stored.delete(n);
      },
    };
    const first = testContext(
      undefined,
      { env: {}, configFolder: folder, stdin: stdinOf('k1\ns1\n'), keychain: async () => keychain },
      { baseUrl: 'http://127.0.0.1:9' },
    );
    expect(await runProfileAdd('ops', { check: false }, first.ctx)).toBe(0);
    const removing = testContext(undefined, { env: {}, configFolder: folder, keychain: async () => keychain });
    expect(await runProfileRemove('ops', removing.ctx)).toBe(0);
    expect(removing.out.text()).toBe('removed profile ops (settings and keychain entry)\n');
    expect(await adding).toBe(0);
    // The add came after the remove: its settings and its secret are both there, and it says it added them.
    expect((await loadProfiles(folder)).profiles.map((p) => p.name)).toEqual(['ops']);
    expect([...stored.values()]).toEqual([{ apiKey: 'k2', secretKey: 's2' }]);
    expect(addOut).toMatch(/^added profile ops \(default\)/);
  });

  it.skipIf(!fullDisk.ok)('adding a profile again on a full disk: the settings are not written, and its old secret is put back', async () => {
    if (!fullDisk.ok) return;
    const folder = join(fullDisk.disk.dir, 'config');
    const stored = new Map<string, StoredCredentials>();
    let filling = false;
    const keychain: Keychain = {
      get: async (n) => stored.get(n),
      // The disk fills while the new secret goes in: the settings that follow cannot be written.
      set: async (n, c) => {
        stored.set(n, c);
        if (filling) fullDisk.disk.fill();
      },
      remove: async (n) => stored.delete(n),
    };
    const add = (secret: string) =>
      testContext(
        undefined,
        { env: {}, configFolder: folder, stdin: stdinOf(`k-${secret}\n${secret}\n`), keychain: async () => keychain },
        { baseUrl: 'http://127.0.0.1:9' },
      );
    try {
      expect(await runProfileAdd('ops', { check: false }, add('s1').ctx)).toBe(0);
      const settings = readFileSync(profilesPath(folder), 'utf8');
      filling = true;
      const again = add('s2');
      expect(await runProfileAdd('ops', { check: false }, again.ctx)).toBe(1);
      expect(again.err.text()).toBe(`error: the profile could not be saved to ${profilesPath(folder)}: no space left on device\nnothing was saved\n`);
      filling = false;
      // As before the run: the old settings with their own secret.
      expect(readFileSync(profilesPath(folder), 'utf8')).toBe(settings);
      expect([...stored.values()]).toEqual([{ apiKey: 'k-s1', secretKey: 's1' }]);
    } finally {
      fullDisk.disk.free();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('remove when the keychain finds no entry (as a locked keyring answers): it does not claim there was none', async () => {
    const folder = join(home, 'config');
    await saveProfile(folder, { name: 'ops', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    const keychain: Keychain = { get: async () => undefined, set: async () => undefined, remove: async () => false };
    const t = testContext(undefined, { env: {}, configFolder: folder, keychain: async () => keychain });
    expect(await runProfileRemove('ops', t.ctx)).toBe(0);
    expect(t.out.text()).toBe(
      'removed profile ops (settings; no keychain entry was found (a locked keyring finds none: check `profile list` once it is unlocked))\n',
    );
  });

  it('a signal while the keychain takes the new secret: the save is let finish, so secret and settings never part', async () => {
    const folder = join(home, 'config');
    const stored = new Map<string, StoredCredentials>();
    let release: (() => void) | undefined;
    let slow = false;
    const keychain: Keychain = {
      get: async (n) => stored.get(n),
      set: async (n, c) => {
        // The keychain takes its time over the new secret.
        if (slow) await new Promise<void>((resolve) => (release = resolve));
        stored.set(n, c);
      },
      remove: async (n) => stored.delete(n),
    };
    const run = (secret: string, onInterrupt?: CommandContext['onInterrupt']) =>
      testContext(
        undefined,
        { env: {}, configFolder: folder, stdin: stdinOf(`k-${secret}\n${secret}\n`), keychain: async () => keychain, ...(onInterrupt ? { onInterrupt } : {}) },
        { baseUrl: 'http://127.0.0.1:9' },
      );
    expect(await runProfileAdd('ops', { check: false }, run('s1').ctx)).toBe(0);
    let signalled: ((signal: NodeJS.Signals) => number | Promise<number>) | undefined;
    slow = true;
    const again = run('s2', (onSignal) => {
      signalled = onSignal;
      return () => undefined;
    });
    const adding = runProfileAdd('ops', { check: false }, again.ctx);
    for (let i = 0; i < 200 && release === undefined; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const answered = signalled!('SIGTERM');
    // The keychain answers a moment after the signal: the settings follow, and the exit is the success it was.
    setTimeout(() => release?.(), 100);
    expect(await answered).toBe(0);
    expect(await adding).toBe(0);
    expect(stored.get(keychainAccount('ops', folder))).toEqual({ apiKey: 'k-s2', secretKey: 's2' });
    expect((await loadProfiles(folder)).profiles.map((p) => p.name)).toEqual(['ops']);
    expect(again.out.text()).toMatch(/^updated profile ops/);
  });

  it('list with no profiles says how to add one; --json is []', async () => {
    let t = ctxFor();
    expect(await runProfileList({}, t.ctx)).toBe(0);
    expect(t.out.text()).toBe('no profiles: add one with `broker-console profile add NAME --base-url URL`\n');
    t = ctxFor();
    expect(await runProfileList({ json: true }, t.ctx)).toBe(0);
    expect(JSON.parse(t.out.text())).toEqual([]);
  });

  it('use and remove of an unknown profile: exit 2', async () => {
    let t = ctxFor();
    expect(await runProfileUse('ghost', t.ctx)).toBe(2);
    expect(t.err.text()).toBe("error: no profile named 'ghost' (there are no profiles yet)\n");
    t = ctxFor();
    const code = await runProfileRemove('ghost', t.ctx);
    expect(code).toBe(2);
    expect(t.err.text()).toMatch(/^error: no profile named 'ghost'/);
    // A typo of a profile's name is said as one.
    await saveProfile(join(home, 'config'), {
      name: 'staging',
      baseUrl: 'http://127.0.0.1:9',
      apiKeyHeader: 'X-MEXC-APIKEY',
      recvWindow: 5000,
      postSignature: 'auto',
    });
    t = ctxFor();
    expect(await runProfileUse('stagign', t.ctx)).toBe(2);
    expect(t.err.text()).toBe("error: no profile named 'stagign': did you mean staging? (profiles: staging)\n");
    t = ctxFor();
    expect(await runProfileRemove('stging', t.ctx)).toBe(2);
    expect(t.err.text()).toMatch(/^error: no profile named 'stging': did you mean staging\?/);
  });

  it('a command with no profile and no environment credentials: exit 2, what to do, nothing sent', async () => {
    const t = ctxFor();
    expect(await runKeysList({ sub: 'alpha' }, t.ctx)).toBe(2);
    expect(t.err.text()).toBe(
      'error: no credentials: add a profile with `broker-console profile add NAME --base-url URL`, set BROKER_API_KEY, BROKER_API_SECRET and BROKER_BASE_URL, or try the demo with `broker-console --demo`\n',
    );
  });

  it('the binary with a profile but NO D-Bus session at all: two clear lines, exit 2, no stack trace', async () => {
    const config = join(home, 'config');
    // A profile saved by the binary itself is not possible without a keychain; write the settings directly.
    const { saveProfile } = await import('../../src/credentials/profiles');
    await saveProfile(config, { name: 'nobus', baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    for (const args of [
      ['keys', 'list', '--sub', 'alpha'],
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE'],
      ['profile', 'remove', 'nobus'],
    ]) {
      // A process of its own: keytar finds D-Bus through the process's environment, not the run's.
      const r = await runBuiltCli(args, { BROKER_CONSOLE_HOME: config, HOME: home });
      expect(r.code, args.join(' ')).not.toBe(0);
      const lines = r.stderr.trim().split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      expect(r.stderr).toMatch(/no D-Bus session \(Cannot autolaunch D-Bus without X11 \$DISPLAY\)/);
      expect(r.stderr).toMatch(/dbus-run-session|BROKER_API_KEY/);
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('environment credentials never touch the keychain (keytar is not even loaded)', async () => {
    const sandbox = await ownSandbox({ seed: 3 });
    try {
      const t = testContext(sandbox, {
        configFolder: join(home, 'config'),
        keychain: () => Promise.reject(new Error('the keychain was opened')),
      });
      expect(await runKeysList({ sub: sandbox.subAccounts[0] ?? '' }, t.ctx)).toBe(0);
      // A process of its own, without this one's D-Bus: a keychain opened by mistake would fail it.
      const r = await runBuiltCli(['keys', 'list', '--sub', sandbox.subAccounts[0] ?? '', '--json'], {
        BROKER_API_KEY: sandbox.apiKey,
        BROKER_API_SECRET: sandbox.secretKey,
        BROKER_BASE_URL: sandbox.baseUrl,
        BROKER_CONSOLE_HOME: join(home, 'config'),
      });
      expect(r.code).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});

describe.skipIf(!availability.ok)('profiles with the real keychain', () => {
  let sandboxA: RunningSandbox;
  let sandboxB: RunningSandbox;
  beforeAll(async () => {
    sandboxA = await ownSandbox({ seed: 11 });
    // Another target with an unusual secret and its own header name.
    sandboxB = await ownSandbox({ seed: 12, secretKey: `sp ace "dq" 'sq' \\bs {"j":1} ünï 密钥 🔑`, apiKeyHeader: 'X-Other-Key', postSignature: 'body' });
  });
  afterAll(async () => {
    await sandboxA.close();
    await sandboxB.close();
  });
  const sub = (s: RunningSandbox): string => s.subAccounts[0] ?? '';
  const addVia = async (n: string, s: RunningSandbox, globals: GlobalOptions = {}, options = {}) => {
    const t = ctxFor({ baseUrl: s.baseUrl, ...globals }, `${s.apiKey}\n${s.secretKey}\n`);
    const code = await runProfileAdd(n, options, t.ctx);
    return { code, out: t.out.text(), err: t.err.text() };
  };

  it('add → list → use against the sandbox → remove (both parts gone)', async () => {
    const n = name();
    const added = await addVia(n, sandboxA);
    expect(added.code).toBe(0);
    expect(added.err).toBe('');
    expect(added.out).toContain(`added profile ${n} (default): ${sandboxA.baseUrl}, API key ${sandboxA.apiKey.slice(0, 4)}…`);
    expect(added.out).not.toContain(sandboxA.secretKey);
    expect(added.out).not.toContain(sandboxA.apiKey);
    expect(await (await keychainHere()).get(n)).toEqual({ apiKey: sandboxA.apiKey, secretKey: sandboxA.secretKey });

    let t = ctxFor();
    expect(await runProfileList({}, t.ctx)).toBe(0);
    const line =
      t.out
        .text()
        .split('\n')
        .find((l) => l.includes(n)) ?? '';
    expect(line).toMatch(new RegExp(`^\\*\\s+${n}\\s+full\\s+${sandboxA.baseUrl.replace(/[.]/g, '\\.')}\\s+auto\\s+\\S+…\\S+\\s+keychain$`));
    expect(t.out.text()).not.toContain(sandboxA.secretKey);

    // A command through the profile (no environment credentials): the default profile's keychain secret.
    const before = sandboxA.requests().length;
    t = ctxFor();
    expect(await runKeysList({ sub: sub(sandboxA), json: true }, t.ctx)).toBe(0);
    expect(t.err.text()).toBe('');
    expect(Array.isArray(JSON.parse(t.out.text()))).toBe(true);
    expect(sandboxA.requests().length).toBe(before + 1);

    t = ctxFor();
    expect(await runProfileUse(n, t.ctx)).toBe(0);
    expect(t.out.text()).toBe(`default profile: ${n}\n`);

    t = ctxFor();
    expect(await runProfileRemove(n, t.ctx)).toBe(0);
    expect(t.out.text()).toBe(`removed profile ${n} (settings and keychain entry)\n`);
    expect(await (await keychainHere()).get(n)).toBeUndefined();
    expect((await loadProfiles(join(home, 'config'))).profiles).toEqual([]);
    t = ctxFor();
    expect(await runKeysList({ sub: sub(sandboxA) }, t.ctx)).toBe(2);
  });

  it('a create through a profile whose answer never came: exit 3, and the advice names the profile', async () => {
    const n = name();
    expect((await addVia(n, sandboxA)).code).toBe(0);
    sandboxA.queueFaults({ kind: 'reset-after-handling' });
    const t = ctxFor({ profile: n });
    expect(await runKeysCreate({ allowRisky: true, sub: sub(sandboxA), permissions: 'SPOT_ACCOUNT_READ', note: 'lost answer' }, t.ctx)).toBe(3);
    expect(t.err.text()).toContain(`check with \`broker-console keys list --profile ${n} --sub ${sub(sandboxA)}\``);
  });

  it('two profiles: the default, --profile, BROKER_PROFILE and `use` pick the target', async () => {
    const [a, b] = [name('a'), name('b')];
    expect((await addVia(a, sandboxA)).code).toBe(0);
    const addedB = await addVia(b, sandboxB, { recvWindow: 9000 }, { apiKeyHeader: 'X-Other-Key', postSignature: 'body' });
    expect(addedB.code).toBe(0);
    expect(addedB.out).not.toContain('(default)');
    expect((await loadProfiles(join(home, 'config'))).profiles.find((p) => p.name === b)?.postSignature).toBe('body');

    /** Which sandbox a `keys list` reached (whatever it answered). */
    const hits = async (globals: GlobalOptions, env: Record<string, string> = {}): Promise<string> => {
      const [na, nb] = [sandboxA.requests().length, sandboxB.requests().length];
      const t = ctxFor(globals, undefined, env);
      await runKeysList({ sub: 'anyone' }, t.ctx);
      return sandboxA.requests().length > na ? 'A' : sandboxB.requests().length > nb ? 'B' : `none: ${t.err.text()}`;
    };
    expect(await hits({})).toBe('A'); // the first profile is the default
    expect(await hits({ profile: b })).toBe('B');
    expect(await hits({}, { BROKER_PROFILE: b })).toBe('B');
    expect(await hits({ profile: a }, { BROKER_PROFILE: b })).toBe('A'); // --profile beats BROKER_PROFILE
    expect(await hits({ profile: b, baseUrl: sandboxA.baseUrl })).toBe('A'); // --base-url beats the profile's

    let t = ctxFor();
    expect(await runProfileUse(b, t.ctx)).toBe(0);
    t = ctxFor();
    expect(await runKeysList({ sub: sub(sandboxB) }, t.ctx)).toBe(0); // header, POST signature body and the odd secret all work
    expect(t.err.text()).toBe('');
    const last = sandboxB.requests().at(-1);
    expect(last?.status).toBe(200);
    expect(new URLSearchParams(last?.query ?? '').get('recvWindow')).toBe('9000');
    // Its POST signature (body, as sandbox B checks) reaches the client: one create, accepted first time.
    const before = sandboxB.requests().length;
    t = ctxFor();
    expect(await runKeysCreate({ allowRisky: true, sub: sub(sandboxB), permissions: 'SPOT_ACCOUNT_READ', note: 'body rule' }, t.ctx)).toBe(0);
    expect(
      sandboxB
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.status}`),
    ).toEqual(['POST 200']);
    t = ctxFor({ recvWindow: 1234 });
    expect(await runKeysList({ sub: sub(sandboxB) }, t.ctx)).toBe(0);
    expect(new URLSearchParams(sandboxB.requests().at(-1)?.query ?? '').get('recvWindow')).toBe('1234');

    t = ctxFor();
    expect(await runProfileList({ json: true }, t.ctx)).toBe(0);
    const listed = (JSON.parse(t.out.text()) as { name: string; default: boolean; secret: string; apiKey: string }[]).filter(
      (p) => p.name === a || p.name === b,
    );
    expect(listed.map((p) => [p.name, p.default, p.secret])).toEqual([
      [a, false, 'keychain'],
      [b, true, 'keychain'],
    ]);
    expect(t.out.text()).not.toContain(sandboxB.secretKey);
    expect(t.out.text()).not.toContain(sandboxB.apiKey);

    // Environment credentials win over every profile, and list says so.
    t = ctxFor({}, undefined, { BROKER_API_KEY: 'mx0venvironmentkey', BROKER_API_SECRET: 'x' });
    expect(await runProfileList({}, t.ctx)).toBe(0);
    expect(t.out.text()).toContain('environment (BROKER_API_KEY/SECRET set)');
    expect(t.out.text()).toContain('mx0v…tkey');
  });

  it('add --read-only: saved read-only, listed so in every format; keys create through it exits 2 and sends no create', async () => {
    const [ro, rw] = [name('ro'), name('rw')];
    const added = await addVia(ro, sandboxA, { readOnly: true });
    expect(added.code).toBe(0);
    expect(added.out).toContain(`added profile ${ro} (default, read-only): ${sandboxA.baseUrl}`);
    expect((await addVia(rw, sandboxA)).code).toBe(0);
    const saved = JSON.parse(readFileSync(profilesPath(join(home, 'config')), 'utf8')) as { profiles: Record<string, unknown>[] };
    expect(saved.profiles.find((p) => p.name === ro)?.readOnly).toBe(true);
    // A profile that is not read-only is written as older versions wrote it (no readOnly field).
    expect(saved.profiles.find((p) => p.name === rw)).not.toHaveProperty('readOnly');
    expect((await loadProfiles(join(home, 'config'))).profiles.map((p) => [p.name, p.readOnly === true])).toEqual([
      [ro, true],
      [rw, false],
    ]);

    let t = ctxFor();
    expect(await runProfileList({ json: true }, t.ctx)).toBe(0);
    expect((JSON.parse(t.out.text()) as { name: string; readOnly: boolean }[]).map((p) => [p.name, p.readOnly])).toEqual([
      [ro, true],
      [rw, false],
    ]);
    t = ctxFor();
    expect(await runProfileList({}, t.ctx)).toBe(0);
    expect(t.out.text()).toMatch(new RegExp(`^\\*\\s+${ro}\\s+read-only\\s`, 'm'));
    expect(t.out.text()).toMatch(new RegExp(`^\\s+${rw}\\s+full\\s`, 'm'));
    t = ctxFor();
    expect(await runProfileList({ format: 'csv' }, t.ctx)).toBe(0);
    expect(t.out.text()).toContain(`${ro},true,${sandboxA.baseUrl},X-MEXC-APIKEY,5000,auto,true,`);

    // Through the read-only profile (the default): listing works, creating is refused before anything is sent.
    const before = sandboxA.requests().length;
    t = ctxFor();
    expect(await runKeysList({ sub: sub(sandboxA) }, t.ctx)).toBe(0);
    t = ctxFor();
    expect(await runKeysCreate({ allowRisky: true, sub: sub(sandboxA), permissions: 'SPOT_ACCOUNT_READ', note: 'never' }, t.ctx)).toBe(2);
    expect(t.err.text()).toBe(`error: create key was not sent: read-only profile '${ro}': creating keys is disabled\n`);
    expect(
      sandboxA
        .requests()
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['GET']);
    // Environment credentials borrowing its settings (--profile) are read-only too.
    t = ctxFor({ profile: ro }, undefined, { BROKER_API_KEY: sandboxA.apiKey, BROKER_API_SECRET: sandboxA.secretKey });
    expect(await runKeysCreate({ allowRisky: true, sub: sub(sandboxA), permissions: 'SPOT_ACCOUNT_READ', note: 'never' }, t.ctx)).toBe(2);
    // The other profile creates.
    t = ctxFor({ profile: rw });
    expect(await runKeysCreate({ allowRisky: true, sub: sub(sandboxA), permissions: 'SPOT_ACCOUNT_READ', note: 'allowed', json: true }, t.ctx)).toBe(0);
    expect(
      sandboxA
        .requests()
        .slice(before)
        .filter((r) => r.method === 'POST'),
    ).toHaveLength(1);

    // Added again without --read-only: refused (a re-add replaces every setting, and this one is never dropped
    // unsaid), nothing asked or saved; with it, replaced.
    const dropped = await addVia(ro, sandboxA);
    expect(dropped.code).toBe(2);
    expect(dropped.err).toContain(`profile ${ro} is read-only: add --read-only to keep it so`);
    expect((await loadProfiles(join(home, 'config'))).profiles.find((p) => p.name === ro)?.readOnly).toBe(true);
    expect((await addVia(ro, sandboxA, { readOnly: true })).code).toBe(0);
    // BROKER_READ_ONLY, which --read-only's help calls the same, saves it read-only too.
    const viaEnv = name('roenv');
    const byEnv = ctxFor({ baseUrl: sandboxA.baseUrl }, `${sandboxA.apiKey}\n${sandboxA.secretKey}\n`, { BROKER_READ_ONLY: '1' });
    expect(await runProfileAdd(viaEnv, {}, byEnv.ctx)).toBe(0);
    expect((await loadProfiles(join(home, 'config'))).profiles.find((p) => p.name === viaEnv)?.readOnly).toBe(true);
  });

  it('the command line: `profile add NAME --read-only` saves it read-only', async () => {
    const n = name('robin');
    const config = join(home, 'config');
    const r = await runCli(
      ['profile', 'add', n, '--base-url', sandboxA.baseUrl, '--read-only'],
      { ...busEnv(), BROKER_CONSOLE_HOME: config },
      { input: `${sandboxA.apiKey}\n${sandboxA.secretKey}\n` },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((await loadProfiles(config)).profiles).toMatchObject([{ name: n, readOnly: true }]);
    const created = await runCli(['keys', 'create', '--allow-risky', '--sub', sub(sandboxA), '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'x'], {
      ...busEnv(),
      BROKER_CONSOLE_HOME: config,
    });
    expect(created.code).toBe(2);
    expect(created.stderr).toBe(`error: create key was not sent: read-only profile '${n}': creating keys is disabled\n`);
  });

  it('a secret with spaces, quotes and non-ASCII round-trips through add and signs correctly', async () => {
    const n = name();
    expect((await addVia(n, sandboxB, {}, { apiKeyHeader: 'X-Other-Key', signBody: false })).code).toBe(0);
    expect(await (await keychainHere()).get(n)).toEqual({ apiKey: sandboxB.apiKey, secretKey: sandboxB.secretKey });
    const t = ctxFor({ profile: n });
    expect(await runKeysList({ sub: sub(sandboxB) }, t.ctx)).toBe(0);
    expect(t.err.text()).toBe('');
    // Like an environment value, a pasted line is trimmed at its ends (inner spaces are kept).
    const m = name();
    const padded = ctxFor({ baseUrl: sandboxB.baseUrl }, `  ${sandboxB.apiKey} \n\t${sandboxB.secretKey}  \n`);
    // (with sandbox B's header and signing option: the check before saving must pass)
    expect(await runProfileAdd(m, { apiKeyHeader: 'X-Other-Key', signBody: false }, padded.ctx)).toBe(0);
    expect((await (await keychainHere()).get(m))?.secretKey).toBe(sandboxB.secretKey);
  });

  it('a missing keychain entry: clear message, exit 2, nothing sent; the command to store it again keeps every setting', async () => {
    const n = name();
    expect((await addVia(n, sandboxA, { readOnly: true }, { color: 'blue' })).code).toBe(0);
    await (await keychainHere()).remove(n);
    const before = sandboxA.requests().length;
    const t = ctxFor({ profile: n });
    expect(await runKeysList({ sub: sub(sandboxA) }, t.ctx)).toBe(2);
    expect(t.err.text()).toBe(
      `error: the keychain has no entry for profile '${n}' (or the login keyring is locked)\n` +
        `store it again with \`broker-console profile add ${n} --base-url ${sandboxA.baseUrl} --read-only --color blue\`, unlock the keyring, or set BROKER_API_KEY and BROKER_API_SECRET (with BROKER_BASE_URL) instead\n`,
    );
    expect(sandboxA.requests().length).toBe(before);
    const list = ctxFor();
    await runProfileList({}, list.ctx);
    expect(list.out.text()).toContain('keychain: entry missing');
  });

  it('an unknown --profile: exit 2 naming the known ones', async () => {
    const n = name();
    expect((await addVia(n, sandboxA)).code).toBe(0);
    const t = ctxFor({ profile: 'nope' });
    expect(await runKeysList({ sub: sub(sandboxA) }, t.ctx)).toBe(2);
    expect(t.err.text()).toBe(`error: no profile named 'nope' (--profile); profiles: ${n}: add it with \`broker-console profile add nope --base-url URL\`\n`);
  });

  it('add checks before it saves: a wrong secret is refused by the service, nothing is stored (exit 1)', async () => {
    const n = name('chk');
    const before = sandboxA.requests().length;
    const t = ctxFor({ baseUrl: sandboxA.baseUrl }, `${sandboxA.apiKey}\nnot-the-secret\n`);
    expect(await runProfileAdd(n, {}, t.ctx)).toBe(1);
    expect(t.err.text()).toBe('error: the service rejected the signature: check the secret (and the API-key header)\nnothing was saved\n');
    expect(t.out.text()).toBe('');
    // Exactly the one signed check was sent, and refused.
    expect(
      sandboxA
        .requests()
        .slice(before)
        .map((r) => [r.method, r.path.split('?')[0], r.status]),
    ).toEqual([['GET', '/api/v3/broker/sub-account/universalTransfer', 400]]);
    expect(await (await keychainHere()).get(n)).toBeUndefined();
    expect((await loadProfiles(join(home, 'config'))).profiles).toEqual([]);
  });

  it('add checks before it saves: an unknown API key is named; nothing is stored', async () => {
    const n = name('chk');
    const t = ctxFor({ baseUrl: sandboxA.baseUrl }, `mx0vnotakeyoftheservice\n${sandboxA.secretKey}\n`);
    expect(await runProfileAdd(n, {}, t.ctx)).toBe(1);
    expect(t.err.text()).toBe('error: the service does not know this API key\nnothing was saved\n');
    expect(await (await keychainHere()).get(n)).toBeUndefined();
    expect((await loadProfiles(join(home, 'config'))).profiles).toEqual([]);
  });

  it('add checks before it saves: an unreachable service is "could not reach …" (exit 1); --no-check saves offline', async () => {
    const gone = await ownSandbox({ seed: 13 });
    const baseUrl = gone.baseUrl;
    await gone.close();
    const n = name('chk');
    let t = ctxFor({ baseUrl }, 'mx0vofflinekey\noffline-secret\n');
    expect(await runProfileAdd(n, {}, t.ctx)).toBe(1);
    expect(t.err.text()).toBe(
      `error: could not reach ${baseUrl} (ECONNREFUSED): check the base URL and the network\n` +
        'nothing was saved (to save it without checking, for offline setup: --no-check)\n',
    );
    expect(await (await keychainHere()).get(n)).toBeUndefined();
    expect((await loadProfiles(join(home, 'config'))).profiles).toEqual([]);

    t = ctxFor({ baseUrl }, 'mx0vofflinekey\noffline-secret\n');
    expect(await runProfileAdd(n, { check: false }, t.ctx)).toBe(0);
    expect(t.err.text()).toBe('');
    expect(t.out.text()).toContain(`added profile ${n} (default): ${baseUrl}`);
    expect(await (await keychainHere()).get(n)).toEqual({ apiKey: 'mx0vofflinekey', secretKey: 'offline-secret' });
  });

  it('add: a key without SPOT_TRANSFER_READ passes the check (the signature is proven) and says so', async () => {
    const limited = await ownSandbox({ seed: 14, permissions: ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE'] });
    try {
      const n = name('chk');
      const t = ctxFor({ baseUrl: limited.baseUrl }, `${limited.apiKey}\n${limited.secretKey}\n`);
      expect(await runProfileAdd(n, {}, t.ctx)).toBe(0);
      expect(t.err.text()).toBe('note: connected, but this key may not read transfers (no SPOT_TRANSFER_READ)\n');
      expect(await (await keychainHere()).get(n)).toEqual({ apiKey: limited.apiKey, secretKey: limited.secretKey });
    } finally {
      await limited.close();
    }
  });

  it('the command line: `profile add` with a wrong secret stores nothing (exit 1); the right one is stored', async () => {
    const n = name('binchk');
    const config = join(home, 'config');
    const env = { ...busEnv(), BROKER_CONSOLE_HOME: config };
    const wrong = await runCli(['profile', 'add', n, '--base-url', sandboxA.baseUrl], env, { input: `${sandboxA.apiKey}\nwrong\n` });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('error: the service rejected the signature: check the secret (and the API-key header)\nnothing was saved\n');
    expect(await (await keychainHere()).get(n)).toBeUndefined();
    expect((await loadProfiles(config)).profiles).toEqual([]);
    const right = await runCli(['profile', 'add', n, '--base-url', sandboxA.baseUrl], env, { input: `${sandboxA.apiKey}\n${sandboxA.secretKey}\n` });
    expect(right.stderr).toBe('');
    expect(right.code).toBe(0);
    expect(await (await keychainHere()).get(n)).toEqual({ apiKey: sandboxA.apiKey, secretKey: sandboxA.secretKey });
  });

  it('add rejects an empty secret or a missing second line, and leaves nothing behind', async () => {
    const n = name();
    for (const input of ['mx0vkey\n', 'mx0vkey\n\n', '\nsecret\n', 'mx0v key\nsecret\n']) {
      const t = ctxFor({ baseUrl: sandboxA.baseUrl }, input);
      expect(await runProfileAdd(n, {}, t.ctx)).toBe(2);
      expect(t.err.text()).toMatch(/^error: /);
    }
    expect(await (await keychainHere()).get(n)).toBeUndefined();
    expect((await loadProfiles(join(home, 'config'))).profiles).toEqual([]);
  });

  it('the binary: non-TTY `profile add` reads the two stdin lines; config file 0600', async () => {
    const n = name('bin');
    const config = join(home, 'config');
    const env = { ...busEnv(), BROKER_CONSOLE_HOME: config };
    // The real process's stdin as a pipe, and the files the bin writes (0600).
    const r = await runBuiltCli(['profile', 'add', n, '--base-url', sandboxA.baseUrl], env, { input: `${sandboxA.apiKey}\r\n${sandboxA.secretKey}\r\n` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(statSync(profilesPath(config)).mode & 0o777).toBe(0o600);
    expect(await (await keychainHere()).get(n)).toEqual({ apiKey: sandboxA.apiKey, secretKey: sandboxA.secretKey });
    const listed = await runBuiltCli(['keys', 'list', '--sub', sub(sandboxA)], env);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const removed = await runBuiltCli(['profile', 'remove', n], env);
    expect(removed.stdout).toBe(`removed profile ${n} (settings and keychain entry)\n`);
  });

  it('secret-leak scan: after add and keys create (with --log-file), no file holds the master secret or a created secret', async () => {
    const master = `master-${Math.random().toString(36).slice(2)}-sécret "q"`;
    const sandbox = await ownSandbox({ seed: 21, secretKey: master });
    const config = join(home, 'config');
    const logFile = join(home, 'exchanges.log');
    const created: string[] = [];
    try {
      const n = name('leak');
      // In-process command…
      let t = ctxFor({ baseUrl: sandbox.baseUrl }, `${sandbox.apiKey}\n${master}\n`);
      expect(await runProfileAdd(n, {}, t.ctx)).toBe(0);
      t = ctxFor({ logFile });
      expect(await runKeysCreate({ allowRisky: true, sub: sandbox.subAccounts[0], permissions: 'SPOT_ACCOUNT_READ', note: 'leak-1', json: true }, t.ctx)).toBe(
        0,
      );
      created.push((JSON.parse(t.out.text()) as { secretKey: string }).secretKey);
      // …and the binary, profile added through it too: its compile cache (in the config folder) is scanned as well.
      const env = { ...busEnv(), BROKER_CONSOLE_HOME: config };
      const m = name('leakbin');
      expect((await runBuiltCli(['profile', 'add', m, '--base-url', sandbox.baseUrl], env, { input: `${sandbox.apiKey}\n${master}\n` })).code).toBe(0);
      const r = await runBuiltCli(
        [
          '--profile',
          m,
          '--log-file',
          logFile,
          'keys',
          'create',
          '--allow-risky',
          '--sub',
          sandbox.subAccounts[0] ?? '',
          '--permissions',
          'SPOT_ACCOUNT_READ',
          '--note',
          'leak-2',
          '--json',
        ],
        env,
      );
      expect(r.code).toBe(0);
      created.push((JSON.parse(r.stdout) as { secretKey: string }).secretKey);
      await runBuiltCli(['--log-file', logFile, 'keys', 'list', '--sub', sandbox.subAccounts[0] ?? ''], env);
      expect(created.every((s) => s.length >= 16)).toBe(true);

      const log = readFileSync(logFile, 'utf8');
      const lines = log.trim().split('\n');
      expect(lines.length).toBe(3);
      expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z op=\S+ POST \/api\/v3\/\S+ status=200 ok=true latency=\d+ms attempt=1 signed=query key=\S{4}…\S{4}$/);
      expect(log).not.toMatch(/signature|timestamp=|\?/);
      expect(log).not.toContain(sandbox.apiKey);
      expect(statSync(logFile).mode & 0o777).toBe(0o600);

      const files = [...allFiles(config), logFile];
      expect(files.length).toBeGreaterThanOrEqual(2);
      for (const file of files) {
        const bytes = readFileSync(file);
        for (const secret of [master, ...created]) {
          expect(bytes.includes(Buffer.from(secret)), `${file} holds a secret`).toBe(false);
        }
      }
    } finally {
      await sandbox.close();
    }
  });
});
