// The terminal closed under the console (its window shut: tmux's server killed) while a created key's secret is on
// screen and not confirmed stored: the console ends as at a hangup (129), and says on stderr which key it was,
// whichever it meets first, the hangup or a write that fails (EIO).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditTrail } from '../../src/config/auditTrail';
import { buildCli } from '../commands/helpers';
import { TmuxSession, createKeyFromList, sleep, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e terminal-gone tests: ${missing}`);

let bin = '';
let folder = '';
beforeAll(async () => {
  if (missing) return;
  bin = await buildCli();
  folder = mkdtempSync(join(tmpdir(), 'bc-e2e-gone-'));
}, 120_000);
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)('the terminal closed on the secret screen', () => {
  it('exit 129, the key named on stderr, on record as not confirmed stored', async () => {
    // A shell that outlives the terminal records how the console ended (a trapped SIGHUP is not inherited as
    // ignored: the console meets the hangup as it would); stderr goes to a file, which stays. The code is written
    // aside and moved in, so the file the test waits for is never seen empty.
    const script = join(folder, 'run.sh');
    writeFileSync(
      script,
      `trap 'true' HUP\nnode ${bin} --demo 2> ${join(folder, 'stderr')}\necho $? > ${join(folder, 'code.new')}; mv ${join(folder, 'code.new')} ${join(folder, 'code')}\n`,
    );
    const s = TmuxSession.console(`sh ${script}`, folder, { home: 'gone' });
    try {
      await s.waitFor('Choose a sub-account');
      await s.type('mmbot5143');
      await s.keys('Enter');
      await s.waitFor(/API keys of mmbot5143 · \d+ keys?/);
      const shown = await createKeyFromList(s, 'mmbot5143', 'gone');
      const apiKey = /API key\s+(\S+)/.exec(shown)![1]!;
      s.kill();
      for (let i = 0; i < 100 && !existsSync(join(folder, 'code')); i += 1) await sleep(50);
      const stderr = readFileSync(join(folder, 'stderr'), 'utf8');
      expect(readFileSync(join(folder, 'code'), 'utf8').trim(), stderr).toBe('129');
      expect(stderr.replace(/\n/g, '')).toContain(
        `key ${apiKey} for mmbot5143: the console closed before you confirmed its secret was stored: if you do not have the secret, delete this key`,
      );
      expect(stderr).not.toContain('could not write the output');
      const { entries } = await readAuditTrail(join(folder, 'gone'));
      expect(entries.filter((e) => e.outcome === 'created').map((e) => e.secret)).toEqual(['unconfirmed']);
    } finally {
      s.kill();
    }
  }, 60_000);
});
