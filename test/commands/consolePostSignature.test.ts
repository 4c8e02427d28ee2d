// The console's live targets start a create with the POST signature rule their base URL last accepted and keep
// a newly learned one, as the commands do; a pinned profile rule is neither loaded nor written.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { POST_SIGNATURES_FILE } from '../../src/config/postSignatures';
import type { RunningSandbox } from '../../src/sandbox/types';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox | undefined;
let folder: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const postStatuses = (sb: RunningSandbox, from: number): number[] =>
  sb
    .requests()
    .slice(from)
    .filter((r) => r.method === 'POST')
    .map((r) => r.status);

describe('console targets and the POST signature rule', () => {
  it('a body-only service: the first console falls back once and keeps body; the next console sends body first', async () => {
    sandbox = await ownSandbox({ seed: 2, postSignature: 'body' });
    folder = await mkdtemp(join(tmpdir(), 'bc-console-post-'));
    const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' as const };
    const key = { subAccount: sandbox.subAccounts[0]!, permissions: ['SPOT_ACCOUNT_READ'], note: 'console' };

    const first = createConsoleTargets({ folder, exportFolder: folder });
    await first.openResolved(target);
    let from = sandbox.requests().length;
    await first.current()!.api.createSubAccountKey(key);
    await first.current()!.api.createSubAccountKey({ ...key, note: 'console again' });
    // The session falls back once: its second create is signed by the rule that worked.
    expect(postStatuses(sandbox, from)).toEqual([400, 200, 200]);
    await first.close();
    const saved = JSON.parse(await readFile(join(folder, POST_SIGNATURES_FILE), 'utf8')) as Record<string, { rule: string }>;
    expect(saved[sandbox.baseUrl]?.rule).toBe('body');

    const second = createConsoleTargets({ folder, exportFolder: folder });
    await second.openResolved(target);
    from = sandbox.requests().length;
    await second.current()!.api.createSubAccountKey({ ...key, note: 'console 2' });
    expect(postStatuses(sandbox, from)).toEqual([200]);
    await second.close();
  });

  it('a pinned rule from the resolved target is sent alone and leaves no file', async () => {
    sandbox = await ownSandbox({ seed: 2, postSignature: 'body' });
    folder = await mkdtemp(join(tmpdir(), 'bc-console-post-'));
    const targets = createConsoleTargets({ folder, exportFolder: folder });
    await targets.openResolved({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      secretKey: sandbox.secretKey,
      source: 'environment',
      postSignature: 'query',
    });
    const from = sandbox.requests().length;
    await expect(
      targets.current()!.api.createSubAccountKey({ subAccount: sandbox.subAccounts[0]!, permissions: ['SPOT_ACCOUNT_READ'], note: 'pinned' }),
    ).rejects.toMatchObject({ code: 700002 });
    expect(postStatuses(sandbox, from)).toEqual([400]);
    await targets.close();
    await expect(readFile(join(folder, POST_SIGNATURES_FILE), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
