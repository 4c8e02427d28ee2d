import { afterEach, describe, expect, test } from 'vitest';
import { bindingsIn } from '../../src/ui/keyboard/bindings';
import { MODES, type ScreenId } from '../../src/ui/keyboard/modes';
import { frameLines, lineWidth, startConsole, type TestConsole } from './harness';
import { lineWith, openKeys, reachReview, seededAccounts } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

async function expectHelp(screen: ScreenId): Promise<void> {
  await c.press('?');
  await c.waitForText('press ? or esc to close');
  const frame = c.frame();
  // The bindings in force: nothing here fails or scrolls (at 100x40 the detail fits).
  for (const binding of [...bindingsIn(MODES[screen], {}), ...bindingsIn(MODES.global, {})]) expect(frame).toContain(binding.description);
  expect(c.navState()!.helpOpen).toBe(true);
  // The footer says what the keys do in the help, not the screen's keys, which wait under it.
  // (At 100x40 every help here fits: nothing to scroll.)
  expect(frame.split('\n').at(-1)).toBe('? or esc close');
  await c.press('?');
  await c.waitForNoText('press ? or esc to close');
}

/** Visits every screen and mode, leaving the console on the key list. */
async function walkEveryScreen(): Promise<void> {
  const { busy } = await seededAccounts(c);
  await c.type('bad name');
  await c.press('enter');
  await c.waitForText('✗ Sub-account');
  await c.press('\u0015');
  await openKeys(c, busy);
  await c.press('enter');
  await c.press('c');
  await c.press('esc');
  await c.press('n');
  await c.waitForText('Permissions (0 chosen');
  await c.press('tab');
  await c.press('tab');
  await c.type('192.0.2.1,192.0.2.2,192.0.2.3,192.0.2.4,192.0.2.5,10.0.0.0/8');
  await c.press('enter');
  // The first error takes the focus: the empty checklist.
  await c.waitForText('✗ at least one is required');
  await c.press('space');
  await c.press('tab');
  await c.press('tab');
  for (let i = 0; i < '192.0.2.3,192.0.2.4,192.0.2.5,10.0.0.0/8'.length + 1; i++) await c.press('backspace');
  await c.press('tab');
  await c.type('a note that is rather long, to see how the form wraps it at narrow widths');
  await c.press('enter');
  await c.waitForText('Review');
  // Held until the sending frame is drawn: the walk meets it, then the answer.
  c.sandbox.queueFaults({ kind: 'hold' });
  await c.press('enter');
  await c.waitForText('Creating the key');
  expect(c.sandbox.releaseHeld()).toBe(1);
  await c.waitForText('Key created for');
  await c.press('v');
  await c.press('enter');
  await c.press('y');
  await c.waitForScreen('keys');
  await c.press('t');
  await c.waitForText('Universal transfers: filter');
  await c.press('tab');
  await c.press('tab');
  await c.press('tab');
  await c.press('tab');
  await c.type('nonsense');
  await c.press('enter');
  await c.press('\u0015');
  await c.type('3d');
  await c.press('enter');
  await c.waitForText(/Page 1 · \d+ per page/);
  await c.press('pageDown');
  await c.press('enter');
  await c.press('esc');
  await c.press('g');
  await c.type('x');
  await c.press('enter');
  await c.press('esc');
  await c.press('x');
  await c.press('enter');
  await c.waitForText('✓ Wrote');
  await c.press('enter');
  await c.press('?');
  await c.press('esc');
  await c.press('esc');
  await c.press('esc');
}

describe('everywhere', () => {
  test('? opens help from the key bindings, for each screen that is not typing', async () => {
    c = await startConsole({ columns: 100, rows: 40 });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await expectHelp('keys');
    await c.press('enter');
    await expectHelp('keyDetail');
    await c.press('esc');
    await c.press('n');
    await c.waitForText('New API key for');
    await expectHelp('createKey');
    await c.press('space');
    await c.press('tab', 3);
    await c.type('help test');
    await c.press('enter');
    await c.waitForText('Review');
    await expectHelp('review');
    await c.press('esc');
    await c.waitForText('New API key for');
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('t');
    await c.waitForText('Universal transfers: filter');
    await c.press('enter');
    await c.waitForText(/Page 1 · \d+ per page/);
    await expectHelp('transfers');
    await c.press('enter');
    await expectHelp('transferDetail');
    await c.press('esc');
    await c.press('x');
    await c.waitForText('Export transfers');
    await expectHelp('export');
  });

  test('help on the secret screen; Esc closes help without leaving the screen', async () => {
    c = await startConsole({ columns: 100, rows: 40 });
    await reachReview(c, c.sandbox.subAccounts[0]!);
    await c.press('enter');
    await c.waitForText('Key created for');
    await expectHelp('secret');
    await c.press('?');
    await c.press('esc');
    await c.waitForNoText('press ? or esc to close');
    expect(c.frame()).toContain('Key created for');
    expect(c.frame()).not.toContain('Have you stored');
  });

  test('Esc goes back one screen at a time', async () => {
    c = await startConsole();
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('n');
    await c.waitForScreen('createKey');
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('esc');
    await c.waitForScreen('picker');
    expect(c.frame()).toContain('Choose a sub-account');
    // On the first screen Esc clears what was typed, and never quits: the footer says how to.
    await c.type('half typed');
    await c.press('esc');
    expect(c.frame()).not.toContain('half typed');
    await c.press('esc', 3);
    await c.settle(50);
    expect(c.exitCode()).toBeUndefined();
    expect(c.frame()).toContain('Choose a sub-account');
    expect(c.frame()).toContain('^c quit');
    expect(c.frame()).not.toContain('esc back');
    await c.press('ctrlC');
    expect(c.exitCode()).toBe(130);
  });

  test('Esc on the welcome screen does not quit; q does, and the footer says so', async () => {
    c = await startConsole({ initialRoute: { screen: 'welcome' } });
    await c.waitForText('Welcome to broker-console');
    expect(c.frame()).toContain('q quit');
    expect(c.frame()).not.toContain('esc back');
    await c.press('esc');
    await c.press('esc');
    await c.settle(50);
    expect(c.exitCode()).toBeUndefined();
    expect(c.frame()).toContain('Welcome to broker-console');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    // The help no longer promises ctrl+t from anywhere: the welcome screen has no target to browse.
    expect(c.frame()).not.toContain('transfers, from anywhere');
    expect(c.frame()).toContain('Browse universal transfers, once a target is open');
    await c.press('?');
    await c.press('q');
    expect(c.exitCode()).toBe(0);
  });

  test('q quits (exit 0) only from browsing screens, and is text in text fields', async () => {
    c = await startConsole();
    // In the picker q is part of a name.
    await c.press('q');
    expect(c.frame()).toContain('Sub-account: q');
    expect(c.exitCode()).toBeUndefined();
    await c.press('backspace');
    // In the create form, where typed input could be lost, q does nothing (not even on the checklist).
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('n');
    await c.waitForScreen('createKey');
    await c.press('q');
    await c.settle(50);
    expect(c.exitCode()).toBeUndefined();
    expect(c.navState()!.stack).toHaveLength(3);
    // From the key list (a browsing screen) q quits with 0.
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('q');
    expect(c.exitCode()).toBe(0);
    await c.cleanup();

    // On the first screen, when it is not a text field, q quits with 0.
    c = await startConsole({ initialRoute: { screen: 'keys', subAccount: busy } });
    await c.waitForText(`API keys of ${busy}`);
    await c.press('q');
    expect(c.exitCode()).toBe(0);
  });

  test('? opens help even while a name field has the keys; in the note field ? is text', async () => {
    c = await startConsole();
    await c.type('abc');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    expect(c.frame()).toContain('Clear the name (esc never quits here: ctrl+c does)');
    await c.press('?');
    await c.waitForNoText('press ? or esc to close');
    expect(c.frame()).toContain('Sub-account: abc');
    expect(c.frame()).not.toContain('abc?');
    await c.press('\u0015');
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('n');
    await c.waitForScreen('createKey');
    await c.press('shiftTab');
    await c.type('why?');
    expect(c.frame()).toContain('Note        why?');
    expect(c.frame()).not.toContain('press ? or esc to close');
  });

  test('Ctrl-C exits 130 from a deep screen', async () => {
    c = await startConsole();
    await c.press('ctrlT');
    await c.waitForText('Universal transfers: filter');
    await c.press('enter');
    await c.waitForText(/Page 1 · \d+ per page/);
    await c.press('enter');
    await c.press('ctrlC');
    expect(c.exitCode()).toBe(130);
  });

  test.each([
    [80, 24],
    [60, 20],
  ])(
    'at %ix%i every frame of every screen is shorter than the terminal and no wider',
    async (columns, rows) => {
      c = await startConsole({ columns, rows, everyCommit: true });
      const from = c.frames().length;
      await walkEveryScreen();
      const frames = c.frames().slice(from);
      expect(frames.length).toBeGreaterThan(50);
      for (const raw of frames) {
        const lines = frameLines(raw);
        if (lines.length >= rows) throw new Error(`a frame of ${lines.length} lines in ${rows} rows:\n${raw}`);
        const wide = lines.find((l) => lineWidth(l) > columns);
        if (wide !== undefined) throw new Error(`a line of ${lineWidth(wide)} columns in ${columns}:\n${wide}`);
      }
    },
    40_000,
  );

  test('resize re-lays out the screen', async () => {
    c = await startConsole({ columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const key = busyKeys[0]!.apiKey;
    expect(c.frame()).toContain(key);
    await c.resize(70, 16);
    expect(c.frame()).not.toContain(key);
    expect(c.frame()).toContain(`${key.slice(0, 4)}…${key.slice(-4)}`);
    const lines = frameLines(c.rawFrame());
    expect(lines.length).toBeLessThan(16);
    for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(70);
    await c.resize(120, 30);
    expect(c.frame()).toContain(key);
    expect(frameLines(c.rawFrame()).length).toBeLessThan(30);
    expect(frameLines(c.rawFrame()).length).toBeGreaterThan(16);
  });

  test('the NO_COLOR theme writes no colour codes on any screen', async () => {
    const colour = /\u001b\[(3|4|9|10)\d(;\d+)*m/;
    // With colours on, the same walk does colour (so the check below means something).
    c = await startConsole({ everyCommit: true });
    await c.press('ctrlT');
    expect(c.frames().some((f) => colour.test(f))).toBe(true);
    await c.cleanup();

    c = await startConsole({ noColor: true, columns: 80, rows: 24, everyCommit: true });
    await walkEveryScreen();
    const coloured = c.frames().find((f) => colour.test(f));
    expect(coloured).toBeUndefined();
    // The badge stays visible without colour (inverse).
    expect(c.frame()).toContain(' DEMO ');
  }, 40_000);

  test('status bar: the last request, its result and latency; DEMO badge in demo mode', async () => {
    c = await startConsole();
    expect(c.frame()).toContain('no request yet');
    expect(c.frame()).toContain(' DEMO ');
    expect(c.frame()).not.toContain('LIVE');
    expect(lineWith(c.frame(), 'no request yet')).toContain('demo · sandbox');
    await openKeys(c, c.sandbox.subAccounts[0]!);
    await c.waitForText(/✓ list keys 200 · \d+ ms/);
    c.sandbox.queueFaults({ kind: 'delay', ms: 150 });
    await c.press('r');
    await c.waitForText(/✓ list keys 200 · (1[5-9]\d|[2-9]\d\d|\d{4,}) ms/);
    c.sandbox.queueFaults({ kind: 'status', status: 400, code: 700007, msg: 'No permission' });
    await c.press('r');
    await c.waitForText(/✗ list keys 400 · \d+ ms/);
  });

  test('LIVE badge with the host in live mode', async () => {
    c = await startConsole({ mode: 'live' });
    const host = new URL(c.sandbox.baseUrl).host;
    const header = c.frame().split('\n')[0]!;
    expect(header).toContain(' LIVE ');
    expect(header).toContain(host);
    expect(header).not.toContain('DEMO');
    expect(c.frame()).toContain('ops · environment');
  });
});
