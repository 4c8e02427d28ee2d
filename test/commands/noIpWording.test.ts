// One wording for a key with no linked IP in the commands' human output, the console's own: `none (any
// address)` in keys list, keys create and audit tables; JSON keeps an empty list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/commands/audit';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { NO_IP } from '../../src/format/noIp';
import type { RunningSandbox } from '../../src/sandbox/types';
import { testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let folder: string;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 9 });
  folder = mkdtempSync(join(tmpdir(), 'bc-no-ip-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('no IP reads the same everywhere', () => {
  it('keys create (table), keys list and audit say none (any address); JSON keeps []', async () => {
    expect(NO_IP).toBe('none (any address)');
    const sub = sandbox.subAccounts[0]!;
    const made = testContext(sandbox, { configFolder: folder });
    expect(await runKeysCreate({ sub, permissions: 'SPOT_ACCOUNT_READ', note: 'anywhere', allowRisky: true }, made.ctx)).toBe(EXIT.ok);
    expect(made.out.text()).toMatch(/^ips {10}none \(any address\)$/m);

    const listed = testContext(sandbox);
    expect(await runKeysList({ sub }, listed.ctx)).toBe(EXIT.ok);
    const line = listed.out
      .text()
      .split('\n')
      .find((l) => l.startsWith('anywhere'));
    expect(line).toContain('none (any address)');
    const json = testContext(sandbox);
    expect(await runKeysList({ sub, json: true }, json.ctx)).toBe(EXIT.ok);
    expect((JSON.parse(json.out.text()) as { note: string; ips: string[] }[]).find((k) => k.note === 'anywhere')?.ips).toEqual([]);

    const audited = testContext(sandbox, { configFolder: folder });
    expect(await runAudit({}, audited.ctx)).toBe(EXIT.ok);
    const entry = audited.out
      .text()
      .split('\n')
      .find((l) => l.includes('anywhere'));
    expect(entry).toContain('none (any address)');
  });
});
