// The built bin with Node's compile cache: what a command prints and its exit code are the same with no cache, a
// fresh one, a corrupt one, one it cannot write, and none at all; --version is answered without loading the
// program; a request is made by the bundle's undici; on a Node older than `engines` it says so and does nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, version } from '../../package.json';
import { type RunResult, buildCli, runBuiltCli, sandboxEnv } from '../commands/helpers';
import { ownSandbox } from '../sandbox/helpers';

let dir: string;
beforeAll(async () => {
  await buildCli();
  dir = mkdtempSync(join(tmpdir(), 'bc-bin-cache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The files under a compile-cache folder (Node keeps them in a folder per Node version). */
const cached = (folder: string): string[] => {
  try {
    return (
      readdirSync(folder, { recursive: true, withFileTypes: true })
        // Node's entries, not the console's marker of its own folders.
        .filter((entry) => entry.isFile() && entry.name !== '.broker-console-cache')
        .map((entry) => entry.name)
    );
  } catch {
    return [];
  }
};

describe('the bin and its compile cache', () => {
  it('answers --version itself, exactly as commander did, and writes no cache', async () => {
    const cache = join(dir, 'version');
    const result = await runBuiltCli(['--version'], { BROKER_CONSOLE_CACHE: cache });
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(() => readdirSync(cache)).toThrow();
  });

  it('gives the same output with no cache, a fresh cache, a corrupt one, an unwritable folder, and the cache off', async () => {
    const cache = join(dir, 'cache');
    const args = ['keys', 'list', '--sub', 'nobody'];
    // No credentials: a usage error from deep in the program (commander, the command, the error path).
    const cold = await runBuiltCli(args, { BROKER_CONSOLE_CACHE: cache });
    expect(cold.code).toBe(2);
    expect(cold.stderr).toMatch(/^error: no credentials/);
    const files = cached(cache);
    expect(files.length).toBeGreaterThan(0);

    // A warm start reads the cache.
    expect(await runBuiltCli(args, { BROKER_CONSOLE_CACHE: cache })).toEqual(cold);

    // A corrupt cache is not run: the program compiles.
    for (const entry of readdirSync(cache, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const data = readFileSync(file);
      data[data.length >> 1]! ^= 0x04;
      writeFileSync(file, data);
    }
    expect(await runBuiltCli(args, { BROKER_CONSOLE_CACHE: cache })).toEqual(cold);
    expect(await runBuiltCli(args, { BROKER_CONSOLE_CACHE: cache })).toEqual(cold);

    // A cache folder that cannot be made (a file is in the way).
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'not a folder');
    expect(await runBuiltCli(args, { BROKER_CONSOLE_CACHE: join(blocked, 'cache') })).toEqual(cold);

    // Off: nothing read or written (BROKER_CONSOLE_HOME would otherwise hold it).
    const home = join(dir, 'home');
    expect(await runBuiltCli(args, { BROKER_CONSOLE_CACHE: 'off', BROKER_CONSOLE_HOME: home })).toEqual(cold);
    expect(() => readdirSync(join(home, 'cache'))).toThrow();
  });

  it('keeps the cache in BROKER_CONSOLE_HOME when that is set', async () => {
    const home = join(dir, 'home-cache');
    const own = { ownCache: true };
    const help = await runBuiltCli(['--help'], { BROKER_CONSOLE_HOME: home }, own);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: broker-console');
    expect(cached(join(home, 'cache', version)).length).toBeGreaterThan(0);
    expect(await runBuiltCli(['--help'], { BROKER_CONSOLE_HOME: home }, own)).toEqual(help);
  });

  it("a version's first start removes the folders other versions left (marked), only in a cache it owns", async () => {
    const home = join(dir, 'home-upgraded');
    const operators = join(dir, 'operators-cache');
    // An earlier version's folder (with the console's marker), and folders the console did not make: the
    // operator's own (the root may be any folder) and Node's as an older layout left it, neither marked.
    const left = ['0.0.9/.broker-console-cache', '0.0.9/v24.0.0-x64-00000000-0/a1', 'notes/todo.txt', 'v24.0.0-x64-00000000-0/b2'];
    for (const root of [join(home, 'cache'), operators]) {
      for (const file of left) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), 'compiled');
      }
    }
    const own = { ownCache: true };
    const help = await runBuiltCli(['--help'], { BROKER_CONSOLE_HOME: home }, own);
    expect(help.code).toBe(0);
    expect(readdirSync(join(home, 'cache')).sort()).toEqual([version, 'notes', 'v24.0.0-x64-00000000-0'].sort());
    expect(readFileSync(join(home, 'cache', 'notes', 'todo.txt'), 'utf8')).toBe('compiled');
    expect(cached(join(home, 'cache', version)).length).toBeGreaterThan(0);
    // A later start of the same version keeps its own entries.
    const entries = cached(join(home, 'cache', version));
    expect(await runBuiltCli(['--help'], { BROKER_CONSOLE_HOME: home }, own)).toEqual(help);
    expect(cached(join(home, 'cache', version))).toEqual(entries);

    // BROKER_CONSOLE_CACHE is the operator's folder: the console adds its own and removes nothing.
    expect(await runBuiltCli(['--help'], { BROKER_CONSOLE_CACHE: operators })).toEqual(help);
    expect(readdirSync(operators).sort()).toEqual(['0.0.9', 'notes', version, 'v24.0.0-x64-00000000-0'].sort());
    expect(cached(join(operators, version)).length).toBeGreaterThan(0);
  });
});

/** Runs the built bin with the preload that records what the process loaded. */
async function runRecorded(args: readonly string[], env: Record<string, string>): Promise<{ result: RunResult; builtins: string[]; modules: string[] }> {
  const record = join(dir, 'loaded.json');
  const preload = fileURLToPath(new URL('./loadedModules.cjs', import.meta.url));
  const result = await runBuiltCli(args, { ...env, NODE_OPTIONS: `--require ${preload}`, BC_LOADED_MODULES: record });
  const { builtins, modules } = JSON.parse(readFileSync(record, 'utf8')) as { builtins: string[]; modules: string[] };
  return { result, builtins, modules };
}

/** Whether one of these modules is string-width's (its emoji pattern is in no other bundled file a command loads). */
const loadsStringWidth = (modules: readonly string[]): boolean =>
  modules.some((url) => url.startsWith('file:') && readFileSync(fileURLToPath(url), 'utf8').includes('\\p{RGI_Emoji}'));

describe('what a command loads', () => {
  it('a request goes through undici on net and http, from the bundle', async () => {
    const sandbox = await ownSandbox({ seed: 5 });
    try {
      const sub = sandbox.subAccounts[0]!;
      const { result, builtins } = await runRecorded(['keys', 'list', '--sub', sub, '--json'], sandboxEnv(sandbox));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(expect.any(Array));
      // The preload saw the request made: the HTTP client's built-ins are there.
      expect(builtins).toEqual(expect.arrayContaining(['net', 'http', 'crypto']));
    } finally {
      await sandbox.close();
    }
  });

  it('string-width only for a table that holds more than printable ASCII, and then every row aligned by it', async () => {
    const sandbox = await ownSandbox({ seed: 5 });
    try {
      const env = sandboxEnv(sandbox);
      const sub = sandbox.subAccounts[0]!;
      const help = await runRecorded(['--help'], env);
      expect(help.result.code).toBe(0);
      expect(loadsStringWidth(help.modules)).toBe(false);
      const ascii = await runRecorded(['keys', 'list', '--sub', sub], env);
      expect(ascii.result.code).toBe(0);
      expect(ascii.result.stdout).toMatch(/^note +apiKey/);
      expect(loadsStringWidth(ascii.modules)).toBe(false);

      const note = '交易机器人 😀';
      const created = await runBuiltCli(
        ['keys', 'create', '--sub', sub, '--permissions', 'SPOT_ACCOUNT_READ', '--ip', '192.0.2.1', '--note', note, '--json'],
        env,
      );
      expect(created.code).toBe(0);
      const wide = await runRecorded(['keys', 'list', '--sub', sub], env);
      expect(wide.result.code).toBe(0);
      expect(loadsStringWidth(wide.modules)).toBe(true);
      // The note takes 13 cells (CJK and the emoji two each) in 8 UTF-16 units: its apiKey starts at the header's cell.
      const lines = wide.result.stdout.trimEnd().split('\n');
      const row = lines.find((line) => line.startsWith(note))!;
      const column = lines[0]!.indexOf('apiKey');
      const cells = 13;
      expect(row.slice(0, column - (cells - note.length))).toBe(`${note}${' '.repeat(column - cells)}`);
      expect(row.slice(column - (cells - note.length))).toMatch(/^mx0v/);
    } finally {
      await sandbox.close();
    }
  });
});

/** A Node older than package.json's `engines` on this machine (the system's, outside node_modules), if there is one. */
function olderNode(): { ok: true; path: string; version: string } | { ok: false; reason: string } {
  const [needMajor = 0, needMinor = 0] = engines.node.replace('>=', '').split('.').map(Number);
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'].filter((f) => f !== '' && !f.includes('node_modules'));
  for (const folder of new Set(folders)) {
    const path = join(folder, 'node');
    if (!existsSync(path)) continue;
    const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout?.trim().replace(/^v/, '') ?? '';
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (version !== '' && (major < needMajor || (major === needMajor && minor < needMinor))) return { ok: true, path, version };
  }
  return { ok: false, reason: `no Node older than ${engines.node} outside node_modules on this machine` };
}

const older = olderNode();
if (!older.ok) console.warn(`SKIPPED the older-Node test: ${older.reason}`);

describe('on a Node older than engines', () => {
  it.skipIf(!older.ok)('says which Node it needs and exits 2 before it loads or sends anything; --version still answers', async () => {
    if (!older.ok) return;
    const bin = await buildCli();
    const sandbox = await ownSandbox({ seed: 5 });
    try {
      const run = (args: string[]) =>
        spawnSync(older.path, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...sandboxEnv(sandbox) } });
      for (const args of [['keys', 'list', '--sub', sandbox.subAccounts[0]!], ['--demo'], ['--help']]) {
        const ran = run(args);
        expect(ran.stderr).toBe(
          `error: broker-console needs Node ${engines.node.replace('>=', '')} or later, and this is Node ${older.version}: install a current Node LTS (22 or 24)\n`,
        );
        expect(ran.stdout).toBe('');
        expect(ran.status).toBe(2);
      }
      expect(sandbox.requests()).toHaveLength(0);
      expect(run(['--version'])).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
    } finally {
      await sandbox.close();
    }
  });
});
