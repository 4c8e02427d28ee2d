// A request waiting out a 429's Retry-After in the console: the status bar says when it goes and counts down,
// and a wait the operator leaves (esc) is taken back.
import { afterEach, describe, expect, it } from 'vitest';
import { seededSubAccountNames } from '../../src/sandbox/seedAccounts';
import { ownLoopbackHost } from '../loopbackHost';
import { startConsole, type TestConsole } from './harness';
import { openKeys } from './flows';

let c: TestConsole | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

const statusLine = (frame: string): string => frame.split('\n').at(-2) ?? '';

async function refusedRefresh(): Promise<TestConsole> {
  const sub = seededSubAccountNames(1)[0] as string;
  const console = await startConsole({ columns: 120, rows: 24, sandbox: { host: ownLoopbackHost(), ban: false } });
  await openKeys(console, sub);
  await console.waitForText(/✓ list keys 200 · \d+ ms/, 10_000);
  // The refresh meets a 429 asking for 3 s, however long the first load took.
  console.sandbox.queueFaults({ kind: 'rate-limit', retryAfterSec: 3 });
  await console.press('r');
  await console.waitFor(() => / · next try in [1-3] s /.test(statusLine(console.frame())), 'the countdown', 5000);
  return console;
}

describe('the status bar while a request waits its turn', () => {
  it('after a 429: "next try in N s", counting down, then the answer of the try it announced', async () => {
    c = await refusedRefresh();
    expect(statusLine(c.frame())).toMatch(/^✗ list keys 429 · \d+ ms · next try in [1-3] s +/);
    const shown = Number(/next try in (\d) s/.exec(c.frame())![1]);
    // Counting down: a smaller count follows (on a loaded machine a frame of the count may come too late to see).
    if (shown > 1) await c.waitForText(new RegExp(`next try in [1-${shown - 1}] s`), 2500);
    await c.waitForText(/✓ list keys 200 · \d+ ms · try 2 /, 5000);
    expect(statusLine(c.frame())).not.toContain('next try');
    expect(c.requests().map((r) => r.status)).toEqual([200, 429, 200]);
  });

  it('esc during the wait: the try does not go, and the status bar stops announcing it', async () => {
    c = await refusedRefresh();
    // Back to the picker: the key list and its request are gone.
    await c.press('esc');
    await c.waitForScreen('picker');
    await c.waitFor(() => !statusLine(c!.frame()).includes('next try'), 'the countdown taken back', 2000);
    expect(statusLine(c.frame())).toMatch(/^✗ list keys 429 · \d+ ms +/);
    await c.settle(3500);
    expect(c.requests().map((r) => r.status)).toEqual([200, 429]);
  });
});

describe('a wait longer than a try waits', () => {
  it('r is not offered while the asked-for wait lasts: pressed, it sends nothing', async () => {
    const sub = seededSubAccountNames(1)[0] as string;
    c = await startConsole({ columns: 120, rows: 24, sandbox: { host: ownLoopbackHost() } });
    // Past the client's own wait (it says when to try again instead of waiting).
    c.sandbox.queueFaults({ kind: 'rate-limit', retryAfterSec: 12 }, { kind: 'rate-limit', retryAfterSec: 12 }, { kind: 'rate-limit', retryAfterSec: 12 });
    await openKeys(c, sub, { wait: false });
    await c.waitForText(/try again in \d+ s/, 10_000);
    const said = c.frame().replace(/\s+/g, ' ');
    expect(said).not.toContain('(r retry)');
    expect(c.frame().split('\n').at(-1)).not.toContain('r retry');
    const asked = c.requests().length;
    await c.press('r');
    await c.settle(300);
    expect(c.requests().length).toBe(asked);
  });
});
