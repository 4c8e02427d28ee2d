// Moving between screens carries the context: t opens a sub-account's transfers, K the keys of a transfer's
// sub-account, keys and audit of one sub-account take turns, and esc comes back to each screen as it was left.
import { afterEach, describe, expect, test } from 'vitest';
import type { TransferQuery } from '../../src/api/types';
import { footerLine } from '../../src/ui/components/Footer';
import { matchesFilter } from '../../src/ui/hooks/useRowFilter';
import { breadcrumbs, placeOf } from '../../src/ui/navigation';
import { transferSearchText } from '../../src/ui/transferTable';
import { startConsole, type TestConsole } from './harness';
import { lineWith, openKeys, seededAccounts, setFilter } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

const CTRL_R = '\u0012';
const top = () => c.navState()!.stack.at(-1)!;
const crumbs = () => breadcrumbs(c.navState()!.stack);
function noScreenTwice(): void {
  const places = c.navState()!.stack.map((e) => placeOf(e.route));
  expect(new Set(places).size, crumbs().join(' › ')).toBe(places.length);
}

/** A sub-account the master sent at least `rows` SPOT→SPOT transfers to. */
async function busyDestination(rows: number): Promise<string> {
  for (const name of c.sandbox.subAccounts) {
    const page = await c.api.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'SPOT', toAccount: name, page: 1, limit: rows });
    if (page.length === rows) return name;
  }
  throw new Error(`no sub-account has ${rows} transfers from the master`);
}

describe('t: the transfers of the sub-account in view', () => {
  test('from the key list: the filter names it as the destination; ctrl+r reverses; esc comes back to the keys as they were', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    // A kept search and the cursor on its second match.
    const needle = busyKeys[0]!.permissions[0]!.slice(0, 4);
    const matching = busyKeys.filter((k) => matchesFilter([k.note, k.apiKey, k.permissions.join(',')].join('\n'), needle)).length;
    expect(matching).toBeGreaterThanOrEqual(2);
    await c.press('/');
    await c.type(needle);
    await c.press('enter');
    await c.press('down');
    await c.waitForText(`2/${matching}`);

    await c.press('t');
    await c.waitForText('Universal transfers: filter');
    expect(top().route).toEqual({ screen: 'transferFilter', subAccount: busy });
    expect(lineWith(c.frame(), 'To account')).toContain(busy);
    expect(lineWith(c.frame(), 'From account')).toContain('blank: the master account');
    expect(c.frame()).toContain('^r reverse');
    await c.press(CTRL_R);
    await c.waitFor(() => lineWith(c.frame(), 'From account').includes(busy), 'the sub-account as the source');
    expect(lineWith(c.frame(), 'To account')).toContain('blank: the master account');
    expect(lineWith(c.frame(), 'From type')).toContain('FUTURES');
    expect(lineWith(c.frame(), 'To type')).toContain('SPOT');
    await c.press(CTRL_R);
    await c.waitFor(() => lineWith(c.frame(), 'To account').includes(busy), 'the sub-account as the destination again');
    await c.press('enter');
    await c.waitForText(/Page 1 · \d+ per page/);
    expect(lineWith(c.frame(), 'Filter:').trimEnd()).toBe(`Filter: SPOT → FUTURES · to ${busy}`);
    const asked = new URLSearchParams(c.requestsOf('GET').at(-1)!.query);
    expect(asked.get('toAccount')).toBe(busy);
    expect(asked.has('fromAccount')).toBe(false);
    expect(crumbs()).toEqual(['Sub-accounts', busy, 'Keys', 'Transfers', 'Results']);

    await c.press('esc');
    await c.waitForScreen('transferFilter');
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.waitForText(`2/${matching}`);
    expect(c.frame()).toContain(`/ ${needle}`);
    expect(c.frame()).toContain(`${matching} of ${busyKeys.length} keys`);
  });

  test('from the key detail, and from a row of the key audit', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('enter');
    await c.waitForText(`of ${busy}`);
    expect(c.frame()).toContain('t transfers');
    await c.press('t');
    await c.waitForScreen('transferFilter');
    expect(lineWith(c.frame(), 'To account')).toContain(busy);
    await c.press('esc');
    await c.waitForScreen('keys');
    // The detail is still open, as it was left.
    expect(c.frame()).toContain('Linked IPs');
    await c.press('esc');
    await c.press('a');
    await c.waitForScreen('keyAudit');
    await c.waitForNoText('Auditing');
    await c.press('down');
    await c.press('t');
    await c.waitForScreen('transferFilter');
    expect(top().route).toEqual({ screen: 'transferFilter', subAccount: busy });
    expect(lineWith(c.frame(), 'To account')).toContain(busy);
    noScreenTwice();
  });
});

describe('typed ahead', () => {
  test("t and enter in one chunk: the sub-account's transfers; K and esc in one chunk: back on the same row", async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const name = await busyDestination(3);
    await c.type(name);
    await c.press('enter');
    await c.waitForText(new RegExp(`API keys of ${name} · \\d+ keys?`));
    await c.chunk('t', 'enter');
    await c.waitForText(/Page 1 · 500 per page · \d+ rows/);
    expect(top().route).toMatchObject({ screen: 'transfers', query: { toAccount: name } });
    await c.press('down');
    await c.waitForText('row 2');
    await c.chunk('K', 'esc');
    await c.waitForScreen('transfers');
    await c.waitForText('row 2');
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'keys', 'transferFilter', 'transfers']);
  });
});

describe("K: the keys of a transfer's sub-account", () => {
  test('page 3, sorted by amount, searched: K opens the keys of its sub-account, esc comes back to the same page, sort, search and row', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const name = await busyDestination(30);
    await c.type(name);
    await c.press('enter');
    await c.waitForScreen('keys');
    await c.press('t');
    await c.waitForScreen('transferFilter');
    await setFilter(c, { toAccountType: 'SPOT', limit: '10' });
    await c.press('enter');
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    const query = (top().route as { query: TransferQuery }).query;
    await c.press('n');
    await c.waitForText('Page 2 · 10 per page · 10 rows');
    await c.press('n');
    await c.waitForText('Page 3 · 10 per page · 10 rows');
    await c.press('o');
    await c.waitForText(/sorted by amount/);
    const page3 = await c.api.listUniversalTransfers({ ...query, page: 3, limit: 10 });
    const needle = page3[0]!.asset;
    const shown = page3.filter((t) => matchesFilter(transferSearchText(t), needle)).length;
    await c.press('/');
    await c.type(needle);
    await c.press('enter');
    await c.waitForText(`${shown} of 10 rows`);
    if (shown >= 2) {
      await c.press('down');
      await c.waitForText('row 2');
    }
    const row = shown >= 2 ? 'row 2' : 'row 1';
    const before = c
      .frame()
      .split('\n')
      .filter((l) => l.startsWith('›'));

    await c.press('K');
    await c.waitForScreen('keys');
    await c.waitForText(`API keys of ${name}`);
    // The key list it came from, brought up: no screen is on the stack twice.
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'transferFilter', 'transfers', 'keys']);
    noScreenTwice();

    await c.press('esc');
    await c.waitForScreen('transfers');
    await c.waitForText('Page 3 · 10 per page');
    const frame = c.frame();
    expect(frame).toContain(`${shown} of 10 rows`);
    expect(frame).toContain(row);
    expect(frame).toContain('sorted by amount');
    expect(frame).toContain(`/ ${needle}`);
    expect(frame.split('\n').filter((l) => l.startsWith('›'))).toEqual(before);
    // On back along the way it came (the first esc clears the kept search): the filter, the key list it was opened from, the picker.
    await c.press('esc');
    await c.waitForText(/10 rows · row \d+/);
    // The search cleared, the selected transfer is still the one selected.
    expect(
      c
        .frame()
        .split('\n')
        .filter((l) => l.startsWith('›')),
    ).toEqual(before);
    await c.press('esc');
    await c.waitForScreen('transferFilter');
    await c.press('esc');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'keys']);
    await c.press('esc');
    await c.waitForScreen('picker');
  });

  test('K from the detail; esc comes back to the detail. Master to master: K says so and stays', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const name = await busyDestination(5);
    await c.press('ctrlT');
    await c.waitForScreen('transferFilter');
    await setFilter(c, { toAccountType: 'SPOT', toAccount: name, limit: '5' });
    await c.press('enter');
    await c.waitForText('Page 1 · 5 per page · 5 rows');
    await c.resize(200, 30);
    await c.waitFor(() => c.frame().includes('K keys'), 'K offered in the footer');
    await c.resize(100, 30);
    await c.press('enter');
    await c.waitForText('Transfer id');
    expect(c.frame()).toContain('K keys');
    await c.press('K');
    await c.waitForText(`API keys of ${name}`);
    expect(crumbs()).toEqual(['Sub-accounts', 'Transfers', 'Results', name, 'Keys']);
    await c.press('esc');
    await c.waitForScreen('transfers');
    expect(c.frame()).toContain('Transfer id');

    // Master to master (both accounts blank, as the service reads them).
    await c.press('esc');
    await c.press('f');
    await c.waitForScreen('transferFilter');
    await setFilter(c, { toAccountType: 'FUTURES', toAccount: '' });
    await c.press('enter');
    await c.waitForText(/Page 1 · 5 per page · \d+ rows/);
    expect(c.frame()).toContain('from master · to master');
    await c.press('K');
    await c.waitForText('both sides are the master account');
    expect(top().route.screen).toBe('transfers');
    // The footer does not offer K here; the help says why it does nothing.
    await c.resize(200, 30);
    await c.waitFor(() => c.frame().includes('v chart'), 'the whole footer');
    expect(c.frame()).not.toContain('K keys');
    await c.press('?');
    await c.waitForText('Both sides are the master account: no sub-account keys (K says so)');
    await c.press('?');
    await c.resize(100, 30);
    await c.press('enter');
    await c.waitForText('Transfer id');
    await c.press('K');
    await c.waitForText('both sides are the master account');
    expect(top().route.screen).toBe('transfers');
  });
});

describe('keys and audit of one sub-account', () => {
  test('a and enter take turns on one screen each: the stack does not grow and two esc reach the picker', async () => {
    c = await startConsole({ columns: 120, rows: 30 });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    const keysId = top().id;
    for (let i = 0; i < 3; i++) {
      await c.press('a');
      await c.waitForScreen('keyAudit');
      await c.waitForNoText('Auditing');
      noScreenTwice();
      await c.press('enter');
      await c.waitForScreen('keys');
      noScreenTwice();
    }
    expect(c.navState()!.stack).toHaveLength(3);
    expect(top().id).toBe(keysId);
    // enter on a flagged key lands on it, each time, wherever the cursor was moved since (the audit, as it was
    // left, still has that key selected the second time).
    let flaggedBefore: string | undefined;
    for (let i = 0; i < 2; i++) {
      await c.press('a');
      await c.waitForScreen('keyAudit');
      await c.waitForNoText('Auditing');
      if (i === 0) await c.press('down');
      await c.press('enter');
      await c.waitForScreen('keys');
      const flagged = (top().route as { highlightApiKey?: string }).highlightApiKey!;
      expect(flagged).toBeDefined();
      if (flaggedBefore !== undefined) expect(flagged).toBe(flaggedBefore);
      flaggedBefore = flagged;
      await c.waitFor(
        () =>
          (
            c
              .frame()
              .split('\n')
              .find((l) => l.startsWith('›')) ?? ''
          ).includes(flagged),
        'the cursor on the flagged key',
      );
      await c.press('down');
      await c.press('down');
      await c.waitFor(
        () =>
          !(
            c
              .frame()
              .split('\n')
              .find((l) => l.startsWith('›')) ?? ''
          ).includes(flagged),
        'the cursor moved off it',
      );
    }
    expect(c.frame().split('\n')[0]).not.toMatch(/Audit.*Audit|Keys.*Keys/);
    await c.press('esc');
    await c.waitForScreen('keyAudit');
    await c.press('esc');
    await c.waitForScreen('picker');
  });
});

describe('the new keys in the footers', () => {
  test('offered where there is room, after the keys a screen cannot do without (at 40 columns those stay)', () => {
    expect(footerLine('keyDetail', 100)).toBe('c copy key  enter close  j/k next/prev  t transfers  ? help');
    expect(footerLine('keyDetail', 40)).toContain('enter close');
    expect(footerLine('transferFilter', 100)).toContain('enter search  ^r reverse');
    expect(footerLine('transferFilter', 40)).toContain('enter search');
    expect(footerLine('transferDetail', 40)).toContain('enter close');
    expect(footerLine('transferDetail', 100)).toContain('enter close  K keys');
    expect(footerLine('transferDetail', 100, { noSubAccount: true })).not.toContain('K keys');
  });
});

describe('the filter line at 40 columns', () => {
  test('t ctrl+r enter: FUTURES → SPOT from the sub-account keeps its whole name in view', async () => {
    c = await startConsole({ columns: 40, rows: 12 });
    const name = 'gridbot2901';
    expect(c.sandbox.subAccounts).toContain(name);
    await openKeys(c, name);
    await c.press('t');
    await c.waitForText('Universal transfers: filter');
    await c.press(CTRL_R);
    await c.waitFor(() => lineWith(c.frame(), 'From account').includes(name), 'the sub-account as the source');
    await c.press('enter');
    await c.waitForText(/Page 1 · \d+ per page/);
    expect(c.frame()).toContain(`FUTURES → SPOT · from ${name}`);
  });
});

describe("another sub-account's filter", () => {
  test('t after a filter turned the other way opens on what the master sent; ctrl+t says whose filter it brings back', async () => {
    c = await startConsole({ columns: 120, rows: 30 });
    const [first, second] = ['gridbot2901', 'mmbot5143'];
    await openKeys(c, first);
    await c.press('t');
    await c.waitForText('Universal transfers: filter');
    await c.press(CTRL_R);
    await c.waitFor(() => lineWith(c.frame(), 'From account').includes(first), 'the sub-account as the source');
    await c.press('enter');
    await c.waitForText(`FUTURES → SPOT · from ${first}`);
    for (const screen of ['transferFilter', 'keys', 'picker'] as const) {
      await c.press('esc');
      await c.waitForScreen(screen);
    }
    await openKeys(c, second);
    // ctrl+t brings back the last filter: it says it is the first sub-account's.
    await c.press('ctrlT');
    await c.waitForText(`as you left it: ${first} → master`);
    await c.press('esc');
    await c.waitForScreen('keys');
    // t opens this one's: from the master to it, types the right way round.
    await c.press('t');
    await c.waitFor(() => lineWith(c.frame(), 'To account').includes(second), 'this sub-account as the destination');
    expect(lineWith(c.frame(), 'From type')).toContain('SPOT');
    expect(lineWith(c.frame(), 'To type')).toContain('FUTURES');
    expect(lineWith(c.frame(), 'From account')).toContain('blank: the master account');
  });
});

describe('the audit opens a key the kept search hides', () => {
  test('/ tax, a, enter on another key: the search gives way and the cursor is on that key', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const kept = busyKeys[0]!.apiKey;
    const needle = kept.slice(-6);
    await c.press('/');
    await c.type(needle);
    await c.press('enter');
    await c.waitForText(`1 of ${busyKeys.length} keys`);
    await c.press('a');
    await c.waitForScreen('keyAudit');
    await c.waitForNoText('Auditing');
    const cursorLine = () =>
      c
        .frame()
        .split('\n')
        .find((l) => l.startsWith('›')) ?? '';
    // Down the rows to a key row of another key than the one the search keeps.
    let wanted: string | undefined;
    for (let i = 0; i < 20 && wanted === undefined; i++) {
      await c.press('down');
      const shown = busyKeys.find((k) => k.apiKey !== kept && cursorLine().includes(k.apiKey));
      wanted = shown?.apiKey;
    }
    expect(wanted).toBeDefined();
    await c.press('enter');
    await c.waitForScreen('keys');
    await c.waitFor(() => cursorLine().includes(wanted!), 'the cursor on the key chosen in the audit');
    expect(c.frame()).toContain(`${busyKeys.length} keys`);
    expect(c.frame()).not.toContain(`/ ${needle}`);
    // A search typed afterwards is kept, though it hides that key.
    await c.press('/');
    await c.type(needle);
    await c.press('enter');
    await c.waitForText(`1 of ${busyKeys.length} keys`);
    await c.settle(100);
    expect(c.frame()).toContain(`/ ${needle}`);
  });
});
