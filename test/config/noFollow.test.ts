// A symbolic link planted at --log-file or at audit.jsonl is not followed: nothing is written to its target
// and the target's mode is not changed; the command says so and sends nothing.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NewKeyRequest } from '../../src/api/types';
import { AUDIT_FILE, appendAudit, auditEntry } from '../../src/config/auditTrail';
import { openExchangeLog } from '../../src/config/logFile';
import type { RunningSandbox } from '../../src/sandbox/types';
import { runCli, sandboxEnv } from '../commands/helpers';
import { ownSandbox } from '../sandbox/helpers';

let dir: string;
let target: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bc-nofollow-'));
  // What a link would point at: a file of the user's, readable by others, that must stay as it is.
  target = join(dir, 'precious.txt');
  writeFileSync(target, 'keep me\n');
  chmodSync(target, 0o644);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const untouched = (): void => {
  expect(readFileSync(target, 'utf8')).toBe('keep me\n');
  expect(statSync(target).mode & 0o777).toBe(0o644);
};

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 3 });
});
afterAll(() => sandbox.close());

describe('files opened without following a symbolic link', () => {
  it('--log-file at a link: exit 2, the error names the file, nothing sent, the target untouched', async () => {
    const link = join(dir, 'exchanges.log');
    symlinkSync(target, link);
    const before = sandbox.requests().length;
    const r = await runCli(['keys', 'list', '--sub', sandbox.subAccounts[0]!, '--log-file', link], {
      ...sandboxEnv(sandbox),
      BROKER_CONSOLE_HOME: join(dir, 'config'),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --log-file: cannot open ${link} (ELOOP)\n`);
    expect(sandbox.requests().length).toBe(before);
    untouched();
    await expect(openExchangeLog(link)).rejects.toMatchObject({ code: 'ELOOP' });
    untouched();
  });

  it('audit.jsonl at a link: the line is refused (ELOOP), the target untouched', async () => {
    const folder = join(dir, 'config');
    mkdirSync(folder);
    symlinkSync(target, join(folder, AUDIT_FILE));
    const request: NewKeyRequest = { subAccount: 'desk0001', permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'n' };
    const entry = auditEntry(
      { profile: 'p', host: '127.0.0.1' },
      request,
      { created: { subAccount: 'desk0001', apiKey: 'mx0vnewkey0001', secretKey: 's', permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'n', createdAt: 1 } },
      new Date(),
    )!;
    await expect(appendAudit(folder, entry)).rejects.toMatchObject({ code: 'ELOOP' });
    untouched();
  });
});
