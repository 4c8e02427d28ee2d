// The console's live targets start from the clock offset last measured against their base URL and leave
// the one they ended with, as the commands do.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { CLOCK_OFFSETS_FILE } from '../../src/config/clockOffsets';
import type { RunningSandbox } from '../../src/sandbox/types';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox | undefined;
let folder: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('console targets and the clock offset', () => {
  it('a skewed service: the first console meets 700003 once and resends; the file keeps the offset; the next console sends once', async () => {
    // The service's clock 30 s behind ours: every timestamp we send is "from the future" to it.
    sandbox = await ownSandbox({ seed: 1, clockOffsetMs: -30_000 });
    folder = await mkdtemp(join(tmpdir(), 'bc-clock-'));
    const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' as const };
    const name = sandbox.subAccounts[0]!;

    const first = createConsoleTargets({ folder, exportFolder: folder });
    await first.openResolved(target);
    const from = sandbox.requests().length;
    await first.current()!.api.createSubAccountKey({ subAccount: name, permissions: ['SPOT_ACCOUNT_READ'], note: 'clock 1' });
    const posts = sandbox
      .requests()
      .slice(from)
      .filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([400, 200]);
    await first.close();
    const saved = JSON.parse(await readFile(join(folder, CLOCK_OFFSETS_FILE), 'utf8')) as Record<string, { offsetMs: number }>;
    expect(Math.abs(saved[sandbox.baseUrl]!.offsetMs + 30_000)).toBeLessThan(2_000);

    const second = createConsoleTargets({ folder, exportFolder: folder });
    await second.openResolved(target);
    const again = sandbox.requests().length;
    await second.current()!.api.createSubAccountKey({ subAccount: name, permissions: ['SPOT_ACCOUNT_READ'], note: 'clock 2' });
    expect(
      sandbox
        .requests()
        .slice(again)
        .filter((r) => r.method === 'POST')
        .map((r) => r.status),
    ).toEqual([200]);
    await second.close();
  });
});
