// keys list / keys create, run in-process against a real sandbox over 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/commands/context';
import { SECRET_WARNING, runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import type { RunningSandbox } from '../../src/sandbox/types';
import { requestCount, testContext } from './helpers';
import { fakeTty } from './hostile';
import { displayWidth } from '../../src/terminal/text';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 7, rateLimit: { max: 100_000, windowMs: 1000 } });
});
afterAll(async () => {
  await sandbox.close();
});

async function subWithKeys(): Promise<string> {
  for (const sub of sandbox.subAccounts) {
    const { ctx, out } = testContext(sandbox);
    await runKeysList({ sub, json: true }, ctx);
    if ((JSON.parse(out.text()) as unknown[]).length > 0) return sub;
  }
  throw new Error('no seeded sub-account has keys');
}

describe('keys list', () => {
  it('prints a table with note, apiKey, permissions, ips and local creation time', async () => {
    const sub = await subWithKeys();
    const { ctx, out, err } = testContext(sandbox);
    expect(await runKeysList({ sub }, ctx)).toBe(EXIT.ok);
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^note\s+apiKey\s+permissions\s+ips\s+created$/);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatch(/mx0v\w+\s+\S+\s+(\S+|none \(any address\))\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(err.text()).toBe('');
  });

  it('on a terminal the table fits its width: notes, permissions and IPs cut (…), the key and the time whole; a pipe gets every cell whole', async () => {
    // A key whose permissions alone are wider than 80 columns.
    const sub = sandbox.subAccounts[1] ?? 'x';
    const all = 'SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE,SPOT_DEAL_READ,SPOT_DEAL_WRITE,SPOT_WITHDRAW_READ,SPOT_TRANSFER_READ';
    const made = testContext(sandbox);
    expect(
      await runKeysCreate(
        { allowRisky: true, sub, permissions: all, ip: '203.0.113.7,198.51.100.20', note: 'a long note for the width test', json: true },
        made.ctx,
      ),
    ).toBe(EXIT.ok);
    const apiKey = (JSON.parse(made.out.text()) as { apiKey: string }).apiKey;
    const tty = fakeTty();
    const { ctx } = testContext(sandbox, { stdout: tty.stream, stdoutIsTTY: true });
    expect(await runKeysList({ sub }, ctx)).toBe(EXIT.ok);
    const lines = tty.text().trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    const row = lines.find((line) => line.includes(apiKey)) ?? '';
    expect(row).toContain('…');
    expect(row).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const piped = testContext(sandbox);
    expect(await runKeysList({ sub }, piped.ctx)).toBe(EXIT.ok);
    expect(piped.out.text()).toContain(all);
  });

  it('--json prints the domain records', async () => {
    const sub = await subWithKeys();
    const { ctx, out } = testContext(sandbox);
    expect(await runKeysList({ sub, json: true }, ctx)).toBe(EXIT.ok);
    const keys = JSON.parse(out.text()) as Record<string, unknown>[];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['apiKey', 'createdAt', 'ips', 'note', 'permissions']);
      expect(Array.isArray(key.permissions)).toBe(true);
      expect(typeof key.createdAt).toBe('number');
    }
  });

  it('an empty sub-account says so and succeeds', async () => {
    const results = await Promise.all(
      sandbox.subAccounts.map(async (sub) => {
        const { ctx, out } = testContext(sandbox);
        await runKeysList({ sub }, ctx);
        return out.text();
      }),
    );
    expect(results.some((text) => /^no API keys for \S+\n$/.test(text))).toBe(true);
  });

  it('a bad --sub exits 2 before any request', async () => {
    const before = requestCount(sandbox);
    const { ctx, err } = testContext(sandbox);
    expect(await runKeysList({ sub: 'a b' }, ctx)).toBe(EXIT.usage);
    expect(err.text()).toBe("error: --sub: must not contain spaces ('a b')\n");
    expect(requestCount(sandbox)).toBe(before);
  });

  it('without credentials exits 2 with a clear message', async () => {
    const { ctx, err } = testContext(undefined);
    expect(await runKeysList({ sub: 'desk01' }, ctx)).toBe(EXIT.usage);
    expect(err.text()).toMatch(
      /^error: no credentials: add a profile with `broker-console profile add NAME --base-url URL`, set BROKER_API_KEY, BROKER_API_SECRET/,
    );
  });

  it('a service error is one line, exit 1', async () => {
    sandbox.queueFaults({ kind: 'status', status: 503, code: 503, msg: 'down for\nmaintenance' });
    const { ctx, err } = testContext(sandbox);
    expect(await runKeysList({ sub: sandbox.subAccounts[0] ?? 'x' }, ctx)).toBe(EXIT.failure);
    expect(err.text()).toMatch(/^error: .*503.*\n$/);
    expect(err.text().split('\n')).toHaveLength(2);
  });
});

describe('keys create', () => {
  const sub = (): string => sandbox.subAccounts[0] ?? 'x';

  it('prints the key with its secret once, and the warning on stderr', async () => {
    const { ctx, out, err } = testContext(sandbox);
    const code = await runKeysCreate({ sub: sub(), permissions: 'SPOT_ACCOUNT_READ,read_only', ip: '10.0.0.1, 10.0.0.2', note: 'ci key' }, ctx);
    expect(code).toBe(EXIT.ok);
    const text = out.text();
    const secret = /^secretKey\s+(\S+)$/m.exec(text)?.[1];
    expect(secret).toBeDefined();
    expect(text.split(secret ?? '').length - 1).toBe(1);
    expect(text).toMatch(/^apiKey\s+\S+$/m);
    expect(text).toMatch(/^permissions\s+SPOT_ACCOUNT_READ,read_only$/m);
    expect(text).toMatch(/^ips\s+10\.0\.0\.1,10\.0\.0\.2$/m);
    expect(text).toMatch(/^note\s+ci key$/m);
    expect(err.text()).toBe(`warning: ${SECRET_WARNING}\n`);
    expect(err.text()).not.toContain(secret);
  });

  it('--json prints one object with the secret', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runKeysCreate({ allowRisky: true, sub: sub(), permissions: 'SPOT_ACCOUNT_READ', note: 'json key', json: true }, ctx)).toBe(EXIT.ok);
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const key = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(key).toMatchObject({ subAccount: sub(), note: 'json key', permissions: ['SPOT_ACCOUNT_READ'], ips: [] });
    expect(typeof key.secretKey).toBe('string');
  });

  it('outcome unknown exits 3 and says to check with keys list, at the base URL the environment credentials went to', async () => {
    sandbox.queueFaults({ kind: 'reset-after-handling' });
    const { ctx, out, err } = testContext(sandbox);
    expect(await runKeysCreate({ allowRisky: true, sub: sub(), permissions: 'SPOT_ACCOUNT_READ', note: 'lost answer' }, ctx)).toBe(EXIT.outcomeUnknown);
    expect(out.text()).toBe('');
    expect(err.text()).toContain('may have taken effect');
    expect(err.text()).toContain(`keys list --base-url ${sandbox.baseUrl} --sub ${sub()}`);
  });

  it.each([
    [{ permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 'error: --sub: required'],
    [{ sub: 'd', note: 'n' }, 'error: --permissions: at least one is required (e.g. SPOT_ACCOUNT_READ)'],
    [{ sub: 'd', permissions: 'SPOT-READ', note: 'n' }, "error: --permissions: 'SPOT-READ' is not a permission name"],
    [{ sub: 'd', permissions: 'SPOT_ACCOUNT_READ' }, 'error: --note: required'],
    [{ sub: 'd', permissions: 'SPOT_ACCOUNT_READ', note: 'n', ip: '1.1.1.1,2.2.2.2,3.3.3.3,4.4.4.4,5.5.5.5' }, 'error: --ip: at most 4 addresses (got 5)'],
    [{ sub: 'd', permissions: 'SPOT_ACCOUNT_READ', note: 'n', ip: '10.0.0.0/8' }, "error: --ip: '10.0.0.0/8' is a range (CIDR)"],
    [{ sub: 'd', permissions: 'SPOT_ACCOUNT_READ', note: 'n', ip: '1.1.1.1,1.1.1.1' }, "error: --ip: '1.1.1.1' is listed twice"],
    [{ sub: 'd', permissions: 'SPOT_ACCOUNT_READ', note: 'x'.repeat(101) }, 'error: --note: at most 100 characters (got 101)'],
  ])('%j exits 2 with nothing sent: %s', async (options, expected) => {
    const before = requestCount(sandbox);
    const { ctx, err, out } = testContext(sandbox);
    expect(await runKeysCreate(options, ctx)).toBe(EXIT.usage);
    expect(err.text().startsWith(expected)).toBe(true);
    expect(out.text()).toBe('');
    expect(requestCount(sandbox)).toBe(before);
  });

  it("read_only (the permission of the service's own sample record) is accepted by the sandbox", async () => {
    const sub = sandbox.subAccounts[3] ?? sandbox.subAccounts[0] ?? 'x';
    const { ctx, out, err } = testContext(sandbox);
    expect(await runKeysCreate({ allowRisky: true, sub, permissions: 'read_only', note: 'sample', json: true }, ctx)).toBe(EXIT.ok);
    expect((JSON.parse(out.text()) as { permissions: string[] }).permissions).toEqual(['read_only']);
    expect(err.text()).toMatch(/^warning: /);
  });

  it('two spellings of one IP are refused as a duplicate before anything is sent', async () => {
    const before = requestCount(sandbox);
    const { ctx, err } = testContext(sandbox);
    expect(await runKeysCreate({ sub: 'd', permissions: 'SPOT_ACCOUNT_READ', note: 'n', ip: '2001:DB8:0:0:0:0:0:1,2001:db8::1' }, ctx)).toBe(EXIT.usage);
    expect(err.text()).toBe("error: --ip: '2001:db8::1' is the same address as '2001:DB8:0:0:0:0:0:1' (listed twice)\n");
    const mapped = testContext(sandbox);
    expect(await runKeysCreate({ sub: 'd', permissions: 'SPOT_ACCOUNT_READ', note: 'n', ip: '192.0.2.1,::ffff:192.0.2.1' }, mapped.ctx)).toBe(EXIT.usage);
    expect(mapped.err.text()).toMatch(/is the same address as '192\.0\.2\.1'/);
    expect(requestCount(sandbox)).toBe(before);
  });

  it('lists every bad field at once', async () => {
    const { ctx, err } = testContext(sandbox);
    expect(await runKeysCreate({ ip: '1.1.1.1/8' }, ctx)).toBe(EXIT.usage);
    expect(
      err
        .text()
        .trimEnd()
        .split('\n')
        .map((l) => l.split(':')[1]?.trim()),
    ).toEqual(['--sub', '--permissions', '--ip', '--note']);
  });
});
