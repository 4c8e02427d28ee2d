// The key audit screen, in the real App against a real sandbox: from the key list (a) and the picker (ctrl+r),
// enter to the key list on the key, r again, a sub-account that does not exist, the sizes, and hostile notes.
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { displayWidth } from '../../src/terminal/text';
import { startConsole, type TestConsole } from './harness';
import { openKeys, seededAccounts } from './flows';

const CTRL_R = '\u0012';
const CTRL_U = '\u0015';

let c: TestConsole;
afterEach(async () => c?.cleanup());

const footer = () => c.frame().trimEnd().split('\n').at(-1)!;

/** No line wider than the terminal, no frame as tall as it. */
function expectFits(columns: number, rows: number): void {
  const lines = stripVTControlCharacters(c.rawFrame()).split('\n');
  for (const line of lines) expect(displayWidth(line), `${line}\n${c.frame()}`).toBeLessThanOrEqual(columns);
  expect(lines.length, c.frame()).toBeLessThan(rows);
}

describe('key audit screen', () => {
  test('from the key list: a opens the audit of that sub-account; enter opens its key list on the flagged key; esc comes back', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const { busy } = await seededAccounts(c);
    // A key that is surely flagged: no IP, and it can withdraw.
    const made = await c.api.createSubAccountKey({ subAccount: busy, permissions: ['SPOT_WITHDRAW_WRITE'], note: 'audit me' });
    await openKeys(c, busy);
    // At 80 columns the footer has no room for it (wider, it shows): the help lists it.
    await c.press('?');
    await c.waitForText('Audit these keys');
    await c.press('?');
    await c.press('a');
    await c.waitForScreen('keyAudit');
    await c.waitForText(new RegExp(`Key audit of ${busy} · \\d+ of 7 keys flagged`));
    expect(c.frame()).toMatch(new RegExp(`› ${busy}\\s+7 keys · \\d+ flagged`));
    expect(c.frame()).toMatch(/ACCOUNT \/ KEY +NOTE +AGE FLAGS/);
    expect(footer()).toContain('enter open keys');
    // The summary row says why in counts; walk down to the made key (the last created: the last row).
    expect(c.frame()).toMatch(/no-ip \d+ · (write \d+ · )?withdraw \d+/);
    const short = `${made.apiKey.slice(0, 4)}…${made.apiKey.slice(-4)}`;
    for (let i = 0; i < 8 && !/› +mx0v\S+ +audit me/.test(c.frame()); i++) await c.press('down');
    expect(c.frame()).toMatch(new RegExp(`› +${short.replace('…', '…')} +audit me +0d +no-ip withdraw`));
    expect(c.frame()).toContain('no-ip: no linked IP: any address can use it');
    expect(c.frame()).toContain('withdraw: can withdraw funds: SPOT_WITHDRAW_WRITE');
    await c.press('enter');
    await c.waitForScreen('keys');
    const top = c.navState()!.stack.at(-1)!.route;
    expect(top).toMatchObject({ screen: 'keys', subAccount: busy, highlightApiKey: made.apiKey });
    await c.waitForText(/› audit me/);
    await c.press('esc');
    await c.waitForScreen('keyAudit');
    await c.waitForText('withdraw: can withdraw funds');
  });

  test('from the picker: ctrl+r audits every recent and discovered sub-account, an unknown one among them', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const { busy, empty } = await seededAccounts(c);
    await c.recent.remember(empty);
    await c.recent.remember(busy);
    await c.discovered.note([
      { name: 'nosuchsub9', lastTransferTime: 2 },
      { name: busy, lastTransferTime: 1 },
    ]);
    expect(footer()).toContain('^r audit');
    const before = c.requests().length;
    // Slow answers: the status line counts the sub-accounts done while the rest are fetched.
    c.sandbox.setFaultRates({ latencyMs: 150 });
    await c.press(CTRL_R);
    await c.waitForScreen('keyAudit');
    await c.waitForText('Key audit · 3 sub-accounts');
    await c.waitForText(/Auditing [0-2] of 3…/);
    c.sandbox.setFaultRates({});
    await c.waitForText(/✗ 1 of 3 not audited/);
    // Each name asked once, in the order recent then discovered.
    expect(
      c
        .requests()
        .slice(before)
        .map((r) => new URLSearchParams(r.query).get('subAccount')),
    ).toEqual(expect.arrayContaining([busy, empty, 'nosuchsub9']));
    expect(c.requests().length - before).toBe(3);
    expect(c.frame()).toMatch(new RegExp(`${empty}\\s+0 keys · 0 flagged\\s+nothing flagged`));
    expect(c.frame()).toMatch(/nosuchsub9\s+no such sub-account/);
    // Down to the unknown one: its whole error is under the list.
    for (let i = 0; i < 12 && !/› nosuchsub9/.test(c.frame()); i++) await c.press('down');
    await c.waitForText(/✗ nosuchsub9: list keys failed .*140001/);
    // r audits again: three more requests.
    const again = c.requests().length;
    await c.press('r');
    await c.waitFor(() => c.requests().length - again === 3, 'three requests again');
    await c.waitForText(/✗ 1 of 3 not audited/);
  });

  test('/ filters the rows: a key keeps its sub-account row above it; enter opens the row picked; esc clears first', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const { busy, empty } = await seededAccounts(c);
    const made = await c.api.createSubAccountKey({ subAccount: busy, permissions: ['SPOT_WITHDRAW_WRITE'], note: 'filter me' });
    await c.recent.remember(empty);
    await c.recent.remember(busy);
    await c.press(CTRL_R);
    await c.waitForText(/✓|nothing flagged|flagged/);
    await c.waitFor(() => !/Auditing/.test(c.frame()) && c.frame().includes(`${empty} `), 'the whole audit');
    expect(footer()).toContain('/ filter');
    // The table's rows: from under its header to the first blank line.
    const rowsShown = () => {
      const lines = c.frame().split('\n');
      const from = lines.findIndex((l) => l.includes('ACCOUNT / KEY')) + 1;
      const to = lines.findIndex((l, i) => i >= from && l.trim() === '');
      return lines.slice(from, to);
    };
    await c.press('/');
    await c.waitForText('type to filter');
    await c.type('filter me');
    await c.waitForText(/ 2 of \d+ rows/);
    // The key's row under its sub-account's row; nothing of the other sub-account, no other key of busy's.
    const shown = rowsShown();
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatch(new RegExp(`^› ${busy}\\s`));
    expect(shown[1]).toMatch(/^ +mx0v\S+ +filter me/);
    expect(c.frame()).toContain(made.apiKey);
    // The match is drawn underlined (SGR 4) right before its text, as in the key list.
    await c.waitFor(() => /\u001b\[(?:\d+;)*4(?:;\d+)*m(?:\u001b\[[\d;]*m)*filter me/.test(c.rawFrame()), 'the match underlined');
    // Enter keeps it (the footer says esc now clears it); down to the key, enter opens the key list on it.
    await c.press('enter');
    await c.waitFor(() => footer().includes('esc clear filter'), 'esc named as clearing the filter');
    await c.press('down');
    await c.waitForText(/› +mx0v\S+ +filter me/);
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toMatchObject({ screen: 'keys', subAccount: busy, highlightApiKey: made.apiKey });
    await c.press('esc');
    await c.waitForScreen('keyAudit');
    // Esc clears the kept filter first, the cursor still on the key; the empty sub-account's row is back.
    await c.press('esc');
    await c.waitForText(`${empty} `);
    expect(c.frame()).toMatch(/› +mx0v\S+ +filter me/);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keyAudit');
    // What a sub-account's row shows matches too: its flag counts.
    await c.press('/');
    await c.type('nothing flagged');
    await c.waitForText(/ 1 of \d+ rows/);
    expect(c.frame()).toMatch(new RegExp(`› ${empty}\\s`));
    await c.press('esc');
    // A sub-account's name, then a text nothing has: said, and enter opens nothing.
    await c.press('/');
    await c.type(empty);
    await c.waitForText(/ 1 of \d+ rows/);
    await c.press(CTRL_U);
    await c.type('no such text');
    await c.waitForText('No row matches the filter; esc clears it.');
    await c.press('enter');
    await c.press('enter');
    await c.settle(50);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keyAudit');
  });

  test('a sub-account that answers late goes in its place above the cursor, and the cursor stays on its row', async () => {
    c = await startConsole({ columns: 80, rows: 24, everyCommit: true });
    const { busy, empty } = await seededAccounts(c);
    await c.recent.remember(empty);
    await c.recent.remember(busy);
    // The first request (busy, first in the list) answers late; the empty one is in first.
    c.sandbox.queueFaults({ kind: 'delay', ms: 700 });
    await c.press(CTRL_R);
    await c.waitForText(new RegExp(`› ${empty}\\s+0 keys · 0 flagged`));
    const from = c.frames().length;
    await c.waitForText(new RegExp(`${busy}\\s+\\d+ keys`));
    // Busy's rows came above: in every frame since, the cursor is on the empty sub-account's row.
    const since = c
      .frames()
      .slice(from)
      .map((f) => stripVTControlCharacters(f));
    expect(since.length).toBeGreaterThan(0);
    for (const frame of since)
      expect(
        frame.split('\n').find((l) => l.startsWith('›')),
        frame,
      ).toMatch(new RegExp(`^› ${empty}\\s`));
    expect(c.frame().indexOf(busy)).toBeLessThan(c.frame().indexOf(`${empty} `));
  });

  test('from the picker with a name typed: ctrl+r audits the sub-accounts the list shows for it, a chosen set', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const names = c.sandbox.subAccounts;
    const part = names[0]!.slice(0, 4);
    const chosen = names.filter((n) => n.toLowerCase().includes(part.toLowerCase()));
    expect(chosen.length).toBeLessThan(names.length);
    await c.type(part);
    const before = c.requests().length;
    await c.press(CTRL_R);
    await c.waitForScreen('keyAudit');
    await c.waitFor(() => c.requests().length - before === chosen.length && !/Auditing/.test(c.frame()), 'the chosen audits');
    const asked = c
      .requests()
      .slice(before)
      .map((r) => new URLSearchParams(r.query).get('subAccount'));
    expect([...asked].sort()).toEqual([...chosen].sort());
    const top = c.navState()!.stack.at(-1)!.route;
    expect(top).toMatchObject({ screen: 'keyAudit', subAccounts: chosen });
  });

  test('from the picker, a typed text no name matches: ctrl+r says so and sends nothing', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    await c.type('zzzz');
    const before = c.requests().length;
    await c.press(CTRL_R);
    await c.waitForText('nothing to audit: no sub-account in the list matches what is typed');
    expect(c.requests().length).toBe(before);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('picker');
  });

  test('ctrl+r with nothing recent or discovered: says so, sends nothing', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const before = c.requests().length;
    await c.press(CTRL_R);
    await c.waitForText('nothing to audit yet');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('picker');
    expect(c.requests()).toHaveLength(before);
  });

  test.each([
    [40, 12],
    [80, 24],
    [120, 30],
  ])('fits %ix%i, scrolls with the cursor, and hostile notes stay text', async (columns, rows) => {
    c = await startConsole({ columns, rows });
    const { busy } = await seededAccounts(c);
    // Notes made to break a terminal: an OSC clipboard write, a bidi override, wide characters, a line break.
    for (const note of ['\u001b]52;c;cHduZWQ=\u0007 osc', '\u202Eevil', '漢字🙂漢字🙂漢字🙂漢字🙂漢字🙂', 'two\nlines']) {
      await c.api.createSubAccountKey({ subAccount: busy, permissions: ['SPOT_DEAL_WRITE'], note });
    }
    await c.recent.remember(busy);
    await c.recent.remember('nosuchsub9');
    await c.press(CTRL_R);
    await c.waitForText(/not audited/);
    expectFits(columns, rows);
    // Wide, the whole API key; otherwise the short form.
    expect(c.frame()).toMatch(columns >= 100 ? / {4}mx0v[a-z0-9]{28} / : / {4}mx0v…[a-z0-9]{4} /);
    const raw = c.rawFrame();
    expect(raw).not.toContain('\u001b]');
    expect(raw).not.toContain('\u202E');
    expect(c.frame()).not.toContain('\u0007');
    // To the last row and back: every frame fits, the cursor row is always on screen.
    for (let i = 0; i < 14; i++) {
      await c.press('down');
      expectFits(columns, rows);
      expect(c.frame()).toContain('›');
    }
    await c.press('pageUp');
    await c.press('pageUp');
    expectFits(columns, rows);
    expect(c.frame()).toMatch(/› nosuchsub9|› busy|› \S+/);
  });

  test('nothing audited (its one sub-account failed): no "0 of 0 keys flagged", which would read as a clean audit', async () => {
    c = await startConsole({ columns: 80, rows: 24, recent: [] });
    await c.recent.remember('nosuchsub9');
    await c.press(CTRL_R);
    await c.waitForText(/✗ 1 of 1 not audited/);
    expect(c.frame()).toContain('Key audit of nosuchsub9');
    expect(c.frame()).not.toContain('flagged');
  });

  test('NO_COLOR: the selected row shows with its marker; the footer lists the audit keys', async () => {
    c = await startConsole({ columns: 80, rows: 24, noColor: true, recent: [] });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('a');
    await c.waitForText(new RegExp(`› ${busy}`));
    expect(footer()).toMatch(/↑↓ move {2}enter open keys {2}r refresh {2}t transfers {2}\/ filter {2}esc back {2}\? help/);
    await c.press('?');
    await c.waitForText('Key audit');
    expect(c.frame()).toContain('Audit again');
  });
});
