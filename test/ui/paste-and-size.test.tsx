// A paste is text for the focused field, never commands; a window below 40x12 says what it needs and
// resumes intact; NO_COLOR keeps the cursor and selections visible.
import { afterEach, describe, expect, test } from 'vitest';
import { lineWidth, startConsole, type TestConsole } from './harness';
import { lineWith, openCreateForm, openKeys } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

describe('bracketed paste', () => {
  test('a paste into the picker is typed whole, ? and q included, and its newline is not an Enter', async () => {
    c = await startConsole();
    await c.paste('/p?q=1\n');
    expect(c.frame()).toContain('Sub-account: /p?q=1 ');
    await c.paste('a\nb\r\n');
    expect(c.frame()).toContain('Sub-account: /p?q=1a b ');
    expect(c.navState()!.stack).toHaveLength(1);
    expect(c.frame()).not.toContain('press ? or esc to close');
    expect(c.exitCode()).toBeUndefined();
    expect(c.requests()).toHaveLength(0);
  });

  test('a paste where no field has focus is dropped: none of its characters act as keys', async () => {
    c = await startConsole();
    const name = c.sandbox.subAccounts[0]!;
    await openKeys(c, name);
    const before = c.frame();
    const requests = c.requests().length;
    // As keys, these would quit (q), open help (?), create (n), refresh (r) and move (j).
    await c.paste('jjq?nr\r');
    expect(c.exitCode()).toBeUndefined();
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
    expect(c.frame()).toBe(before);
    expect(c.requests()).toHaveLength(requests);
  });

  test('an IP list pasted one per line lands comma-separated in Linked IPs; a pasted note keeps ? and q', async () => {
    c = await startConsole();
    await openCreateForm(c, c.sandbox.subAccounts[0]!);
    await c.chunk('tab', 'tab');
    await c.paste('203.0.113.7\n2001:db8::1\r\n198.51.100.20\n');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('203.0.113.7, 2001:db8::1, 198.51.100.20');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('3/4');
    await c.press('tab');
    await c.paste('why? quant\nbot');
    expect(lineWith(c.frame(), 'Note')).toContain('why? quant bot');
    expect(c.frame()).not.toContain('press ? or esc to close');
    expect(c.exitCode()).toBeUndefined();
  });

  test('keys before and after a paste keep their order', async () => {
    c = await startConsole();
    await c.chunk('a', 'b');
    await c.paste('c?d');
    await c.chunk('e');
    expect(c.frame()).toContain('Sub-account: abc?de');
  });
});

describe('small windows', () => {
  test('below 40x12 the console says how big it needs to be, and resumes as it was when the window grows', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    await c.type('gridbo');
    await c.resize(30, 10);
    const small = c.frame().split('\n');
    expect(c.frame()).toMatch(/needs at least\s+40x12/);
    expect(small.length).toBeLessThan(10);
    for (const line of c.rawFrame().split('\n')) expect(lineWidth(line)).toBeLessThanOrEqual(30);
    // Keys are not taken while nothing can be seen.
    await c.type('zz');
    await c.resize(80, 24);
    expect(c.frame()).toContain('Sub-account: gridbo');
    expect(c.frame()).not.toContain('zz');
  });
});

describe('help at 40x12', () => {
  test('scrolls with ↓/j to its last line, never taller than the window', async () => {
    c = await startConsole({ columns: 40, rows: 12 });
    await openKeys(c, c.sandbox.subAccounts[0]!);
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    expect(c.frame()).toContain('↓ more');
    expect(c.frame()).not.toContain('Quit from anywhere');
    for (let i = 0; i < 40 && !c.frame().includes('Quit from anywhere'); i++) await c.press(i % 2 ? 'j' : 'down');
    expect(c.frame()).toContain('Quit from anywhere');
    expect(c.frame().split('\n').length).toBeLessThan(12);
    for (const line of c.rawFrame().split('\n')) expect(lineWidth(line)).toBeLessThanOrEqual(40);
    await c.press('esc');
    expect(c.frame()).not.toContain('press ? or esc to close');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
  });
});

describe('NO_COLOR', () => {
  test('the text cursor and the selected row are still visible (inverse), with no colour at all', async () => {
    c = await startConsole({ noColor: true });
    const name = c.sandbox.subAccounts[0]!;
    await c.type(name.slice(0, 3));
    // The text cursor: an inverse cell after what was typed.
    expect(c.rawFrame()).toMatch(/\u001b\[7m \u001b\[27m/);
    await openKeys(c, name.slice(3), { wait: false });
    await c.waitForText(/API keys of .* · \d+ keys?/);
    const selected = c
      .rawFrame()
      .split('\n')
      .find((l) => l.includes('› '));
    expect(selected).toContain('\u001b[7m');
    // No colour escape anywhere (30–37, 90–97 foreground, 40–47/100–107 background, 38;/48; extended).
    expect(c.rawFrame()).not.toMatch(/\u001b\[(3[0-7]|9[0-7]|4[0-7]|10[0-7]|38;|48;)/);
  });
});
