// A read-only run from the command line: `keys create` under --read-only or BROKER_READ_ONLY
// exits 2 naming why, and the sandbox's request log holds no create; listing still works. Also the command line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyFromEnvironment, readOnlySource } from '../../src/api/readOnly';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import type { RunningSandbox } from '../../src/sandbox/types';
import { runCli, sandboxEnv, testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let folder: string;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 31 });
  folder = mkdtempSync(join(tmpdir(), 'bc-readonly-cmd-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

const creates = () => sandbox.requests().filter((r) => r.method === 'POST');
const key = { permissions: 'SPOT_ACCOUNT_READ', note: 'read-only test' };

describe('BROKER_READ_ONLY', () => {
  it('is on for any value but empty, 0, false, no or off', () => {
    for (const on of ['1', 'true', 'yes', 'YES', 'ture', ' 1 ']) expect(readOnlyFromEnvironment({ BROKER_READ_ONLY: on }), on).toBe(true);
    for (const off of [undefined, '', ' ', '0', 'false', 'No', 'off']) expect(readOnlyFromEnvironment({ BROKER_READ_ONLY: off }), String(off)).toBe(false);
  });

  it('the flag, then the environment, then the profile say why', () => {
    expect(readOnlySource(true, { BROKER_READ_ONLY: '1' }, { name: 'p', readOnly: true })).toEqual({ kind: 'flag' });
    expect(readOnlySource(undefined, { BROKER_READ_ONLY: '1' }, { name: 'p', readOnly: true })).toEqual({ kind: 'environment' });
    expect(readOnlySource(false, {}, { name: 'p', readOnly: true })).toEqual({ kind: 'profile', profile: 'p' });
    expect(readOnlySource(false, {}, { name: 'p' })).toBeUndefined();
  });
});

/** The audit trail's file as it is on disk ('' when there is none). */
const rawTrail = (): string => (existsSync(join(folder, 'audit.jsonl')) ? readFileSync(join(folder, 'audit.jsonl'), 'utf8') : '');

describe('keys create in a read-only run', () => {
  it('--read-only: exit 2, the reason on stderr, nothing on stdout, no create request, no audit line', async () => {
    const before = sandbox.requests().length;
    const trailBefore = rawTrail();
    const t = testContext(sandbox, { configFolder: folder }, { readOnly: true });
    expect(await runKeysCreate({ sub: sandbox.subAccounts[0], ...key, json: true }, t.ctx)).toBe(EXIT.usage);
    expect(t.err.text()).toBe('error: create key was not sent: read-only run (--read-only): creating keys is disabled\n');
    expect(t.out.text()).toBe('');
    expect(sandbox.requests().slice(before)).toEqual([]);
    expect(creates()).toEqual([]);
    // Nothing was sent, so the audit trail has nothing to record: not even an attempt closed as not sent.
    expect(rawTrail()).toBe(trailBefore);
    const audit = testContext(undefined, { configFolder: folder });
    const { runAudit } = await import('../../src/commands/audit');
    expect(await runAudit({ json: true }, audit.ctx)).toBe(EXIT.ok);
    expect(audit.out.text().trim() === '' || JSON.parse(audit.out.text()).length === 0).toBe(true);
  });

  it('BROKER_READ_ONLY=1: the same, naming the variable; keys list still answers', async () => {
    const env = { ...sandboxEnv(sandbox), BROKER_READ_ONLY: '1' };
    const t = testContext(sandbox, { env, configFolder: folder });
    expect(await runKeysCreate({ sub: sandbox.subAccounts[0], ...key }, t.ctx)).toBe(EXIT.usage);
    expect(t.err.text()).toBe('error: create key was not sent: read-only run (BROKER_READ_ONLY): creating keys is disabled\n');
    const list = testContext(sandbox, { env, configFolder: folder });
    expect(await runKeysList({ sub: sandbox.subAccounts[0], json: true }, list.ctx)).toBe(EXIT.ok);
    expect(Array.isArray(JSON.parse(list.out.text()))).toBe(true);
    expect(creates()).toEqual([]);
  });

  it('BROKER_READ_ONLY=0 creates as usual (the check above can fail)', async () => {
    const t = testContext(sandbox, { env: { ...sandboxEnv(sandbox), BROKER_READ_ONLY: '0' }, configFolder: folder });
    expect(await runKeysCreate({ sub: sandbox.subAccounts[0], ...key, json: true, allowRisky: true }, t.ctx)).toBe(EXIT.ok);
    expect(creates()).toHaveLength(1);
  });

  it('the command line: --read-only before or after the command, exit 2, no create request', async () => {
    const before = creates().length;
    const env = { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: folder };
    for (const args of [
      ['--read-only', 'keys', 'create', '--sub', sandbox.subAccounts[0] ?? '', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'x'],
      ['keys', 'create', '--read-only', '--sub', sandbox.subAccounts[0] ?? '', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'x'],
    ]) {
      const r = await runCli(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe('error: create key was not sent: read-only run (--read-only): creating keys is disabled\n');
      expect(r.stdout).toBe('');
    }
    const r = await runCli(['keys', 'create', '--sub', sandbox.subAccounts[0] ?? '', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'x'], {
      ...env,
      BROKER_READ_ONLY: 'yes',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('read-only run (BROKER_READ_ONLY)');
    expect(creates().length).toBe(before);
  });
});
