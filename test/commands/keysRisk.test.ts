// `keys create` names what the key audit would flag before anything is sent, and against a LIVE target (every
// command's target, as the console's header calls a non-demo one) a key that can withdraw or transfer funds, or
// that has no IP, is made only with --allow-risky: without it exit 2 naming the flag, nothing sent, nothing
// audited. Read-only runs keep their own refusal. Against a real sandbox.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/commands/context';
import { creationRisks } from '../../src/audit/creationRisks';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { AUDIT_FILE } from '../../src/config/auditTrail';
import type { RunningSandbox } from '../../src/sandbox/types';
import { requestCount, runCli, sandboxEnv, testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let home: string;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 23, rateLimit: { max: 100_000, windowMs: 1000 } });
  home = mkdtempSync(join(tmpdir(), 'bc-risk-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
});

const sub = () => sandbox.subAccounts[0] ?? 'x';
const creates = () => sandbox.requests().filter((r) => r.method === 'POST').length;

describe("the risks of a key, in the audit's words", () => {
  it('write, withdraw, transfer and no IP; a read-only key with an IP has none', () => {
    expect(creationRisks(['SPOT_ACCOUNT_READ'], ['203.0.113.7'])).toEqual([]);
    expect(creationRisks(['SPOT_ACCOUNT_WRITE', 'SPOT_WITHDRAW_WRITE', 'SPOT_TRANSFER_WRITE'], []).map((r) => r.kind)).toEqual([
      'no-ip',
      'write',
      'withdraw',
      'transfer',
    ]);
  });
});

describe('keys create against a LIVE target', () => {
  it.each([
    ['no IP', { permissions: 'SPOT_ACCOUNT_READ' }, /this key has no linked IP: any address can use it, and the service ends such a key after 90 days:/],
    ['withdraw', { permissions: 'SPOT_WITHDRAW_WRITE', ip: '203.0.113.7' }, /can withdraw funds: SPOT_WITHDRAW_WRITE/],
    ['transfer', { permissions: 'SPOT_TRANSFER_WRITE', ip: '203.0.113.7' }, /can transfer between accounts: SPOT_TRANSFER_WRITE/],
  ])('%s without --allow-risky: exit 2 naming the risk and the flag, nothing sent, nothing audited', async (_, key, risk) => {
    const folder = join(home, `refused-${_.replace(/\W/g, '')}`);
    const before = requestCount(sandbox);
    const t = testContext(sandbox, { configFolder: folder });
    expect(await runKeysCreate({ sub: sub(), note: 'risky', ...key }, t.ctx)).toBe(EXIT.usage);
    expect(t.err.text()).toMatch(risk);
    expect(t.err.text()).toMatch(/^error: this key (has no linked IP:|can) .*: against a LIVE target add --allow-risky to make it — nothing was sent\n$/);
    expect(t.out.text()).toBe('');
    expect(requestCount(sandbox)).toBe(before);
    expect(existsSync(join(folder, AUDIT_FILE))).toBe(false);
  });

  it('with --allow-risky, on a terminal: every risk named on stderr before the create, then the key is made', async () => {
    const before = creates();
    const t = testContext(sandbox, { configFolder: join(home, 'allowed'), stderrIsTTY: true });
    expect(
      await runKeysCreate({ sub: sub(), permissions: 'SPOT_ACCOUNT_WRITE,SPOT_WITHDRAW_WRITE', note: 'allowed', json: true, allowRisky: true }, t.ctx),
    ).toBe(EXIT.ok);
    expect(creates()).toBe(before + 1);
    const lines = t.err.text().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'risk: no-ip: no linked IP: any address can use it, and the service ends such a key after 90 days',
      'risk: write: can change the account or trade: SPOT_ACCOUNT_WRITE',
      'risk: withdraw: can withdraw funds: SPOT_WITHDRAW_WRITE',
    ]);
    expect(t.err.text()).toMatch(/warning: the secret key is shown only this once/);
  });

  it('write alone with an IP needs no flag: named on a terminal, not to a pipe', async () => {
    const tty = testContext(sandbox, { configFolder: join(home, 'write'), stderrIsTTY: true });
    expect(await runKeysCreate({ sub: sub(), permissions: 'SPOT_DEAL_WRITE', ip: '203.0.113.8', note: 'trader', json: true }, tty.ctx)).toBe(EXIT.ok);
    expect(tty.err.text()).toMatch(/^risk: write: can change the account or trade: SPOT_DEAL_WRITE\n/);
    const pipe = testContext(sandbox, { configFolder: join(home, 'write') });
    expect(await runKeysCreate({ sub: sub(), permissions: 'SPOT_DEAL_WRITE', ip: '203.0.113.8', note: 'trader 2', json: true }, pipe.ctx)).toBe(EXIT.ok);
    expect(pipe.err.text()).not.toContain('risk:');
  });

  it('a read-only key with an IP: nothing said, made as before', async () => {
    const t = testContext(sandbox, { configFolder: join(home, 'plain'), stderrIsTTY: true });
    expect(await runKeysCreate({ sub: sub(), permissions: 'SPOT_ACCOUNT_READ', ip: '203.0.113.9', note: 'reader', json: true }, t.ctx)).toBe(EXIT.ok);
    expect(t.err.text()).not.toContain('risk:');
  });

  it('a read-only run keeps its own refusal for a risky key', async () => {
    const t = testContext(sandbox, { configFolder: join(home, 'ro') }, { readOnly: true });
    expect(await runKeysCreate({ sub: sub(), permissions: 'SPOT_WITHDRAW_WRITE', note: 'ro' }, t.ctx)).toBe(EXIT.usage);
    expect(t.err.text()).toBe('error: create key was not sent: read-only run (--read-only): creating keys is disabled\n');
  });

  it('the command line: --allow-risky is the flag; without it exit 2, nothing sent', async () => {
    const env = { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: join(home, 'cli') };
    const args = ['keys', 'create', '--sub', sub(), '--permissions', 'SPOT_TRANSFER_WRITE', '--note', 'cli', '--json'];
    const before = creates();
    const refused = await runCli(args, env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--allow-risky');
    expect(creates()).toBe(before);
    const made = await runCli([...args, '--allow-risky'], env);
    expect(made.code, made.stderr).toBe(0);
    expect(creates()).toBe(before + 1);
    const help = await runCli(['keys', 'create', '--help']);
    expect(help.stdout).toMatch(/--allow-risky/);
  });
});
