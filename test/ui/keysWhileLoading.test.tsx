// Every key counts during loads: keys pressed while a page, a list, a scan, an export or a check is under
// way wait and are applied in order once it settles, doing what they would have done pressed after it. Loads are held by the real
// sandbox (hold faults, or latency), keys go in through the console's own key reader.
import { readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import type { Route } from '../../src/ui/navigation';
import { consoleFor, type TestConsole } from './harness';
import { openTransfers, seededAccounts } from './flows';
import type { CredentialsInput, TargetSwitcher } from '../../src/ui/targets';
import { ownSandbox } from '../sandbox/helpers';

const RESULTS: Route = { screen: 'transfers', query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 20 } };
const transferPages = (c: TestConsole, from = 0) =>
  c
    .requestsOf('GET', from)
    .filter((r) => r.path.endsWith('/universalTransfer'))
    .map((r) => Number(new URLSearchParams(r.query).get('page')));
const pageLine = (n: number) => new RegExp(`Page ${n} · 20 per page · 20 rows`);

/** Holds the next page request, so keys meet a page that is loading for as long as the test needs. */
async function holdNextPage(c: TestConsole, key: string): Promise<void> {
  c.sandbox.queueFaults({ kind: 'hold' });
  await c.chunk(key);
  await c.waitFor(() => c.sandbox.held() === 1, 'the page request held');
}

async function results(onTestFinished: Parameters<typeof consoleFor>[0], options: Parameters<typeof consoleFor>[1] = {}): Promise<TestConsole> {
  const c = await consoleFor(onTestFinished, { columns: 100, rows: 30, initialRoute: RESULTS, ...options });
  await c.waitForText(pageLine(1));
  return c;
}

describe('the transfer browser while a page loads', () => {
  test('nnn while page 2 loads: three pages on, each fetched in turn', async ({ onTestFinished }) => {
    const c = await results(onTestFinished);
    const from = c.requests().length;
    await holdNextPage(c, 'n');
    await c.press('n');
    await c.press('n');
    expect(c.frame()).toContain('Page 2');
    c.sandbox.releaseHeld();
    await c.waitForText(pageLine(4));
    await c.settle(50);
    expect(c.frame()).toMatch(pageLine(4));
    expect(transferPages(c, from)).toEqual([2, 3, 4]);
  });

  test('ten n in one burst under latency: ten pages on', async ({ onTestFinished }) => {
    const c = await results(onTestFinished, { sandbox: { faults: { latencyMs: 15 } } });
    await c.chunk(...'nnnnnnnnnn');
    await c.waitForText(pageLine(11), 5000);
    await c.settle(80);
    expect(c.frame()).toMatch(pageLine(11));
  });

  test(']]]]] typed one by one while pages load: five pages on', async ({ onTestFinished }) => {
    const c = await results(onTestFinished, { sandbox: { faults: { latencyMs: 30 } } });
    await c.type(']]]]]');
    await c.waitForText(pageLine(6), 5000);
    await c.settle(80);
    expect(c.frame()).toMatch(pageLine(6));
  });

  test('rn: the n pressed while the refresh loads still turns the page', async ({ onTestFinished }) => {
    const c = await results(onTestFinished);
    const from = c.requests().length;
    await holdNextPage(c, 'r');
    await c.press('n');
    c.sandbox.releaseHeld();
    await c.waitForText(pageLine(2));
    expect(transferPages(c, from)).toEqual([1, 2]);
  });

  test('rn in one chunk: the refresh, then the next page', async ({ onTestFinished }) => {
    const c = await results(onTestFinished, { sandbox: { faults: { latencyMs: 20 } } });
    const from = c.requests().length;
    await c.chunk('r', 'n');
    await c.waitForText(pageLine(2));
    expect(transferPages(c, from)).toEqual([1, 2]);
  });

  test('pppj from page 6 while pages load: three pages back, then the second row', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30, initialRoute: { ...RESULTS, query: { ...RESULTS.query, page: 6 } } as Route });
    await c.waitForText(pageLine(6));
    await holdNextPage(c, 'p');
    await c.chunk('p', 'p', 'j');
    c.sandbox.releaseHeld();
    await c.waitForText(/Page 3 · 20 per page · 20 rows · row 2/);
  });

  test('j while the next page loads moves on that page, as pressed after it', async ({ onTestFinished }) => {
    const c = await results(onTestFinished);
    await holdNextPage(c, 'n');
    await c.press('j');
    await c.press('j');
    c.sandbox.releaseHeld();
    await c.waitForText(/Page 2 · 20 per page · 20 rows · row 3/);
  });

  test('n past the last page while pages load says so, as pressed slowly', async ({ onTestFinished }) => {
    const sandbox = await ownSandbox({ seed: 1, transfers: 60 });
    onTestFinished(() => sandbox.close());
    const query = { fromAccountType: 'SPOT', toAccountType: 'FUTURE' } as const;
    const probe = await consoleFor(onTestFinished, { sharedSandbox: sandbox });
    const total = (await probe.api.listUniversalTransfers({ ...query, page: 1, limit: 500 })).length;
    // A page size that leaves the last page short, so the browser knows it is the last.
    const limit = [2, 3, 4, 5, 7].find((n) => total % n !== 0)!;
    const last = Math.ceil(total / limit);
    expect(last).toBeGreaterThan(1);
    const c = await consoleFor(onTestFinished, {
      sharedSandbox: sandbox,
      columns: 100,
      rows: 30,
      initialRoute: { screen: 'transfers', query: { ...query, limit } },
    });
    await c.waitForText(`Page 1 · ${limit} per page`);
    sandbox.setFaultRates({ latencyMs: 15 });
    await c.chunk(...'n'.repeat(last + 2));
    await c.waitForText(`no more pages: page ${last} is the last`, 5000);
    expect(c.frame()).toContain(`Page ${last} · ${limit} per page · ${total % limit} rows · no more pages`);
    expect(
      c
        .requestsOf('GET')
        .filter((r) => r.path.endsWith('/universalTransfer'))
        .map((r) => Number(new URLSearchParams(r.query).get('page')))
        .at(-1),
    ).toBe(last);
  });
});

describe('the key list while its keys load', () => {
  test('j pressed before the keys arrive moves the cursor once they do', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    expect(busyKeys.length).toBeGreaterThan(2);
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.type(busy);
    await c.press('enter');
    await c.waitFor(() => c.sandbox.held() === 1, 'the key list held');
    await c.press('j');
    await c.press('j');
    c.sandbox.releaseHeld();
    // The waiting keys are applied one frame each once the keys came: the cursor reaches the third row.
    const cursorLine = () =>
      c
        .frame()
        .split('\n')
        .find((l) => l.startsWith('›')) ?? '';
    await c.waitFor(() => cursorLine().includes(busyKeys[2]!.apiKey.slice(0, 8)), 'the cursor on the third key');
    await c.settle(50);
    expect(cursorLine()).toContain(busyKeys[2]!.apiKey.slice(0, 8));
  });
});

describe('the discover scan and the key audit while they run', { timeout: 45_000 }, () => {
  test('↓ and enter pressed during the scan open the second sub-account found, once it is done', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24 });
    await c.press('\u0004');
    await c.waitForScreen('discover');
    // Two days back: a short scan.
    await c.press('\u0015');
    await c.type('2');
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('enter');
    await c.waitFor(() => c.sandbox.held() === 1, 'the first scan request held');
    await c.press('down');
    await c.press('enter');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('discover');
    c.sandbox.releaseHeld();
    await c.waitForScreen('keys', 30_000);
    const second = c.discovered.list()[1]!.name;
    expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: second });
  });

  test('↓↓ pressed before any sub-account is audited moves to the third row once all are', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const names = c.sandbox.subAccounts.slice(0, 3);
    c.sandbox.queueFaults({ kind: 'hold' }, { kind: 'hold' }, { kind: 'hold' });
    await startAudit(c, names);
    await c.waitFor(() => c.sandbox.held() >= 1, 'an audit request held');
    await c.press('down');
    await c.press('down');
    await c.waitFor(() => {
      c.sandbox.releaseHeld();
      return !c.frame().includes('Auditing');
    }, 'the audit done');
    await c.waitForText(/^3\/\d+ · /m);
  });
});

/** Opens the key audit of these sub-accounts from the picker (ctrl+r, nothing typed: every recent one). */
async function startAudit(c: TestConsole, names: string[]): Promise<void> {
  for (const name of names) await c.recent.remember(name);
  await c.press('\u0012');
  await c.waitForScreen('keyAudit');
}

/** A switcher whose profile list and credential checks answer when the test says. */
function slowSwitcher() {
  const profile = { name: 'prod', baseUrl: 'https://api.example.com', isDefault: true };
  const pending: Array<() => void> = [];
  const checks: CredentialsInput[] = [];
  const later = <T,>(value: T) => new Promise<T>((resolve) => pending.push(() => resolve(value)));
  const switcher: TargetSwitcher = {
    current: () => undefined,
    subscribe: () => () => undefined,
    startupProblem: () => undefined,
    profiles: () => later([profile, { ...profile, name: 'sbx', isDefault: false }]),
    openDemo: async () => undefined,
    openProfile: async () => ({ ok: false, message: 'not in this test' }),
    addProfile: async () => ({ ok: false, message: 'not in this test' }),
    useForSession: (input) => {
      checks.push(input);
      return later({ ok: false as const, message: 'the service refused the key' });
    },
  };
  return { switcher, checks, pending: () => pending.length, answer: () => pending.splice(0).forEach((go) => go()) };
}

describe('the profiles and a credentials check while they load', () => {
  test('↓↓ pressed while the profiles are read lands on the third entry', async ({ onTestFinished }) => {
    const slow = slowSwitcher();
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, switcher: slow.switcher });
    await c.press('\u0010');
    await c.waitForScreen('profiles');
    await c.waitFor(() => slow.pending() === 1, 'the profiles asked for');
    await c.press('down');
    await c.press('down');
    slow.answer();
    await c.waitForText('sbx');
    await c.waitForText(/^› demo/m);
  });

  test('text and enter typed while the connection is checked edit the form and check again', async ({ onTestFinished }) => {
    const slow = slowSwitcher();
    const c = await consoleFor(onTestFinished, {
      columns: 80,
      rows: 24,
      switcher: slow.switcher,
      initialRoute: { screen: 'sessionCredentials', baseUrl: 'http://127.0.0.1:9' },
    });
    await c.type('key');
    await c.press('tab');
    await c.type('secret');
    await c.press('enter');
    await c.waitForText('Checking the connection');
    await c.type('x');
    await c.press('enter');
    slow.answer();
    await c.waitFor(() => slow.checks.length === 2, 'the second check');
    expect(slow.checks.map((input) => input.secretKey)).toEqual(['secret', 'secretx']);
  });
});

describe('an export while it writes', () => {
  /** Results (opened straight, or through the filter form), with an export of all pages started and its first page held. */
  const exportHeld = async (onTestFinished: Parameters<typeof consoleFor>[0], throughFilter = false) => {
    let c: TestConsole;
    if (throughFilter) {
      c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
      await openTransfers(c);
    } else c = await results(onTestFinished);
    await c.press('x');
    await c.waitForText('Export transfers');
    await c.press('a');
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('enter');
    await c.waitFor(() => c.sandbox.held() === 1, 'the first export page held');
    return c;
  };

  test('enter pressed while all pages are exported closes the panel once the file is written', async ({ onTestFinished }) => {
    const c = await exportHeld(onTestFinished);
    await c.press('enter');
    c.sandbox.releaseHeld();
    await c.waitForNoText('Export transfers', 10_000);
    expect(c.frame()).toMatch(pageLine(1));
    // The panel closed after the file was written, not before (an enter while it ran would have been lost).
    expect((await readdir(c.exportDir)).some((name) => name.endsWith('.csv'))).toBe(true);
  });

  test('a key with nothing to do meanwhile does not wait: ctrl+t after it opens the filter while the export goes on', async ({ onTestFinished }) => {
    // Results of a filter: ctrl+t would go back to it, but not while the export runs on them.
    const c = await exportHeld(onTestFinished, true);
    // q quits nowhere here: it does nothing now, and does not hold back the key after it.
    await c.press('q');
    await c.press('ctrlT');
    await c.waitForScreen('transferFilter');
    expect(c.sandbox.held()).toBe(1);
    expect(c.exitCode()).toBeUndefined();
    expect(c.navState()!.stack.map((e) => e.route.screen)).toContain('transfers');
    c.sandbox.releaseHeld();
    // The export went on under the filter, to its file.
    await c.waitFor(() => readdirSync(c.exportDir).some((name) => /-all\.csv$/.test(name)), 'the export written', 10_000);
  });
});

describe('the chart while its pages come', () => {
  test('→ acts at once; r, which only the finished chart has, fetches every page again once it is done', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24 });
    await openTransfers(c, { startTime: '20d', limit: '20' });
    // The chart's first page comes at once, its second is held: the chart is loading while the keys come.
    c.sandbox.queueFaults({ kind: 'delay', ms: 0 }, { kind: 'hold' });
    const from = c.requests().length;
    await c.press('v');
    // Two assets or more have come (the title counts them), and pages still come.
    await c.waitForText(/Chart: \S+ 1\/\d+/);
    await c.waitFor(() => c.sandbox.held() === 1, 'the second page held');
    expect(c.frame()).toContain('esc stops');
    await c.press('right');
    expect(c.frame()).toMatch(/Chart: \S+ 2\/\d+/);
    await c.press('r');
    c.sandbox.releaseHeld();
    const firstPages = () => c.requestsOf('GET', from).filter((r) => new URLSearchParams(r.query).get('page') === '1').length;
    await c.waitFor(() => firstPages() === 2, 'the chart fetched again from its first page', 8000);
    await c.waitForText(/All \d+ pages · [\d,]+ transfers/, 8000);
  });
});
