// Every key counts, however it arrives: for each screen, random key sequences are written once key by key
// and once cut into random chunks (several keys in one write, as fast typing, SSH or a script deliver
// them); the final frames must be the same.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createBrokerApi } from '../../src/api/operations';
import type { RunningSandbox } from '../../src/sandbox/types';
import type { Route } from '../../src/ui/navigation';
import { KEYS, startConsole, type TestConsole } from './harness';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let busy: string;

beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 1 });
  // The sub-account with the most keys, so the list has room to move in.
  const api = createBrokerApi({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
  const counts = await Promise.all(sandbox.subAccounts.map(async (name) => [name, (await api.listSubAccountKeys(name)).length] as const));
  await api.close();
  busy = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
});
afterAll(async () => {
  await sandbox.close();
});

interface ScreenCase {
  name: string;
  route?: Route;
  /** Text that says the screen is ready (its data loaded). */
  ready: RegExp;
  /** Keys that act at once, with no request (a request would make the two runs race the network). */
  keys: string[];
}

const letters = ['a', 'b', 'q', 'j', 'k', '1', '2', '.', ',', ' ', '日', '👍🏽'];
const CTRL_U = '\u0015';
const CTRL_W = '\u0017';

const cases = (): ScreenCase[] => [
  { name: 'picker', ready: /Choose a sub-account/, keys: [...letters, KEYS.backspace, KEYS.up, KEYS.down, KEYS.left, KEYS.right, CTRL_U, CTRL_W] },
  {
    name: 'key list',
    route: { screen: 'keys', subAccount: busy },
    ready: /API keys of .* · \d+ keys/,
    keys: ['j', 'k', KEYS.up, KEYS.down, KEYS.enter, KEYS.esc, '?'],
  },
  {
    name: 'create form',
    route: { screen: 'createKey', subAccount: busy },
    ready: /New API key for|Permissions/,
    keys: [...letters, KEYS.tab, KEYS.shiftTab, KEYS.space, KEYS.left, KEYS.right, KEYS.up, KEYS.down, KEYS.backspace, CTRL_W],
  },
  {
    name: 'transfer filter',
    route: { screen: 'transferFilter' },
    ready: /Universal transfers: filter/,
    keys: [...letters, KEYS.tab, KEYS.shiftTab, KEYS.left, KEYS.right, KEYS.backspace, CTRL_U],
  },
  {
    name: 'transfer results',
    route: { screen: 'transfers', query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 50 } },
    ready: /Page 1 · \d+ per page · \d+ rows/,
    keys: ['j', 'k', KEYS.up, KEYS.down, KEYS.pageUp, KEYS.pageDown, KEYS.enter, KEYS.esc],
  },
];

async function play(c: ScreenCase, write: (console: TestConsole) => Promise<void>): Promise<{ frame: string; exit: number | undefined }> {
  const console = await startConsole({ sharedSandbox: sandbox, columns: 100, rows: 30, ...(c.route ? { initialRoute: c.route } : {}) });
  try {
    await console.waitForText(c.ready);
    await write(console);
    // The status bar's request latency differs from run to run; nothing else may.
    return { frame: console.frame().replace(/· \d+ ms */g, '· N ms '), exit: console.exitCode() };
  } finally {
    await console.cleanup();
  }
}

describe('keys that arrive together do what the same keys do one by one', () => {
  for (const screen of cases()) {
    test(`${screen.name}: any chunking of a key sequence gives the one-key-at-a-time frame`, async () => {
      const current = cases().find((c) => c.name === screen.name)!;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...current.keys), { minLength: 2, maxLength: 24 }),
          fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 24 }),
          async (sequence, sizes) => {
            const oneByOne = await play(current, async (c) => {
              for (const key of sequence) await c.chunk(key);
            });
            const chunked = await play(current, async (c) => {
              let at = 0;
              for (let i = 0; at < sequence.length; i++) {
                const size = sizes[i % sizes.length]!;
                await c.chunk(...sequence.slice(at, at + size));
                at += size;
              }
            });
            expect(chunked.exit).toBe(oneByOne.exit);
            expect(chunked.frame).toBe(oneByOne.frame);
          },
        ),
        { numRuns: 8 },
      );
    }, 120_000);
  }
});
