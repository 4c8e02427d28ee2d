// Every key counts on a slow service, in a real terminal (tmux, 80x24, the built binary, LIVE against a
// sandbox that answers each request 300 ms late): n tapped three times while the pages load is three
// pages on, and ]] typed as one chunk is two more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server';
import type { RunningSandbox } from '../../src/sandbox/types';
import { buildCli, sandboxEnv } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e keys during loads: ${missing}`);

let bin = '';
let folder = '';
let sandbox: RunningSandbox | undefined;
let session: TmuxSession | undefined;

beforeAll(async () => {
  if (missing) return;
  bin = await buildCli();
  folder = mkdtempSync(join(tmpdir(), 'bc-e2e-loads-'));
  sandbox = await startSandbox({ seed: 7 });
});

afterAll(async () => {
  session?.kill();
  await sandbox?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)('keys during loads in tmux (80x24, LIVE against a slow sandbox)', () => {
  it('nnn tapped on a slow service is three pages on; ]] in one write two more', async () => {
    const target = sandbox!;
    session = TmuxSession.console(`node ${bin}; sleep 600`, folder, { env: { ...sandboxEnv(target), TZ: 'UTC' } });
    const s = session;
    await s.waitFor('Choose a sub-account');
    await s.keys('C-t');
    await s.waitFor('Universal transfers: filter');
    await s.keys('Enter');
    await s.waitFor(/Page 1 · 500 per page · 500 rows/);
    target.setFaultRates({ latencyMs: 300 });
    // Tapped faster than a page comes: the second and third wait for the page before them.
    await s.keys('n', 'n', 'n');
    await s.waitFor(/Page 4 · 500 per page · 500 rows/, 15_000);
    await s.write(']]');
    const screen = await s.waitFor(/Page 6 · 500 per page · 500 rows/, 15_000);
    target.setFaultRates({});
    expect(screen).not.toContain('no more pages');
    // Nothing more comes: six pages on is where the keys end.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(s.screen()).toMatch(/Page 6 · 500 per page · 500 rows/);
  });
});
