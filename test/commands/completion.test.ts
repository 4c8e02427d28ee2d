// `completion bash|zsh|fish`: the bash script is run in a real bash, through `complete` and `compgen`, against
// the built binary (profile names come from it at completion time, through `__complete profiles`).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import { FLAG_KINDS } from '../../src/audit/keyAudit';
import { openDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { openRecentSubAccounts } from '../../src/config/recentSubAccounts';
import { saveProfile } from '../../src/credentials/profiles';
import { buildCli, runBuiltCli, runCli } from './helpers';

let dir: string;
let bin: string;
let script: string;
let extraEnv: Record<string, string> = {};
const env = (): Record<string, string> => ({
  PATH: `${bin}:${process.env.PATH ?? ''}`,
  BROKER_CONSOLE_HOME: join(dir, 'config'),
  HOME: dir,
  ...extraEnv,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bc-completion-'));
  bin = join(dir, 'bin');
  const bundle = await buildCli();
  execFileSync('mkdir', ['-p', bin]);
  // `broker-console` on PATH, as a global install puts it there.
  writeFileSync(join(bin, 'broker-console'), `#!/bin/sh\nexec "${process.execPath}" "${bundle}" "$@"\n`);
  chmodSync(join(bin, 'broker-console'), 0o755);
  await saveProfile(join(dir, 'config'), {
    name: 'prod',
    baseUrl: 'https://api.example.com',
    apiKeyHeader: 'X-MEXC-APIKEY',
    recvWindow: 5000,
    postSignature: 'auto',
  });
  await saveProfile(join(dir, 'config'), {
    name: 'staging-2',
    baseUrl: 'https://staging.example.com',
    apiKeyHeader: 'X-MEXC-APIKEY',
    recvWindow: 5000,
    postSignature: 'auto',
  });
  const printed = await runCli(['completion', 'bash']);
  expect(printed.code).toBe(0);
  script = join(dir, 'broker-console.bash');
  writeFileSync(script, printed.stdout);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What bash offers for the command line `words` (the last one is the word being completed). */
function complete(...words: string[]): string[] {
  const program = [
    'source "$1"; shift',
    // The function `complete` registered for broker-console is the one called, as bash does on Tab.
    'fn=$(complete -p broker-console | sed -E "s/.*-F ([^ ]+).*/\\1/")',
    'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}',
    '"$fn" broker-console "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', script, 'broker-console', ...words], { env: env(), encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('bash completion', () => {
  it("completes --sub from the target's recent names, then its discovered ones (files only, the binary asked)", async () => {
    const config = join(dir, 'config');
    const recent = await openRecentSubAccounts(config, 'https://staging.example.com');
    await recent.remember('mmbot5143');
    await recent.remember('gridbot2901');
    const discovered = await openDiscoveredSubAccounts(config, 'https://staging.example.com');
    await discovered.note([
      { name: 'gridbot2901', lastTransferTime: 2 },
      { name: 'arbdesk0007', lastTransferTime: 1 },
    ]);
    // Another target's names are not offered.
    await (await openRecentSubAccounts(config, 'https://api.example.com')).remember('prodonly01');
    try {
      extraEnv = { BROKER_BASE_URL: 'https://staging.example.com/' };
      expect(complete('keys', 'list', '--sub', '')).toEqual(['gridbot2901', 'mmbot5143', 'arbdesk0007']);
      expect(complete('transfers', '--from-account', 'x', '--sub', 'mm')).toEqual(['mmbot5143']);
      extraEnv = { BROKER_PROFILE: 'prod' };
      expect(complete('keys', 'create', '--sub', '')).toEqual(['prodonly01']);
    } finally {
      extraEnv = {};
    }
    const direct = await runCli(['__complete', 'sub-accounts'], { BROKER_CONSOLE_HOME: config, BROKER_BASE_URL: 'https://staging.example.com' });
    expect(direct).toEqual({ code: 0, stdout: 'gridbot2901\nmmbot5143\narbdesk0007\n', stderr: '' });
    // No target known: nothing, quietly.
    expect(await runCli(['__complete', 'sub-accounts'], { BROKER_CONSOLE_HOME: join(dir, 'none') })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('is registered for broker-console with `complete -F`', () => {
    const r = spawnSync('bash', ['--norc', '-c', 'source "$1"; complete -p broker-console', 'bash', script], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('complete -F _broker_console broker-console');
  });

  it('completes commands and subcommands (never the hidden __complete)', () => {
    expect(complete('tra')).toEqual(['transfers']);
    expect(complete('')).toEqual(['keys', 'transfers', 'sandbox', 'profile', 'audit', 'sub-accounts', 'completion']);
    expect(complete('keys', '')).toEqual(['list', 'create', 'audit', 'help']);
    expect(complete('profile', 'r')).toEqual(['remove']);
    expect(complete('--profile', 'prod', 'keys', 'c')).toEqual(['create']);
    expect(complete('_')).toEqual([]);
  });

  it('completes the flags of the command named so far, global ones included', () => {
    expect(complete('keys', 'list', '--f')).toEqual(['--format']);
    expect(complete('keys', 'list', '--')).toEqual(expect.arrayContaining(['--sub', '--format', '--json', '--profile', '--base-url', '--timeout']));
    expect(complete('transfers', '--from-')).toEqual(['--from-type', '--from-account']);
    expect(complete('sub-accounts', '--di')).toEqual(['--discover']);
    expect(complete('sub-accounts', '--da')).toEqual(['--days']);
    expect(complete('sub-accounts', '--discover', '--days', '7', '--f')).toEqual(['--format']);
    expect(complete('profile', 'add', 'x', '--no-')).toEqual(['--no-check']);
    // --demo runs these commands too; the others refuse it, so it is not offered there.
    expect(complete('keys', 'list', '--dem')).toEqual(['--demo', '--demo-clock']);
    expect(complete('transfers', '--dem')).toEqual(['--demo', '--demo-clock']);
    expect(complete('profile', 'list', '--dem')).toEqual(['--demo-clock']);
    // A flag's value that looks like a flag is stepped over: the word after it is a flag again.
    expect(complete('keys', 'create', '--note', '--format', '--f')).toEqual(['--format']);
  });

  it('completes enumerated values: formats, account types, permissions (a comma list)', () => {
    expect(complete('keys', 'list', '--format', '')).toEqual(['table', 'json', 'csv']);
    expect(complete('profile', 'list', '--format', 'c')).toEqual(['csv']);
    // --format=j: bash splits the word at "=".
    expect(complete('transfers', '--format', '=', 'j')).toEqual(['json']);
    expect(complete('transfers', '--format', '=')).toEqual(['table', 'json', 'csv']);
    expect(complete('transfers', '--from-type', '')).toEqual(['SPOT', 'FUTURES']);
    expect(complete('transfers', '--to-type', 'F')).toEqual(['FUTURES']);
    expect(complete('keys', 'create', '--permissions', '')).toEqual([...KNOWN_PERMISSIONS]);
    expect(complete('keys', 'create', '--permissions', 'SPOT_ACCOUNT_READ,SPOT_DEAL_')).toEqual([
      'SPOT_ACCOUNT_READ,SPOT_DEAL_READ',
      'SPOT_ACCOUNT_READ,SPOT_DEAL_WRITE',
    ]);
    // One already given is not offered again.
    expect(complete('keys', 'create', '--permissions', 'SPOT_ACCOUNT_READ,SPOT_ACCOUNT_')).toEqual(['SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('profile', 'add', 'x', '--color', '')).toEqual(['red', 'yellow', 'green', 'blue', 'magenta', 'cyan']);
    // any and none are a whole value each (the parser refuses them in a list): offered first, or not at all.
    expect(complete('keys', 'audit', '--fail-on', '')).toEqual(['any', 'none', ...FLAG_KINDS]);
    expect(complete('keys', 'audit', '--fail-on', 'withdraw,no')).toEqual(['withdraw,no-ip']);
    expect(complete('keys', 'audit', '--fail-on', 'any,')).toEqual([]);
    // A flag of one name with other values on another command: each command's own.
    expect(complete('profile', 'add', 'x', '--post-signature', '')).toEqual(['auto', 'query', 'body']);
    expect(complete('sandbox', '--post-signature', '')).toEqual(['query', 'body', 'either']);
  });

  it('completes profile names from profiles.json (the binary asked at completion time, no keychain)', () => {
    expect(complete('--profile', '')).toEqual(['prod', 'staging-2']);
    expect(complete('keys', 'list', '--profile', 's')).toEqual(['staging-2']);
    expect(complete('profile', 'use', '')).toEqual(['prod', 'staging-2']);
    expect(complete('profile', 'remove', 'p')).toEqual(['prod']);
    // A flag with a free value offers nothing (not file names, not commands).
    expect(complete('keys', 'create', '--note', '')).toEqual([]);
  });
});

describe('the completion command', () => {
  it('__complete profiles reads profiles.json only: no D-Bus session needed, names one a line', async () => {
    // The bundle: only a process without this one's DBUS_SESSION_BUS_ADDRESS shows no D-Bus is needed.
    const r = await runBuiltCli(['__complete', 'profiles'], { BROKER_CONSOLE_HOME: join(dir, 'config') });
    expect(r).toEqual({ code: 0, stdout: 'prod\nstaging-2\n', stderr: '' });
    const none = await runBuiltCli(['__complete', 'profiles'], { BROKER_CONSOLE_HOME: join(dir, 'no-such-folder') });
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('an unknown shell is a usage error; --help does not list __complete', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: completion: the shell must be bash, zsh or fish (got 'tcsh')\n");
    const help = await runCli(['--help']);
    expect(help.stdout).toContain('completion');
    expect(help.stdout).not.toContain('__complete');
    const typo = await runCli(['complet']);
    expect(typo.stderr).toBe("error: unknown command 'complet'\n(Did you mean completion?)\n");
  });

  const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
  it.skipIf(!has('zsh'))('zsh: the script parses (zsh -n)', async () => {
    const r = await runCli(['completion', 'zsh']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('#compdef broker-console\n')).toBe(true);
    const check = spawnSync('zsh', ['-n'], { input: r.stdout, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
  it.skipIf(!has('fish'))('fish: the script parses (fish -n) and completes through `complete -C`', async () => {
    const r = await runCli(['completion', 'fish']);
    expect(r.code).toBe(0);
    writeFileSync(join(dir, 'broker-console.fish'), r.stdout);
    const check = spawnSync('fish', ['-n', join(dir, 'broker-console.fish')], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    const asked = (line: string): string[] => {
      const out = spawnSync('fish', ['--no-config', '-c', `source ${join(dir, 'broker-console.fish')}; complete -C '${line}'`], {
        env: env(),
        encoding: 'utf8',
      });
      expect(out.stderr).toBe('');
      return out.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[0] ?? '');
    };
    expect(asked('broker-console tra')).toEqual(['transfers']);
    expect(asked('broker-console transfers --from-type ')).toEqual(['FUTURES', 'SPOT']);
    expect(asked('broker-console profile use ')).toEqual(['prod', 'staging-2']);
    expect(asked('broker-console profile add x --color b')).toEqual(['blue']);
    expect(asked('broker-console keys audit --dem')).toEqual(['--demo', '--demo-clock']);
    expect(asked('broker-console keys audit --fail-on n')).toEqual(['none', 'no-ip']);
    expect(asked('broker-console keys audit --fail-on=old,n')).toEqual(['--fail-on=old,no-ip']);
    expect(asked('broker-console keys audit --fail-on none,')).toEqual([]);
    expect(asked('broker-console sandbox --post-signature ')).toEqual(['body', 'either', 'query']);
  });
});
