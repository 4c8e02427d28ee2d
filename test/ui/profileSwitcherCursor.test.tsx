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
