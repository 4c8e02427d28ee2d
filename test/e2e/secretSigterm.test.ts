// SIGTERM still ends the console on the secret screen (the acknowledgment guards keys, not signals), and
// the terminal comes back as it was.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e SIGTERM test: ${missing}`);

describe.skipIf(missing !== undefined)('SIGTERM on the secret screen', () => {
  let session: TmuxSession | undefined;
  let folder = '';
  afterAll(() => {
    session?.kill();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('exits 143 at once, and the secret is not left in the scrollback', async () => {
    const bin = await buildCli();
    folder = mkdtempSync(join(tmpdir(), 'bc-e2e-term-'));
    const pidFile = join(folder, 'pid');
    // The inner shell writes its pid, then becomes the console (exec): that pid is the console's.
    const inner = `echo $$ > ${pidFile}; exec node ${bin} --demo`;
    session = TmuxSession.console(`sh -c '${inner}'; echo EXIT=$?; sleep 600`, folder);
    const s = session;
    await s.waitFor('Choose a sub-account');
    await s.type('mmbot5143');
    await s.keys('Enter');
    await s.waitFor(/API keys of mmbot5143 · \d+ keys?/);
    await s.keys('n');
    await s.waitFor('New API key for mmbot5143');
    await s.keys('Space', 'Tab', 'Tab', 'Tab');
    await s.waitFor('› Note');
    await s.type('sigterm');
    await s.keys('Enter');
    await s.waitFor('exactly what will be sent');
    await s.keys('Enter');
    await s.waitFor('Store the secret key now');
    await s.keys('v');
    const shown = await s.waitFor(/Secret key\s+[0-9a-f]{16}/);
    const secret = /Secret key\s+([0-9a-f]+)/.exec(shown)![1]!;

    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
    const after = await s.waitFor('EXIT=');
    expect(after).toContain('EXIT=143');
    expect(s.history()).not.toContain(secret.slice(0, 16));
  }, 60_000);
});
