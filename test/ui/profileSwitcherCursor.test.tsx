// The profiles screen opens on the profile in use, so enter at once keeps it; home and end reach the ends.
import { afterEach, describe, expect, test } from 'vitest';
import type { TargetSwitcher } from '../../src/ui/targets';
import { startConsole, type TestConsole } from './harness';
import { displayWidth } from '../../src/terminal/text';

let c: TestConsole;
afterEach(async () => c?.cleanup());

const opened: string[] = [];
const switcher: TargetSwitcher = {
  current: () => undefined,
  subscribe: () => () => undefined,
  startupProblem: () => undefined,
  profiles: async () => [
    { name: 'alpha', baseUrl: 'https://alpha.example', isDefault: true },
    { name: 'ops', baseUrl: 'https://ops.example', isDefault: false },
    { name: 'zeta', baseUrl: 'https://zeta.example', isDefault: false },
  ],
  openDemo: async () => undefined,
  openProfile: async (name) => {
    opened.push(name);
    return { ok: false, message: 'not in this test' };
  },
  addProfile: async () => ({ ok: false, message: 'not in this test' }),
  useForSession: async () => ({ ok: false, message: 'not in this test' }),
};

describe('the profiles screen', () => {
  test('opens on the profile in use; enter keeps it; home and end go to the ends', async () => {
    c = await startConsole({ switcher, mode: 'live', profile: 'ops' });
    await c.press('\u0010');
    await c.waitForText('← now');
    expect(c.frame()).toMatch(/› ops .*← now/);
    await c.press('enter');
    await c.waitFor(() => opened.length === 1, 'a profile opened');
    expect(opened).toEqual(['ops']);
    await c.press('\u001b[F');
    await c.waitForText(/› demo/);
    await c.press('\u001b[H');
    await c.waitForText(/› alpha/);
  });

  test('/ filters the profiles by name or address; enter switches to the one picked; esc clears the filter first', async () => {
    c = await startConsole({ switcher, mode: 'live', profile: 'ops' });
    await c.press('\u0010');
    await c.waitForText('← now');
    expect(c.frame()).toMatch(/\/ filter/);
    await c.press('/');
    await c.waitForText('type to filter');
    // Letters that are keys of the list (s, and the a of zeta) are text while the line is open: an address.
    await c.type('s://zeta');
    await c.waitForText('1 of 4');
    expect(c.frame()).toMatch(/› zeta /);
    expect(c.frame()).not.toMatch(/^[› ] (alpha|ops|demo) /m);
    await c.press('enter');
    await c.press('enter');
    await c.waitFor(() => opened.at(-1) === 'zeta', 'zeta opened');
    // Esc clears the kept filter, the cursor staying on zeta; the list is whole again.
    await c.press('esc');
    await c.waitForNoText('1 of 4');
    expect(c.frame()).toMatch(/› zeta /);
    expect(c.frame()).toMatch(/^ {2}alpha /m);
    // A text no profile has: said, and enter switches to nothing.
    await c.press('/');
    await c.type('nowhere');
    await c.waitForText('No profile matches the filter');
    const before = opened.length;
    await c.press('enter');
    await c.press('enter');
    await c.settle(50);
    expect(opened).toHaveLength(before);
  });
});

describe('the add-profile form in a small window', () => {
  test('at 40x12 an error under a field keeps the field and its error on screen, the rest windowed; every frame fits', async () => {
    const refusing: TargetSwitcher = {
      ...switcher,
      addProfile: async (input) => ({
        ok: false,
        field: 'name',
        message: `'${input.name}' is not a profile name: use 1-64 letters, digits, ".", "_" or "-"`,
      }),
    };
    c = await startConsole({ switcher: refusing, mode: 'live', profile: 'ops', columns: 40, rows: 12 });
    await c.press('\u0010');
    await c.waitForText('← now');
    await c.press('a');
    await c.waitForText('Add a profile');
    await c.type('prod2bad name!');
    await c.press('enter');
    await c.waitForText("✗ 'prod2bad name!' is");
    const lines = c.frame().split('\n');
    expect(
      lines.some((line) => line.startsWith('› Profile name  prod2bad name!')),
      c.frame(),
    ).toBe(true);
    expect(lines.length, c.frame()).toBeLessThan(12);
    for (const line of lines) expect(displayWidth(line), c.frame()).toBeLessThanOrEqual(40);
    // Each field on a line of its own: none drawn over another (a squeezed column did).
    expect(c.frame()).not.toMatch(/X-MEXC-APIKEY•/);
  });
});
