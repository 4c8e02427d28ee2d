// The profiles screen opens on the profile in use, so enter at once keeps it; home and end reach the ends.
import { afterEach, describe, expect, test } from 'vitest';
import type { TargetSwitcher } from '../../src/ui/targets';
import { startConsole, type TestConsole } from './harness';

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
