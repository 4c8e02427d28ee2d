// Profiles under a lock and keychain entries per config folder, as the faults happen: `profile add` run four
// at once by the built binary against a real Secret Service, two adds of one name whose settings and secret
// must not cross, an add and a remove of one name at once, the same profile name in two folders, an entry
// from before accounts named their folder, entries no profile owns, and stale or held locks.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileLockedError, STALE_LOCK_MS, withFileLock } from '../../src/config/fileLock';
import { folderKeychain, keychainAccount, openKeychain } from '../../src/credentials/keychain';
import { loadProfiles, profilesPath, saveProfile } from '../../src/credentials/profiles';
import { type RunResult, SHARED_CACHE, buildCli, runBuiltCli } from '../commands/helpers';
import { probeKeychain, uniqueProfile, busEnv } from './keychainProbe';

const availability = await probeKeychain();
if (!availability.ok) console.warn(`SKIPPED keychain tests: ${availability.reason}`);

const root = mkdtempSync(join(tmpdir(), 'bc-profile-folders-'));
const accounts: string[] = [];
afterEach(async () => {
  if (!availability.ok) return;
  const raw = await openKeychain();
  for (const a of accounts.splice(0)) await raw.remove(a).catch(() => false);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const folderFor = (label: string): string => mkdtempSync(join(root, `${label}-`));

/** `profile add NAME --no-check` by the built binary, the API key and secret on stdin. */
function add(folder: string, name: string, secret: string) {
  accounts.push(keychainAccount(name, folder));
  return runBuiltCli(
    ['profile', 'add', name, '--base-url', 'http://127.0.0.1:9', '--no-check'],
    { ...busEnv(), BROKER_CONSOLE_HOME: folder },
    { input: `mx0v${name}\n${secret}\n` },
  );
}

/** `profile add NAME --no-check --color COLOR` by the built binary, started and not awaited: its pid, then its end. */
async function startAdd(folder: string, name: string, color: string, run: string): Promise<{ pid: number; done: Promise<RunResult> }> {
  const child = spawn(process.execPath, [await buildCli(), 'profile', 'add', name, '--base-url', 'http://127.0.0.1:9', '--no-check', '--color', color], {
    env: { PATH: process.env.PATH ?? '', BROKER_CONSOLE_CACHE: SHARED_CACHE, ...busEnv(), BROKER_CONSOLE_HOME: folder },
  });
  child.stdin.end(`mx0v${run}\nsecret-${run}\n`);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
  if (child.pid === undefined) throw new Error('profile add did not start');
  return { pid: child.pid, done };
}

/** The binary started through `link` (argv[1] is the link, as npm's bin makes it). */
function runLinked(link: string, args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [link, ...args],
      { env: { PATH: process.env.PATH ?? '', BROKER_CONSOLE_CACHE: SHARED_CACHE, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (error !== null && code === null) reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Until `reached` holds, or the process has slept without using the CPU for half a second (it waits on a lock). */
async function untilWaiting(pid: number, reached: () => Promise<boolean>): Promise<void> {
  let last = '';
  let still = 0;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && still < 10;) {
    if (await reached()) return;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const now = `${fields[0]} ${fields[11]} ${fields[12]}`;
    still = fields[0] === 'S' && now === last ? still + 1 : 0;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!availability.ok)('profiles and the keychain, per config folder (real Secret Service)', () => {
  it('two `profile add` of one name at once: its settings and its secret come from the same run', async () => {
    const folder = folderFor('pair');
    const name = uniqueProfile('pair');
    accounts.push(keychainAccount(name, folder));
    const keychain = folderKeychain(await openKeychain(), folder);
    const stored = async (run: string): Promise<boolean> => (await keychain.get(name))?.secretKey === `secret-${run}`;
    // Held here, the lock lets both runs go as far as they can before either saves; the first is then paused
    // until the second has finished: the interleaving that crossed them.
    const lock = `${profilesPath(folder)}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() }));
    const first = await startAdd(folder, name, 'red', 'first');
    let second: Awaited<ReturnType<typeof startAdd>> | undefined;
    try {
      await untilWaiting(first.pid, () => stored('first'));
      process.kill(first.pid, 'SIGSTOP');
      second = await startAdd(folder, name, 'blue', 'second');
      await untilWaiting(second.pid, () => stored('second'));
      rmSync(lock);
      const secondRun = await second.done;
      expect(secondRun.code, secondRun.stderr).toBe(0);
    } finally {
      process.kill(first.pid, 'SIGCONT');
    }
    const firstRun = await first.done;
    expect(firstRun.code, firstRun.stderr).toBe(0);
    const settings = (await loadProfiles(folder)).profiles.find((p) => p.name === name);
    expect({ color: settings?.color, credentials: await keychain.get(name) }).toEqual({
      color: 'red',
      credentials: { apiKey: 'mx0vfirst', secretKey: 'secret-first' },
    });
    expect(readdirSync(folder)).toEqual(['profiles.json']);
  }, 60_000);

  it('four `profile add` at once, five rounds: every profile is kept, each with its own secret', async () => {
    for (let round = 0; round < 5; round += 1) {
      const folder = folderFor(`par${round}`);
      const names = [0, 1, 2, 3].map(() => uniqueProfile('par'));
      const runs = await Promise.all(names.map((n) => add(folder, n, `secret-${n}`)));
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      expect((await loadProfiles(folder)).profiles.map((p) => p.name).sort()).toEqual([...names].sort());
      const keychain = folderKeychain(await openKeychain(), folder);
      for (const n of names) expect((await keychain.get(n))?.secretKey).toBe(`secret-${n}`);
      // No lock or temporary file is left behind.
      expect(readdirSync(folder).sort()).toEqual(['profiles.json']);
    }
  }, 120_000);

  it('adds and removes at once never lose a profile that was not removed', async () => {
    const folder = folderFor('mix');
    const kept = [0, 1, 2].map(() => uniqueProfile('keep'));
    const gone = [0, 1, 2].map(() => uniqueProfile('gone'));
    for (const n of gone) expect((await add(folder, n, 's')).code).toBe(0);
    const env = { ...busEnv(), BROKER_CONSOLE_HOME: folder };
    const runs = await Promise.all([...kept.map((n) => add(folder, n, 's')), ...gone.map((n) => runBuiltCli(['profile', 'remove', n], env))]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect((await loadProfiles(folder)).profiles.map((p) => p.name).sort()).toEqual([...kept].sort());
  }, 60_000);

  it('`profile add X` and `profile remove X` at once, ten rounds: X is either whole (settings and secret) or gone', async () => {
    for (let round = 0; round < 10; round += 1) {
      const folder = folderFor(`race${round}`);
      const name = uniqueProfile('race');
      expect((await add(folder, name, 'first')).code).toBe(0);
      const env = { ...busEnv(), BROKER_CONSOLE_HOME: folder };
      const [added, removed] = await Promise.all([add(folder, name, 'second'), runBuiltCli(['profile', 'remove', name], env)]);
      expect(added.code, added.stderr).toBe(0);
      expect(removed.code, removed.stderr).toBe(0);
      const settings = (await loadProfiles(folder)).profiles.some((p) => p.name === name);
      const secret = (await folderKeychain(await openKeychain(), folder).get(name))?.secretKey;
      expect({ settings, secret }).toEqual(settings ? { settings, secret: 'second' } : { settings, secret: undefined });
    }
  }, 120_000);

  it('the same name in two folders: two secrets; removing one leaves the other', async () => {
    const live = folderFor('live');
    const staging = folderFor('staging');
    const name = uniqueProfile('prod');
    expect((await add(live, name, 'live-secret')).code).toBe(0);
    expect((await add(staging, name, 'staging-secret')).code).toBe(0);
    const raw = await openKeychain();
    expect((await folderKeychain(raw, live).get(name))?.secretKey).toBe('live-secret');
    expect((await folderKeychain(raw, staging).get(name))?.secretKey).toBe('staging-secret');
    const removed = await runBuiltCli(['profile', 'remove', name], { ...busEnv(), BROKER_CONSOLE_HOME: staging });
    expect(removed.code).toBe(0);
    expect(await folderKeychain(raw, staging).get(name)).toBeUndefined();
    expect((await folderKeychain(raw, live).get(name))?.secretKey).toBe('live-secret');
  }, 60_000);

  it('a config folder reached through a link is one folder: its entries are found and removed by either path', async () => {
    const real = folderFor('real');
    const link = join(folderFor('links'), 'config');
    symlinkSync(real, link);
    const raw = await openKeychain();
    const name = uniqueProfile('lnk');
    const written = uniqueProfile('lnkold');
    accounts.push(keychainAccount(name, real), `${name}@${link}`, keychainAccount(written, real), `${written}@${link}`);
    // Stored through the link, read through the real path (and the other way round).
    await folderKeychain(raw, link).set(name, { apiKey: 'mx0vlink', secretKey: 'link-secret' });
    expect(keychainAccount(name, link)).toBe(keychainAccount(name, real));
    expect((await folderKeychain(raw, real).get(name))?.secretKey).toBe('link-secret');
    // An entry written under the link's own path (before folders were named by their real path): found and moved.
    await raw.set(`${written}@${link}`, { apiKey: 'mx0vold', secretKey: 'old-link-secret' });
    expect((await folderKeychain(raw, link).get(written))?.secretKey).toBe('old-link-secret');
    expect(await raw.get(`${written}@${link}`)).toBeUndefined();
    expect((await raw.get(keychainAccount(written, real)))?.secretKey).toBe('old-link-secret');
    // Removed through either path: no entry is left behind with the master secret.
    await raw.set(`${name}@${link}`, { apiKey: 'mx0vlink', secretKey: 'link-secret' });
    expect(await folderKeychain(raw, link).remove(name)).toBe(true);
    expect(await raw.get(keychainAccount(name, real))).toBeUndefined();
    expect(await raw.get(`${name}@${link}`)).toBeUndefined();
  });

  it('an entry from before (account = bare name) moves to the first folder that reads it, when no other folder has the name', async () => {
    const raw = await openKeychain();
    const name = uniqueProfile('old');
    const folder = folderFor('mig');
    accounts.push(name, keychainAccount(name, folder));
    await raw.set(name, { apiKey: 'mx0vold', secretKey: 'old-secret' });
    expect((await folderKeychain(raw, folder).get(name))?.secretKey).toBe('old-secret');
    expect(await raw.get(name)).toBeUndefined();
    expect((await raw.get(keychainAccount(name, folder)))?.secretKey).toBe('old-secret');
  });

  it('an old entry is left alone when another folder already has an entry of that name (whose it is cannot be told)', async () => {
    const raw = await openKeychain();
    const name = uniqueProfile('amb');
    const [a, b] = [folderFor('amb-a'), folderFor('amb-b')];
    accounts.push(name, keychainAccount(name, a), keychainAccount(name, b));
    await raw.set(keychainAccount(name, a), { apiKey: 'mx0va', secretKey: 'a-secret' });
    await raw.set(name, { apiKey: 'mx0vold', secretKey: 'old-secret' });
    expect(await folderKeychain(raw, b).get(name)).toBeUndefined();
    expect((await raw.get(name))?.secretKey).toBe('old-secret');
  });

  it('profile list shows entries no profile owns (a lost add, an old entry); profile remove clears them', async () => {
    const folder = folderFor('orphan');
    const env = { ...busEnv(), BROKER_CONSOLE_HOME: folder };
    const owner = uniqueProfile('own');
    const lost = uniqueProfile('lost');
    const old = uniqueProfile('oldent');
    expect((await add(folder, owner, 's')).code).toBe(0);
    const raw = await openKeychain();
    accounts.push(keychainAccount(lost, folder), old);
    await raw.set(keychainAccount(lost, folder), { apiKey: 'mx0vlost', secretKey: 'lost-secret' });
    await raw.set(old, { apiKey: 'mx0vold', secretKey: 'old-secret' });

    let listed = await runBuiltCli(['profile', 'list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('keychain entries no profile owns (remove with `broker-console profile remove NAME`):');
    expect(listed.stdout).toContain(`  ${lost}  account ${keychainAccount(lost, folder)}`);
    expect(listed.stdout).toMatch(new RegExp(`  ${old}  old entry, of no folder`));
    expect(listed.stdout).not.toContain('lost-secret');
    // The JSON document keeps its shape; the entries are said on stderr.
    const json = await runBuiltCli(['profile', 'list', '--json'], env);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((p) => p.name)).toEqual([owner]);
    expect(json.stderr).toContain(lost);
    // Run as npm's global bin runs it: through a link in a folder with no node_modules of its own.
    const link = join(folderFor('bin'), 'broker-console');
    symlinkSync(await buildCli(), link);
    const linked = await runLinked(link, ['profile', 'list'], env);
    expect(linked.stderr).toBe('');
    expect(linked.stdout).toContain(`  ${lost}  account ${keychainAccount(lost, folder)}`);
    expect(linked.stdout).toMatch(new RegExp(`  ${old}  old entry, of no folder`));

    const removeLost = await runBuiltCli(['profile', 'remove', lost], env);
    expect(removeLost.code).toBe(0);
    expect(removeLost.stdout).toBe(`removed profile ${lost} (keychain entry; it had no settings)\n`);
    const removeOld = await runBuiltCli(['profile', 'remove', old], env);
    expect(removeOld.code).toBe(0);
    expect(await raw.get(old)).toBeUndefined();
    listed = await runBuiltCli(['profile', 'list'], env);
    // Its own two entries are gone; other files' entries of no folder, in the same keychain at the same time, may show.
    expect(listed.stdout).not.toContain(lost);
    expect(listed.stdout).not.toContain(old);
  }, 60_000);
});

describe('the profile file lock', () => {
  const profile = (name: string) => ({ name, baseUrl: 'http://127.0.0.1:9', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const });

  it('a lock left by a process that is gone is taken over at once', async () => {
    const folder = folderFor('stale');
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    writeFileSync(`${profilesPath(folder)}.lock`, JSON.stringify({ pid: dead.pid, host: hostname(), at: Date.now() }));
    const started = Date.now();
    await saveProfile(folder, profile('a'));
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await loadProfiles(folder)).profiles.map((p) => p.name)).toEqual(['a']);
    expect(readdirSync(folder)).toEqual(['profiles.json']);
  });

  it('a lock not renewed for the stale age is taken over, whoever held it', async () => {
    const folder = folderFor('old');
    const lock = `${profilesPath(folder)}.lock`;
    const then = Date.now() - STALE_LOCK_MS - 1000;
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', at: then }));
    utimesSync(lock, then / 1000, then / 1000);
    await saveProfile(folder, profile('b'));
    expect((await loadProfiles(folder)).profiles.map((p) => p.name)).toEqual(['b']);
  });

  it('a lock held by a live process is waited for, then refused with the file named', async () => {
    const folder = folderFor('held');
    const lock = `${profilesPath(folder)}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), at: Date.now() }));
    const error = await withFileLock(profilesPath(folder), async () => 'ran', 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockedError);
    expect((error as Error).message).toBe(`${lock} is held by process ${process.ppid} on ${hostname()}; if no broker-console is running, remove that file`);
    rmSync(lock);
    expect(await withFileLock(profilesPath(folder), async () => 'ran', 300)).toBe('ran');
  });

  it('a holder working past the stale age keeps its lock: a second writer waits for it (stale age 2 s here)', async () => {
    const file = profilesPath(folderFor('slow'));
    const order: string[] = [];
    // A stale age well above what a loaded worker may stall for (the holder renews its lock on a timer).
    const slow = withFileLock(
      file,
      async () => {
        order.push('slow in');
        await new Promise((resolve) => setTimeout(resolve, 3000));
        order.push('slow out');
      },
      8000,
      2000,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = withFileLock(file, async () => void order.push('second'), 8000, 2000);
    await Promise.all([slow, second]);
    expect(order).toEqual(['slow in', 'slow out', 'second']);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("a holder whose lock was taken over does not remove the new holder's lock as it ends", async () => {
    const file = profilesPath(folderFor('taken'));
    const lock = `${file}.lock`;
    await withFileLock(file, async () => {
      // Another writer's lock in its place (a new file: written beside it, then renamed over it).
      writeFileSync(`${lock}.other`, JSON.stringify({ pid: process.ppid, host: hostname(), at: Date.now() }));
      renameSync(`${lock}.other`, lock);
    });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.ppid });
    rmSync(lock);
  });
});
