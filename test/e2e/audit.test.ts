// The built binary in a real terminal (tmux, 80x24): the key list → a → the audit screen → enter → the key list
// on the flagged key → esc back; then the picker's ctrl+r audits the recent sub-accounts; q quits with 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e audit tests: ${missing}`);

describe.skipIf(missing !== undefined)('key audit in tmux (80x24)', () => {
  let session: TmuxSession;
  let folder: string;

  beforeAll(async () => {
    const bin = await buildCli();
    folder = mkdtempSync(join(tmpdir(), 'bc-e2e-audit-'));
    // The pinned demo clock: the same keys and ages every run.
    const script = [`node ${bin} --demo --demo-clock 2026-11-21T09:30:00Z`, 'printf "EXIT=%s\\n" $?', 'sleep 600'].join('; ');
    session = TmuxSession.console(`bash --norc --noprofile -c '${script}'`, folder);
  });

  afterAll(() => {
    session?.kill();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('walks from the key list to the audit and back to the key on the flagged row', async () => {
    await session.waitFor('Choose a sub-account');
    await session.type('gridbot2901');
    await session.keys('Enter');
    await session.waitFor(/API keys of gridbot2901 · \d+ keys?/);

    await session.keys('a');
    let screen = await session.waitFor(/Key audit of gridbot2901 · \d+ of \d+ keys flagged/);
    expect(screen).toMatch(/ACCOUNT \/ KEY +NOTE +AGE FLAGS/);
    expect(screen).toMatch(/› gridbot2901 +\d+ keys · \d+ flagged/);
    expect(screen).toContain('Sub-accounts › gridbot2901 › Keys › Audit');
    expect(screen.trimEnd().split('\n').at(-1)).toContain('↑↓ move  enter open keys  r refresh  t transfers  esc back  ? help');
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    // Down to the first flagged key: its reasons are under the list.
    await session.keys('Down');
    screen = await session.waitFor(/› +mx0v…\w{4} /);
    const row = /› +(mx0v…\w{4}) +(.+?) +\d+d +([a-z -]+)$/m.exec(screen);
    expect(row, screen).not.toBeNull();
    const [, short, note] = row!;
    const firstFlag = row![3]!.trim().split(' ')[0]!;
    expect(screen).toMatch(new RegExp(`^${firstFlag}: `, 'm'));

    await session.keys('Enter');
    screen = await session.waitFor(/API keys of gridbot2901 · \d+ keys?/);
    // The key list opens with the cursor on that key.
    const selected = screen.split('\n').find((l) => l.startsWith('›'));
    expect(selected, screen).toContain(short!);
    expect(selected).toContain(note!.trim().slice(0, 10));
    // The key list it came from, brought up as it was: no screen twice in the header.
    expect(screen).toContain('Sub-accounts › Audit › gridbot2901 › Keys');

    await session.keys('Escape');
    await session.waitFor(/Key audit of gridbot2901/);
  });

  it('the picker: ctrl+r audits every recent sub-account; q quits with 0', async () => {
    // Back to the picker: the key list is above the audit now, so esc from the audit reaches it.
    await session.keys('Escape');
    await session.waitFor('Choose a sub-account');
    await session.type('mmbot5143');
    await session.keys('Enter');
    await session.waitFor(/API keys of mmbot5143/);
    await session.keys('Escape');
    await session.waitFor('Choose a sub-account');
    await session.keys('C-r');
    // The title shows from the first answer on: wait for both sub-accounts' rows.
    const screen = await session.waitFor(/Key audit · 2 sub-accounts · \d+ of \d+ keys flagged[\s\S]*^ {2}gridbot2901 +\d+ keys/m);
    expect(screen).toMatch(/› mmbot5143 +\d+ keys/);
    expect(screen).toMatch(/^ {2}gridbot2901 +\d+ keys/m);
    await session.keys('q');
    await session.waitFor('EXIT=0');
  });
});
