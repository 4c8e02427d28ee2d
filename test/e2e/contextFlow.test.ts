// The built console in a real terminal (tmux, the demo, its clock pinned), at 40x12, then grown to 80x24: picker → the keys
// of a sub-account → t → that sub-account's transfers → K → its keys (the same screen, brought up as it was) →
// esc back along the same path: the results, the filter, the keys, the picker, each as it was left.
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

describe.skipIf(missing !== undefined)('context carries between keys and transfers (tmux, the demo)', () => {
  it('40x12, then the same console grown to 80x24: picker → keys → t → transfers → K → keys → esc back the same way', async () => {
    const script = [`node ${bin} --demo --demo-clock 2026-11-21T09:30:00Z`, 'printf "EXIT=%s\\n" $?', 'sleep 600'].join('; ');
    const s = TmuxSession.console(`bash --norc --noprofile -c '${script}'`, folder, { columns: 40, rows: 12 });
    sessions.push(s);
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
    await s.keys('C-c');
    await s.waitFor('EXIT=130');
  }, 120_000);
});
