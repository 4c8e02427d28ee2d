// The console's live targets keep a ban (HTTP 418) for the next console, as the commands do: the next one's
// status bar says it at once (before any request) and its client sends nothing until it ends.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { BANS_FILE } from '../../src/config/bans';
import type { RunningSandbox } from '../../src/sandbox/types';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox | undefined;
let folder: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('console targets and a ban', () => {
  it('the first console meets the 418 and keeps it; the next one shows it at once and sends nothing', async () => {
    // One request a minute, and the first refusal bans for 2 minutes: on a host of its own, as the ban stays in this process.
    sandbox = await ownSandbox({ seed: 1, rateLimit: { max: 1, windowMs: 60_000 }, ban: { afterRefusals: 0, durationMs: 120_000 } });
    folder = await mkdtemp(join(tmpdir(), 'bc-bans-'));
    const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' as const };
    const name = sandbox.subAccounts[0]!;

    const first = createConsoleTargets({ folder, exportFolder: folder });
    await first.openResolved(target);
    await first.current()!.api.listSubAccountKeys(name);
    await expect(first.current()!.api.listSubAccountKeys(name)).rejects.toMatchObject({ kind: 'banned' });
    expect(first.current()!.exchanges.last()).toMatchObject({ status: 418, banEndsAt: expect.any(Number) });
    await first.close();
    const kept = JSON.parse(await readFile(join(folder, BANS_FILE), 'utf8')) as Record<string, { endsAt: number }>;
    expect(kept[sandbox.baseUrl]!.endsAt - Date.now()).toBeGreaterThan(110_000);

    const second = createConsoleTargets({ folder, exportFolder: folder });
    await second.openResolved(target);
    expect(second.current()!.exchanges.last()).toMatchObject({ notSent: true, banEndsAt: kept[sandbox.baseUrl]!.endsAt });
    const sent = sandbox.requests().length;
    await expect(second.current()!.api.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' })).rejects.toThrow(
      /banned this IP for (2 min|1[01]\d s) \(HTTP 418\) — not sent/,
    );
    expect(sandbox.requests()).toHaveLength(sent);
    await second.close();
  });
});
