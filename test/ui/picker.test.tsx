import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openRecentSubAccounts } from '../../src/config/recentSubAccounts';
import { startConsole, type TestConsole } from './harness';
import { lineWith } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

describe('SubAccountPicker', () => {
  test('lists the demo sub-accounts as suggestions', async () => {
    c = await startConsole();
    const frame = c.frame();
    expect(frame).toContain('Choose a sub-account');
    expect(frame).toContain(`Demo sub-accounts (${c.sandbox.subAccounts.length})`);
    for (const name of c.sandbox.subAccounts) expect(lineWith(frame, name)).toContain('(demo)');
    expect(c.requests()).toHaveLength(0);
  });

  test('typing filters the list', async () => {
    c = await startConsole();
    await c.type('desk');
    const matching = c.sandbox.subAccounts.filter((n) => n.includes('desk'));
    const others = c.sandbox.subAccounts.filter((n) => !n.includes('desk'));
    expect(matching.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    const frame = c.frame();
    expect(frame).toContain('Sub-account: desk');
    expect(frame).toContain(`Demo sub-accounts (${matching.length})`);
    for (const name of matching) expect(frame).toContain(name);
    for (const name of others) expect(frame).not.toContain(name);

    await c.type('zzz');
    expect(c.frame()).toContain('No match: enter opens the name as typed.');
    await c.press('backspace', 3);
    expect(c.frame()).toContain(`Demo sub-accounts (${matching.length})`);
  });

  test.each([
    ['a name with a space', 'bad name', "Sub-account: must not contain spaces ('bad name')"],
    ['an empty name', '', 'Sub-account: required'],
  ])('%s shows the Sub-account message and sends nothing', async (_what, typed, message) => {
    c = await startConsole();
    await c.type(typed);
    await c.press('enter');
    await c.waitForText(`✗ ${message}`);
    expect(c.navState()!.stack).toHaveLength(1);
    expect(c.recent.list()).toEqual([]);
    await c.settle(100);
    expect(c.requests()).toHaveLength(0);
    // Typing again clears the message.
    await c.type('x');
    await c.waitForNoText(message);
  });

  test('choosing opens the keys screen and remembers the name, most recent first', async () => {
    c = await startConsole();
    const [first, second] = c.sandbox.subAccounts as [string, string];
    // Pick the second suggestion with the arrows.
    await c.press('down');
    await c.press('down');
    expect(lineWith(c.frame(), `› ${second}`)).toMatch(/^› /);
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: second });
    expect(c.frame()).toContain(`Sub-accounts › ${second} › Keys`);
    // Remembered once the service listed its keys, not before.
    await c.waitForText(new RegExp(`API keys of ${second} · \\d+ keys?`));
    await c.waitFor(() => c.recent.list().length === 1, 'the name remembered');
    expect(c.recent.list()).toEqual([second]);

    await c.press('esc');
    await c.waitForText('Choose a sub-account');
    expect(c.frame()).toContain(`Recent, then the demo sub-accounts (${c.sandbox.subAccounts.length})`);
    // A recent name is listed once, first, without the demo mark.
    expect(lineWith(c.frame(), second)).not.toContain('(demo)');

    // Open another by typing its name: it becomes the most recent.
    await c.type(first);
    await c.press('enter');
    await c.waitForText(new RegExp(`API keys of ${first} · \\d+ keys?`));
    await c.waitFor(() => c.recent.list()[0] === first, 'the name remembered first');
    expect(c.recent.list()).toEqual([first, second]);
    await c.press('esc');
    await c.waitForText('Choose a sub-account');
    // Coming back finds the picker fresh: no typed name, the whole list, most recent first.
    expect(c.frame()).toContain('Sub-account: type a name');
    const lines = c.frame().split('\n');
    const at = (name: string) => lines.findIndex((l) => l.trim() === name);
    expect(at(first)).toBeGreaterThan(0);
    expect(at(first)).toBeLessThan(at(second));
    expect(lines[at(first) + 1]!.trim()).toBe(second);
  });

  test('a name whose keys never listed (mistyped): esc comes back with it typed, to fix one character', async () => {
    c = await startConsole();
    await c.type('gridbot29O1');
    await c.press('enter');
    await c.waitForText(/140001/);
    await c.press('esc');
    await c.waitForText('Choose a sub-account');
    await c.waitForText('Sub-account: gridbot29O1');
    // It says so, and how to clear it for another name (typing would add to it).
    expect(c.frame()).toContain('the name that did not open, back to be fixed · esc clears it for another');
    expect(c.recent.list()).toEqual([]);
    // The cursor is at its end: two backspaces and the right characters fix it.
    await c.press('backspace', 2);
    await c.type('01');
    expect(c.frame()).not.toContain('the name that did not open');
    await c.press('enter');
    await c.waitForText(/API keys of gridbot2901 · \d+ keys?/);
  });

  test('recent names are filtered as you type too', async () => {
    c = await startConsole({ recent: ['alpha01', 'beta02'], suggestions: [] });
    expect(c.frame()).toContain('Recent (2)');
    await c.type('bet');
    expect(c.frame()).toContain('Recent (1)');
    expect(c.frame()).toContain('beta02');
    expect(c.frame()).not.toContain('alpha01');
  });
});

describe('SubAccountPicker: enter, esc and forgetting', () => {
  test('enter opens the single name the typed text leaves in the list', async () => {
    c = await startConsole();
    const name = 'gridbot2901';
    expect(c.sandbox.subAccounts).toContain(name);
    await c.type('gridbot');
    expect(c.frame()).toContain('Demo sub-accounts (1)');
    // Said before enter: the name it opens is not the one typed.
    expect(c.frame()).toContain('enter opens gridbot2901 (the one name matching "gridbot")');
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: name });
  });

  test('enter with several matches still opens the name as typed', async () => {
    c = await startConsole();
    await c.type('desk');
    expect(c.frame()).toContain('enter opens desk · ↓ picks from the list');
    // A name highlighted: the line names it.
    await c.press('down');
    const highlighted = /› (\S+)/.exec(c.frame())![1]!;
    expect(c.frame()).toContain(`enter opens ${highlighted} · ↑↓ another`);
    await c.press('up');
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: 'desk' });
  });

  test('esc on the picker clears, then does nothing: the console stays', async () => {
    c = await startConsole();
    await c.type('abc');
    await c.press('esc');
    expect(c.frame()).toContain('Sub-account: type a name');
    await c.press('esc');
    await c.press('esc');
    await c.settle(50);
    expect(c.exitCode()).toBeUndefined();
    expect(c.frame()).toContain('ctrl+c quits');
    expect(c.frame()).toContain('esc clear');
  });

  test('ctrl+x forgets the highlighted recent name; a demo name cannot be forgotten', async () => {
    const [a, b] = ['alpha1', 'beta2'];
    c = await startConsole({ recent: [a, b] });
    expect(c.frame()).toContain(a);
    // Nothing highlighted: nothing forgotten, and the picker says why.
    await c.press('\u0018');
    await c.waitForText('only a recent name can be forgotten');
    expect(c.recent.list()).toEqual([a, b]);
    await c.press('down');
    await c.press('\u0018');
    await c.waitFor(() => c.recent.list().length === 1, 'the name forgotten');
    expect(c.recent.list()).toEqual([b]);
    await c.waitForNoText(a);
    // The highlight stays in place, now on the next name.
    expect(c.frame()).toMatch(new RegExp(`› ${b}`));
    // A demo suggestion is not a recent name.
    await c.press('down');
    await c.press('\u0018');
    await c.waitForText('only a recent name can be forgotten');
    expect(c.recent.list()).toEqual([b]);
    expect(c.requests()).toHaveLength(0);
  });

  test('ctrl+x removes the name from recent-sub-accounts.json for this base URL only', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'broker-console-recent-'));
    try {
      const other = await openRecentSubAccounts(folder, 'https://other.example.com');
      await other.remember('alpha1');
      const here = await openRecentSubAccounts(folder, 'http://127.0.0.1:1');
      await here.remember('beta2');
      await here.remember('alpha1');
      c = await startConsole({ recentStore: here });
      await c.press('down');
      await c.press('\u0018');
      await c.waitForNoText('alpha1');
      await c.waitFor(() => here.list().length === 1, 'the name forgotten');
      const onDisk = async () => JSON.parse(await readFile(join(folder, 'recent-sub-accounts.json'), 'utf8')) as Record<string, string[]>;
      let file = await onDisk();
      for (let i = 0; i < 20 && file['http://127.0.0.1:1']!.length !== 1; i++) {
        await c.settle(25);
        file = await onDisk();
      }
      expect(file).toEqual({ 'https://other.example.com': ['alpha1'], 'http://127.0.0.1:1': ['beta2'] });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
