// What the screen says matches what the keys do: the key list's footer follows its state, and a key the
// footer does not offer does nothing.
import { afterEach, describe, expect, test } from 'vitest';
import { startConsole, type TestConsole } from './harness';
import { openKeys, seededAccounts } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

const footer = () => c.frame().trimEnd().split('\n').at(-1)!;

describe('key list footer by state', () => {
  test('no keys: offers n, r, t — not detail or copy', async () => {
    c = await startConsole();
    const { empty } = await seededAccounts(c);
    await openKeys(c, empty, { wait: false });
    await c.waitForText(`No API keys for ${empty} yet`);
    expect(footer()).toContain('n new key');
    expect(footer()).not.toContain('enter detail');
    expect(footer()).not.toContain('c copy');
  });

  test('a sub-account that does not exist: no retry, no new key, no detail; r sends nothing', async () => {
    c = await startConsole();
    await openKeys(c, 'nosuchsub1', { wait: false });
    await c.waitForText('does not exist');
    expect(footer()).not.toMatch(/r (retry|refresh)|n new key|enter detail/);
    expect(c.frame()).not.toContain('(r retry)');
    const before = c.requests().length;
    await c.press('r');
    await c.press('n');
    await c.settle(100);
    expect(c.requests()).toHaveLength(before);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
    expect(c.recent.list()).not.toContain('nosuchsub1');
  });

  test('a failure a retry can fix: offers r retry, and r retries', async () => {
    c = await startConsole();
    const name = c.sandbox.subAccounts[0]!;
    c.sandbox.queueFaults(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })));
    await openKeys(c, name, { wait: false });
    await c.waitForText('(r retry)');
    expect(footer()).toContain('r retry');
    await c.press('r');
    await c.waitForText(new RegExp(`API keys of ${name} · \\d+ keys?`));
    expect(footer()).toContain('enter detail');
  });
});
