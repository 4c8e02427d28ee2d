// The keychain against a real Secret Service (gnome-keyring under dbus-run-session in CI), and keytar's
// real failures provoked in child processes: no D-Bus session, a D-Bus without a Secret Service, a locked
// keyring. Error texts below are the ones keytar 7.9 / libsecret actually gave on this machine.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE, KeychainError, classifyKeytarError, loadFix, openKeychain } from '../../src/credentials/keychain';
import { buildCli } from '../commands/helpers';
import { probeKeychain, uniqueProfile } from './keychainProbe';

const OBSERVED = {
  noDbus: 'Cannot autolaunch D-Bus without X11 $DISPLAY',
  badBusAddress: 'Could not connect: No such file or directory',
  displayButNoBus:
    'Error spawning command line “dbus-launch --autolaunch=3d1219c7c4c5404aaa1f6d2a48adfda4 --binary-syntax --close-stderr”: Child process exited with code 1',
  noSecretService: 'The name org.freedesktop.secrets was not provided by any .service files',
  locked: 'Cannot create an item in a locked collection',
  // gnome-keyring started without --unlock and no desktop login: no login collection yet.
  noKeyring: 'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
};

describe('keytar errors become one problem each, in two lines at most', () => {
  it.each([
    [OBSERVED.noDbus, 'no-dbus', /no D-Bus session/],
    [OBSERVED.badBusAddress, 'no-dbus', /no D-Bus session/],
    [OBSERVED.displayButNoBus, 'no-dbus', /no D-Bus session/],
    [OBSERVED.noSecretService, 'no-secret-service', /no Secret Service is running[\s\S]*apt-get install gnome-keyring/],
    [OBSERVED.locked, 'locked', /keychain is locked[\s\S]*unlock the login keyring/],
    [OBSERVED.noKeyring, 'no-keyring', /no login keyring[\s\S]*gnome-keyring-daemon --unlock/],
    ['something else entirely', 'failed', /the keychain failed: something else entirely\nset BROKER_API_KEY/],
  ])('%s → %s', (text, kind, message) => {
    const problem = classifyKeytarError(new Error(text));
    expect(problem.kind).toBe(kind);
    expect(problem.message).toMatch(message);
    expect(problem.message.split('\n').length).toBeLessThanOrEqual(2);
    expect(problem.message).toMatch(/BROKER_API_KEY and BROKER_API_SECRET/);
    // What to do never includes keeping the secret in a plain file.
    expect(problem.message.split('\n')[1]).not.toMatch(/plain|\.txt|file/i);
  });

  it('keytar that cannot load → not-built, with what to do', async () => {
    const error = await openKeychain(() => Promise.reject(new Error("Cannot find module '../build/Release/keytar.node'"))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainError);
    const { problem } = error as KeychainError;
    expect(problem.kind).toBe('not-built');
    expect(problem.message).toMatch(/@github\/keytar .* not installed or cannot load/);
    // npm removes an optional dependency whose install failed: a rebuild finds nothing, a reinstall adds it.
    expect(problem.message).not.toMatch(/npm rebuild/);
    expect(problem.message).toMatch(/npm install -g --allow-scripts=@github\/keytar broker-console/);
    expect(problem.message.split('\n')).toHaveLength(2);
  });
});

describe('when @github/keytar cannot load, the fix for the platform', () => {
  it('Linux with a prebuilt binary but no libsecret runtime: the runtime, a Secret Service, then the reinstall', () => {
    const fix = loadFix('linux', 'x64', 'libsecret-1.so.0: cannot open shared object file: No such file or directory');
    expect(fix).toBe(
      'install the libsecret runtime (libsecret-1-0) and a Secret Service (gnome-keyring), then reinstall broker-console with `npm install -g --allow-scripts=@github/keytar broker-console`',
    );
  });

  it('macOS and Windows: the reinstall alone (their keychains need nothing installed)', () => {
    for (const [platform, arch] of [
      ['darwin', 'arm64'],
      ['win32', 'x64'],
    ] as const) {
      expect(loadFix(platform, arch)).toBe('reinstall broker-console with `npm install -g --allow-scripts=@github/keytar broker-console`');
    }
  });

  it('a platform without a prebuilt binary: the build tools, then the reinstall', () => {
    expect(loadFix('freebsd', 'x64')).toMatch(
      /^there is no prebuilt binary for freebsd-x64: install a C\+\+ compiler, python3 and libsecret-1-dev, then reinstall/,
    );
    expect(loadFix('linux', 's390x')).toMatch(/no prebuilt binary for linux-s390x: install a C\+\+ compiler, python3 and libsecret-1-dev/);
  });
});

// ---- failures provoked for real, through the built binary ------------------------------------------

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>, input: string): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin.end(input);
  });
}

/** Our own lines only: dbus-daemon and gnome-keyring write their chatter to the same stderr. */
function ownLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter(
      (line) =>
        line !== '' &&
        !/^(dbus-daemon|\(gcr-prompter|\*\* \(gnome-keyring|\(process:|\s*$)/.test(line) &&
        !/Gtk-WARNING|SystemPrompter|GNOME_KEYRING/.test(line),
    );
}

const has = (cmd: string, arg = '--version'): boolean => spawnSync(cmd, [arg], { stdio: 'ignore' }).status === 0;
const dbusRunSession = has('dbus-run-session');
const keyringDaemon = has('gnome-keyring-daemon');
const gdbus = has('gdbus', 'help');

describe('the keychain cannot be used: clear lines, non-zero exit, nothing saved', () => {
  let home: string;
  let bin: string;
  beforeAll(async () => {
    bin = await buildCli();
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const fresh = (): string => {
    home = mkdtempSync(join(tmpdir(), 'bc-keychain-fail-'));
    return home;
  };

  it('no D-Bus session at all (no DBUS_SESSION_BUS_ADDRESS, no DISPLAY)', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: fresh(), BROKER_CONSOLE_HOME: join(home, 'config') };
    const r = await run(process.execPath, [bin, 'profile', 'add', 'nobus', '--base-url', 'http://127.0.0.1:9'], env, 'mx0vkey\nsecret\n');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `error: the keychain cannot be reached: there is no D-Bus session (${OBSERVED.noDbus})`,
      'run inside a desktop login or `dbus-run-session` with a Secret Service such as gnome-keyring, or set BROKER_API_KEY and BROKER_API_SECRET (with BROKER_BASE_URL) instead',
    ]);
    expect(r.stdout).toBe('');
  });

  it.skipIf(!dbusRunSession)('a D-Bus session without any Secret Service', async () => {
    const conf = join(fresh(), 'session.conf');
    writeFileSync(
      conf,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
    );
    const env = { PATH: process.env.PATH ?? '', HOME: home, BROKER_CONSOLE_HOME: join(home, 'config') };
    const r = await run(
      'dbus-run-session',
      [`--config-file=${conf}`, '--', process.execPath, bin, 'profile', 'add', 'nosvc', '--base-url', 'http://127.0.0.1:9'],
      env,
      'k\ns\n',
    );
    expect(r.code).toBe(2);
    expect(ownLines(r.stderr)).toEqual([
      'error: the keychain cannot be reached: no Secret Service is running on the D-Bus session',
      'install and start one (e.g. `apt-get install gnome-keyring`), or set BROKER_API_KEY and BROKER_API_SECRET (with BROKER_BASE_URL) instead',
    ]);
  });

  it.skipIf(!dbusRunSession || !keyringDaemon || !gdbus)('a locked keyring: the add is refused and nothing is saved', async () => {
    const config = join(fresh(), 'config');
    const script = [
      'printf pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
      // create the login collection, then lock it
      `"$NODE" "$BIN" profile add warmup --base-url http://127.0.0.1:9 </dev/null >/dev/null 2>&1 || true`,
      // (--no-check here and below: nothing listens on port 9, and what is tested is the keychain)
      `printf 'k\\ns\\n' | "$NODE" "$BIN" profile add unlockedfirst --base-url http://127.0.0.1:9 --no-check >/dev/null 2>&1`,
      'gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets --method org.freedesktop.Secret.Service.Lock "[\'/org/freedesktop/secrets/collection/login\']" >/dev/null',
      `printf 'k\\ns\\n' | "$NODE" "$BIN" profile add afterlock --base-url http://127.0.0.1:9 --no-check; echo "exit=$?"`,
      `"$NODE" "$BIN" profile list --json`,
    ].join('\n');
    const env = { PATH: process.env.PATH ?? '', HOME: home, BROKER_CONSOLE_HOME: config, NODE: process.execPath, BIN: bin };
    const r = await run('dbus-run-session', ['--', 'sh', '-c', script], env, '');
    expect(r.stdout).toContain('exit=2');
    expect(ownLines(r.stderr)).toEqual([
      'error: the keychain is locked',
      'unlock the login keyring (log in to the desktop, or `gnome-keyring-daemon --unlock`), or set BROKER_API_KEY and BROKER_API_SECRET (with BROKER_BASE_URL) instead',
      'nothing was saved',
    ]);
    // Only the profile added before the lock exists; a locked keyring reads as "entry missing".
    const listed = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { name: string; secret: string }[];
    expect(listed.map((p) => p.name)).toEqual(['unlockedfirst']);
    expect(listed[0]?.secret).toBe('keychain-missing');
  });
});

// ---- the real keychain ------------------------------------------------------------------------------

const availability = await probeKeychain();
if (!availability.ok) console.warn(`SKIPPED keychain tests: ${availability.reason}`);

describe.skipIf(!availability.ok)(`the real keychain (service ${KEYCHAIN_SERVICE})`, () => {
  const used: string[] = [];
  const name = (): string => {
    const n = uniqueProfile('kc');
    used.push(n);
    return n;
  };
  afterEach(async () => {
    const keychain = await openKeychain();
    for (const n of used.splice(0)) await keychain.remove(n).catch(() => false);
  });
  afterAll(async () => {
    const keychain = await openKeychain();
    for (const n of used) await keychain.remove(n).catch(() => false);
  });

  it('set, get, remove; a missing entry is undefined and removing it again is false', async () => {
    const keychain = await openKeychain();
    const p = name();
    expect(await keychain.get(p)).toBeUndefined();
    await keychain.set(p, { apiKey: 'mx0vkey1', secretKey: 's1' });
    expect(await keychain.get(p)).toEqual({ apiKey: 'mx0vkey1', secretKey: 's1' });
    await keychain.set(p, { apiKey: 'mx0vkey2', secretKey: 's2' });
    expect(await keychain.get(p)).toEqual({ apiKey: 'mx0vkey2', secretKey: 's2' });
    expect(await keychain.remove(p)).toBe(true);
    expect(await keychain.get(p)).toBeUndefined();
    expect(await keychain.remove(p)).toBe(false);
  });

  it('a secret with spaces, quotes, backslashes and non-ASCII round-trips exactly', async () => {
    const keychain = await openKeychain();
    const p = name();
    const secretKey = ` a b  "double" 'single' \\back\\slash {"json":1} ünïcödé 密钥 🔑 `;
    await keychain.set(p, { apiKey: 'mx0v"key', secretKey });
    expect(await keychain.get(p)).toEqual({ apiKey: 'mx0v"key', secretKey });
  });

  it('profiles are separate entries', async () => {
    const keychain = await openKeychain();
    const [a, b] = [name(), name()];
    await keychain.set(a, { apiKey: 'ka', secretKey: 'sa' });
    await keychain.set(b, { apiKey: 'kb', secretKey: 'sb' });
    expect((await keychain.get(a))?.secretKey).toBe('sa');
    expect((await keychain.get(b))?.secretKey).toBe('sb');
    await keychain.remove(a);
    expect(await keychain.get(a)).toBeUndefined();
    expect((await keychain.get(b))?.secretKey).toBe('sb');
  });
});
