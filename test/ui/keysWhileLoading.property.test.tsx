// Every key counts during loads: a random sequence of the transfer browser's keys, written fast (in random
// chunks, with random gaps) while the sandbox answers with a random latency, ends on the same frame (page,
// cursor row, rows shown, notice) as the same keys pressed slowly, each after the screen has settled.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import type { RunningSandbox } from '../../src/sandbox/types';
import type { Route } from '../../src/ui/navigation';
import { KEYS, sleep, startConsole, type TestConsole } from './harness';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
// A short history and a small page: the last page, and past it, are a few keys away.
const ROUTE: Route = { screen: 'transfers', query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 4 } };

beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 1, transfers: 150 });
});
afterAll(async () => {
  await sandbox.close();
});

// Paging, moving, refreshing, and the page prompt (g, a digit, enter): the keys whose effect depends on a page.
const ALPHABET = ['n', 'p', ']', '[', 'j', 'k', 'r', KEYS.down, KEYS.up, 'g', '2', KEYS.enter];

/** Until the page shown is loaded (its row count is in the page line), no request of this console is
 *  unanswered, and the frame has not changed for `quietMs`. */
async function settled(c: TestConsole, from: number, quietMs: number): Promise<void> {
  const until = Date.now() + 10_000;
  let last = c.frame();
  let since = Date.now();
  while (Date.now() < until) {
    await sleep(5);
    const frame = c.frame();
    const open =
      c
        .requests()
        .slice(from)
        .some((r) => r.status === 0) || !/Page \d+ · 4 per page · \d+ rows/.test(frame);
    if (open || frame !== last) {
      last = frame;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
  throw new Error(`the screen did not settle; last frame:\n${c.frame()}`);
}

async function play(write: (c: TestConsole, from: number) => Promise<void>): Promise<string> {
  // Every commit drawn: settled() judges the screen quiet by its frames, which Ink's pace would hold back.
  const c = await startConsole({ sharedSandbox: sandbox, columns: 80, rows: 24, initialRoute: ROUTE, everyCommit: true });
  try {
    await c.waitForText(/Page 1 · 4 per page · 4 rows/);
    const from = c.requests().length;
    await write(c, from);
    await settled(c, from, 120);
    // The status bar's request latency differs from run to run; nothing else may.
    return c.frame().replace(/· \d+ ms */g, '· N ms ');
  } finally {
    await c.cleanup();
  }
}

test('keys written during loads end where the same keys pressed slowly do', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 10 }),
      fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 10 }),
      fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 5, max: 30 }),
      async (keys, sizes, gaps, latencyMs) => {
        sandbox.setFaultRates({});
        const slowly = await play(async (c, from) => {
          for (const key of keys) {
            await c.chunk(key);
            await settled(c, from, 25);
          }
        });
        sandbox.setFaultRates({ latencyMs });
        const fast = await play(async (c) => {
          for (let at = 0, i = 0; at < keys.length; i++) {
            const size = sizes[i % sizes.length]!;
            await c.chunk(...keys.slice(at, at + size));
            at += size;
            await sleep(gaps[i % gaps.length]!);
          }
        });
        sandbox.setFaultRates({});
        expect(fast).toBe(slowly);
      },
    ),
    { numRuns: 6 },
  );
}, 60_000);
