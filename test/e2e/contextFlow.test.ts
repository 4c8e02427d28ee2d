// The built console in a real terminal (tmux, the demo, its clock pinned), at 40x12, then grown to 80x24: picker → the keys
// of a sub-account → t → that sub-account's transfers → K → its keys (the same screen, brought up as it was) →
// esc back along the same path: the results, the filter, the keys, the picker, each as it was left. Then, in the same
// console at 80x24, the key audit: the key list → a → the audit → enter → the key list on the flagged key → esc
// back; the picker's ctrl+r audits the recent sub-accounts; q quits with 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/terminal/text';
import { buildCli } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e context flow: ${missing}`);

const SUB = 'gridbot2901';
let bin = '';
let folder = '';
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  if (missing) return;
  bin = await buildCli();
  folder = mkdtempSync(join(tmpdir(), 'bc-e2e-flow-'));
});

afterAll(() => {
  for (const s of sessions) s.kill();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const lines = (screen: string): string[] =>
  screen
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => l.trimEnd());
/** The header: target, then the breadcrumbs as far as the window shows them (the end is kept). */
const header = (screen: string): string => lines(screen)[0] ?? '';
/** The breadcrumbs the header shows (at 40 columns, the last ones). */
const crumbs = (screen: string): string[] => (header(screen).split(/ {2}/).at(-1) ?? '').replace(/^…/, '').split(' › ');
/** The selected row (the cursor's marker). */
const selectedRow = (screen: string): string | undefined => lines(screen).find((l) => l.startsWith('›'));
const lineWith = (screen: string, text: string): string => lines(screen).find((l) => l.includes(text)) ?? '';

function expectFits(screen: string, columns: number, rows: number): void {
  const all = lines(screen);
  expect(all.filter((l) => displayWidth(l) > columns)).toEqual([]);
  while (all.length > 0 && all.at(-1) === '') all.pop();
  expect(all.length).toBeLessThanOrEqual(rows - 1);
}

// One console for the whole file: the walks at each size, then the key audit at 80x24; each test starts where
// the one before left it (the picker).
describe.skipIf(missing !== undefined)('context carries between keys and transfers, then the key audit (tmux, the demo)', () => {
  let s: TmuxSession;
  beforeAll(() => {
    // The pinned demo clock: the same keys and ages every run.
    const script = [`node ${bin} --demo --demo-clock 2026-11-21T09:30:00Z`, 'printf "EXIT=%s\\n" $?', 'sleep 600'].join('; ');
    s = TmuxSession.console(`bash --norc --noprofile -c '${script}'`, folder, { columns: 40, rows: 12 });
    sessions.push(s);
  });

  it('40x12, then the same console grown to 80x24: picker → keys → t → transfers → K → keys → esc back the same way', async () => {
    await s.waitFor('Choose a sub-account', 15_000);
    // One console walks the path at each size in turn: it starts small, and is back at the picker between the two.
    for (const [columns, rows] of [
      [40, 12],
      [80, 24],
    ] as const) {
      if (s.size() !== `${columns}x${rows}`) {
        s.resize(columns, rows);
        await s.waitFor((x) => s.size() === `${columns}x${rows}` && lines(x).some((l) => displayWidth(l) > 40) && x.includes('Choose a sub-account'));
      }
      const fits = (screen: string) => expectFits(screen, columns, rows);

      // The picker, then the keys of the sub-account; the cursor on the second key.
      await s.type(SUB);
      await s.keys('Enter');
      let screen = await s.waitFor(new RegExp(`API keys of ${SUB} · \\d+ keys`));
      expect(crumbs(screen).at(-1)).toBe('Keys');
      if (columns >= 80) expect(header(screen)).toMatch(new RegExp(`Sub-accounts › ${SUB} › Keys$`));
      await s.keys('Down');
      screen = await s.waitFor((x) => /(^|· )2\/\d+/m.test(x) && x.includes('›'));
      const keyRow = selectedRow(screen)!;
      fits(screen);

      // t: the transfer filter for that sub-account, as the destination.
      await s.keys('t');
      screen = await s.waitFor('Universal transfers: filter');
      expect(lineWith(screen, 'To account')).toContain(SUB);
      expect(lineWith(screen, 'From account')).toMatch(/blank: the master/);
      expect(crumbs(screen).at(-1)).toBe('Transfers');
      fits(screen);
      // SPOT → SPOT (← → cycle the type; the second walk's form keeps the first one's types), then search.
      await s.keys('Tab');
      if (!/To type +SPOT/.test(screen)) await s.keys('Right');
      await s.waitFor((x) => /To type +SPOT/.test(x));
      await s.keys('Enter');
      screen = await s.waitFor(/^› (\d{4}-)?\d\d-\d\d /m);
      expect(lineWith(screen, 'Filter:')).toBe(`Filter: SPOT → SPOT · to ${SUB}`);
      expect(crumbs(screen).at(-1)).toBe('Results');
      fits(screen);
      // The second transfer.
      await s.keys('Down');
      screen = await s.waitFor((x) => {
        const all = lines(x);
        const at = all.findIndex((l) => l.startsWith('›'));
        return at > 0 && /^ {2}(\d{4}-)?\d\d-\d\d /.test(all[at - 1] ?? '');
      });
      const transferRow = selectedRow(screen)!;

      // K: the keys of its sub-account, the same screen as before (the cursor where it was left), brought up.
      await s.keys('K');
      screen = await s.waitFor(new RegExp(`API keys of ${SUB} · \\d+ keys`));
      expect(selectedRow(screen)).toBe(keyRow);
      // No screen twice: the key list left its place under the filter for the top.
      expect(crumbs(screen).slice(-2)).toEqual(columns >= 80 ? [SUB, 'Keys'] : [expect.stringContaining('2901'), 'Keys']);
      expect(crumbs(screen).filter((c) => c === 'Keys')).toHaveLength(1);
      if (columns >= 80) expect(header(screen)).toMatch(new RegExp(`Sub-accounts › Transfers › Results › ${SUB} › Keys$`));
      fits(screen);

      // esc: the results as they were (page, row).
      await s.keys('Escape');
      screen = await s.waitFor(/^› (\d{4}-)?\d\d-\d\d /m);
      expect(selectedRow(screen)).toBe(transferRow);
      expect(lineWith(screen, 'Filter:')).toBe(`Filter: SPOT → SPOT · to ${SUB}`);
      fits(screen);
      // esc: the filter as it was.
      await s.keys('Escape');
      screen = await s.waitFor('Universal transfers: filter');
      expect(lineWith(screen, 'To account')).toContain(SUB);
      expect(screen).toMatch(/To type +SPOT/);
      fits(screen);
      // esc: the keys it was opened from, as they were.
      await s.keys('Escape');
      screen = await s.waitFor(new RegExp(`API keys of ${SUB} · \\d+ keys`));
      expect(selectedRow(screen)).toBe(keyRow);
      expect(crumbs(screen).at(-1)).toBe('Keys');
      expect(header(screen)).not.toMatch(/Results|Transfers/);
      if (columns >= 80) expect(header(screen)).toMatch(new RegExp(`Sub-accounts › ${SUB} › Keys$`));
      // esc: the picker; one more does not quit.
      await s.keys('Escape');
      await s.waitFor('Choose a sub-account');
      await s.keys('Escape');
      await new Promise((r) => setTimeout(r, 300));
      expect(s.screen()).toContain('Choose a sub-account');
    }
  }, 120_000);

  // The key audit, at 80x24 in the same console.
  it('walks from the key list to the audit and back to the key on the flagged row', async () => {
    await s.waitFor('Choose a sub-account');
    await s.type('gridbot2901');
    await s.keys('Enter');
    await s.waitFor(/API keys of gridbot2901 · \d+ keys?/);

    await s.keys('a');
    let screen = await s.waitFor(/Key audit of gridbot2901 · \d+ of \d+ keys flagged/);
    expect(screen).toMatch(/ACCOUNT \/ KEY +NOTE +AGE FLAGS/);
    expect(screen).toMatch(/› gridbot2901 +\d+ keys · \d+ flagged/);
    expect(screen).toContain('Sub-accounts › gridbot2901 › Keys › Audit');
    expect(screen.trimEnd().split('\n').at(-1)).toContain('↑↓ move  enter open keys  r refresh  t transfers  / filter  esc back  ? help');
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    // Down to the first flagged key: its reasons are under the list.
    await s.keys('Down');
    screen = await s.waitFor(/› +mx0v…\w{4} /);
    const row = /› +(mx0v…\w{4}) +(.+?) +\d+d +([a-z -]+)$/m.exec(screen);
    expect(row, screen).not.toBeNull();
    const [, short, note] = row!;
    const firstFlag = row![3]!.trim().split(' ')[0]!;
    expect(screen).toMatch(new RegExp(`^${firstFlag}: `, 'm'));

    await s.keys('Enter');
    screen = await s.waitFor(/API keys of gridbot2901 · \d+ keys?/);
    // The key list opens with the cursor on that key.
    const selected = screen.split('\n').find((l) => l.startsWith('›'));
    expect(selected, screen).toContain(short!);
    expect(selected).toContain(note!.trim().slice(0, 10));
    // The key list it came from, brought up as it was: no screen twice in the header.
    expect(screen).toContain('Sub-accounts › Audit › gridbot2901 › Keys');

    await s.keys('Escape');
    await s.waitFor(/Key audit of gridbot2901/);
  });

  it('the picker: ctrl+r audits every recent sub-account; q quits with 0', async () => {
    // Back to the picker: the key list is above the audit now, so esc from the audit reaches it.
    await s.keys('Escape');
    await s.waitFor('Choose a sub-account');
    await s.type('mmbot5143');
    await s.keys('Enter');
    await s.waitFor(/API keys of mmbot5143/);
    await s.keys('Escape');
    await s.waitFor('Choose a sub-account');
    await s.keys('C-r');
    // The title shows from the first answer on: wait for both sub-accounts' rows.
    const screen = await s.waitFor(/Key audit · 2 sub-accounts · \d+ of \d+ keys flagged[\s\S]*^ {2}gridbot2901 +\d+ keys/m);
    expect(screen).toMatch(/› mmbot5143 +\d+ keys/);
    expect(screen).toMatch(/^ {2}gridbot2901 +\d+ keys/m);
    await s.keys('q');
    await s.waitFor('EXIT=0');
  });
});
