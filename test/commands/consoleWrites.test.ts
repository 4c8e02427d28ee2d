// The console writes recent and discovered names and audit lines without waiting for them; closing waits,
// so quitting at once neither loses what was being written nor leaves an atomic write's temporary file.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { readAuditTrail } from '../../src/config/auditTrail';
import type { RunningSandbox } from '../../src/sandbox/types';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox | undefined;
let folder: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('console targets: closing waits for the writes under way', () => {
  it('recent and discovered names and an audit line started just before close are all on disk, no temporary file left', async () => {
    sandbox = await ownSandbox({ seed: 1 });
    folder = await mkdtemp(join(tmpdir(), 'bc-writes-'));
    const targets = createConsoleTargets({ folder, exportFolder: folder });
    await targets.openResolved({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' });
    const target = targets.current()!;
    const names = sandbox.subAccounts.slice(0, 5);
    // As the screens do: started, not awaited, then the operator quits.
    for (const name of names) void target.recent.remember(name);
    void target.discovered.note([{ name: 'found1', lastTransferTime: 1_700_000_000_000 }], 1_700_000_000_000);
    void target.audit!(
      { subAccount: names[0]!, permissions: ['SPOT_ACCOUNT_READ'], note: 'at quit' },
      {
        created: {
          subAccount: names[0]!,
          note: 'at quit',
          apiKey: 'mx0vglabcdefa1b2',
          secretKey: 'S3CRET',
          permissions: ['SPOT_ACCOUNT_READ'],
          ips: [],
          createdAt: 1,
        },
      },
    );
    await targets.close();

    const files = await readdir(folder);
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
    const recent = JSON.parse(await readFile(join(folder, 'recent-sub-accounts.json'), 'utf8')) as Record<string, string[]>;
    expect(recent[sandbox.baseUrl]).toEqual([...names].reverse());
    expect(
      await readFile(
        join(
          folder,
          files.find((f) => f.startsWith('discovered'))!,
        ),
        'utf8',
      ),
    ).toContain('found1');
    expect((await readAuditTrail(folder)).entries.map((e) => e.note)).toEqual(['at quit']);
  });
});
