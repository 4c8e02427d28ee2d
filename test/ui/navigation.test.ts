// The screen stack: a screen is on it once, opening it again brings it up as it was, and esc goes back to where the operator came from.
import { describe, expect, test } from 'vitest';
import type { Transfer } from '../../src/api/types';
import { breadcrumbs, initialNavigation, navigationReducer, placeOf, type NavigationAction, type NavigationState, type Route } from '../../src/ui/navigation';
import { subAccountOfTransfer } from '../../src/ui/transferSubAccount';

const run = (...actions: NavigationAction[]): NavigationState => actions.reduce(navigationReducer, initialNavigation);
const push = (route: Route): NavigationAction => ({ type: 'push', route });
const back: NavigationAction = { type: 'back' };
const screens = (state: NavigationState) => state.stack.map((e) => (e.route.screen === 'keys' ? `keys ${e.route.subAccount}` : e.route.screen));
const keysOf = (subAccount: string): Route => ({ screen: 'keys', subAccount });
const auditOf = (subAccount: string): Route => ({ screen: 'keyAudit', subAccounts: [subAccount] });
const query = { fromAccountType: 'SPOT', toAccountType: 'SPOT', toAccount: 'gridbot2901' };

/** No screen twice (a sub-account's keys are a screen each). */
function noRepeat(state: NavigationState): void {
  const places = state.stack.map((e) => placeOf(e.route));
  expect(new Set(places).size, breadcrumbs(state.stack).join(' › ')).toBe(places.length);
}

describe('the screen stack', () => {
  test("keys → a → enter → a … between one sub-account's keys and audit never grows the stack", () => {
    let state = run(push(keysOf('gridbot2901')));
    const keysId = state.stack[1]!.id;
    for (let i = 0; i < 4; i++) {
      state = navigationReducer(state, push(auditOf('gridbot2901')));
      noRepeat(state);
      state = navigationReducer(state, push(keysOf('gridbot2901')));
      noRepeat(state);
    }
    expect(screens(state)).toEqual(['picker', 'keyAudit', 'keys gridbot2901']);
    // The same entry each time: the key list keeps its cursor, search and page (it stays mounted).
    expect(state.stack.at(-1)!.id).toBe(keysId);
    expect(breadcrumbs(state.stack)).toEqual(['Sub-accounts', 'Audit', 'gridbot2901', 'Keys']);
    // Two esc reach the picker, not seven.
    expect(screens(navigationReducer(navigationReducer(state, back), back))).toEqual(['picker']);
  });

  test('keys of X → t → results → K on X: the keys come up as they were; esc goes back along the same path', () => {
    let state = run(
      push(keysOf('gridbot2901')),
      push({ screen: 'transferFilter', subAccount: 'gridbot2901' }),
      push({ screen: 'transfers', query, fromFilter: true }),
    );
    const [picker, keys, filter, results] = state.stack.map((e) => e.id);
    state = navigationReducer(state, push(keysOf('gridbot2901')));
    expect(state.stack.map((e) => e.id)).toEqual([picker, filter, results, keys]);
    expect(breadcrumbs(state.stack)).toEqual(['Sub-accounts', 'Transfers', 'Results', 'gridbot2901', 'Keys']);
    const tops: number[] = [];
    for (let i = 0; i < 4; i++) {
      state = navigationReducer(state, back);
      tops.push(state.stack.at(-1)!.id);
      noRepeat(state);
    }
    expect(tops).toEqual([results, filter, keys, picker]);
    // At the first screen esc does nothing.
    expect(navigationReducer(state, back)).toBe(state);
  });

  test('jumps back and forth never make esc go round in circles: each esc closes a screen or puts one back, once', () => {
    let state = run(push(keysOf('x')), push({ screen: 'transferFilter', subAccount: 'x' }), push({ screen: 'transfers', query }));
    for (let i = 0; i < 5; i++) {
      state = navigationReducer(state, push(keysOf('x')));
      state = navigationReducer(state, push({ screen: 'transferFilter', subAccount: 'x' }));
      state = navigationReducer(state, push(auditOf('x')));
      noRepeat(state);
    }
    let escapes = 0;
    while (state.stack.length > 1) {
      state = navigationReducer(state, back);
      escapes += 1;
      expect(escapes).toBeLessThanOrEqual(2 * 5);
    }
  });

  test('keys of another sub-account are another screen: pushed, named in the breadcrumbs', () => {
    const state = run(push(keysOf('a')), push({ screen: 'transferFilter', subAccount: 'a' }), push({ screen: 'transfers', query }), push(keysOf('b')));
    expect(screens(state)).toEqual(['picker', 'keys a', 'transferFilter', 'transfers', 'keys b']);
    noRepeat(state);
  });

  test('opened for another sub-account, the filter starts afresh (the old form leaves the stack); the same one comes back as it was', () => {
    let state = run(push({ screen: 'transferFilter' }), push({ screen: 'transfers', query }), push(keysOf('b')));
    const oldFilter = state.stack[1]!.id;
    state = navigationReducer(state, push({ screen: 'transferFilter', subAccount: 'b' }));
    expect(screens(state)).toEqual(['picker', 'transfers', 'keys b', 'transferFilter']);
    expect(state.stack.at(-1)!.id).not.toBe(oldFilter);
    const filter = state.stack.at(-1)!.id;
    state = navigationReducer(navigationReducer(state, push(keysOf('c'))), push({ screen: 'transferFilter', subAccount: 'b' }));
    expect(state.stack.at(-1)!.id).toBe(filter);
  });

  test('a search is always new results: the old ones leave the stack, so "Results" is never there twice', () => {
    let state = run(push({ screen: 'transferFilter' }), push({ screen: 'transfers', query }));
    const old = state.stack.at(-1)!.id;
    state = navigationReducer(state, push({ screen: 'transfers', query }));
    expect(screens(state)).toEqual(['picker', 'transferFilter', 'transfers']);
    expect(state.stack.at(-1)!.id).not.toBe(old);
  });

  test('a filter opened over results is not the form below them: both stay, esc returns to the results', () => {
    const state = run(push({ screen: 'transferFilter' }), push({ screen: 'transfers', query }), push({ screen: 'transferFilter', overResults: true }));
    expect(screens(state)).toEqual(['picker', 'transferFilter', 'transfers', 'transferFilter']);
    expect(screens(navigationReducer(state, back))).toEqual(['picker', 'transferFilter', 'transfers']);
  });

  test('y on a secret with no key list of its sub-account below it lands on that key list, never on an empty stack', () => {
    const created = { subAccount: 'desk1', note: 'n', apiKey: 'mx0vk', secretKey: 's', permissions: [], ips: [], createdAt: 0 };
    const alone: NavigationState = { stack: [{ id: 0, route: { screen: 'secret', created } }], nextId: 1, helpOpen: false };
    const landed = navigationReducer(alone, { type: 'returnToKeys', subAccount: 'desk1', highlightApiKey: 'mx0vk' });
    expect(landed.stack.map((e) => e.route)).toEqual([{ screen: 'keys', subAccount: 'desk1', highlightApiKey: 'mx0vk', refreshToken: 1 }]);
    expect(new Set([...landed.stack.map((e) => e.id), landed.nextId]).size).toBe(landed.stack.length + 1);
    const overPicker = run(push({ screen: 'secret', created }), { type: 'returnToKeys', subAccount: 'desk1' });
    expect(screens(overPicker)).toEqual(['picker', 'keys desk1']);
    expect(JSON.stringify(overPicker)).not.toContain('secretKey');
  });

  test('the audit opening a key brings the key list up with the cursor asked for', () => {
    let state = run(push(keysOf('a')), push(auditOf('a')));
    state = navigationReducer(state, push({ screen: 'keys', subAccount: 'a', highlightApiKey: 'k2' }));
    expect(state.stack.at(-1)!.route).toMatchObject({ screen: 'keys', subAccount: 'a', highlightApiKey: 'k2' });
    // Again on the same key: a new landing, so the cursor goes back to it wherever it was moved since.
    const first = state.stack.at(-1)!.route;
    state = navigationReducer(navigationReducer(state, push(auditOf('a'))), push({ screen: 'keys', subAccount: 'a', highlightApiKey: 'k2' }));
    expect(state.stack.at(-1)!.route).not.toEqual(first);
    // Without a key to land on, the list comes up exactly as it was.
    const before = state.stack.at(-1)!.route;
    state = navigationReducer(navigationReducer(state, push(auditOf('a'))), push(keysOf('a')));
    expect(state.stack.at(-1)!.route).toBe(before);
  });
});

const transfer = (fromAccount: string, toAccount: string): Transfer =>
  ({
    tranId: '1',
    clientTranId: '',
    fromAccount,
    toAccount,
    asset: 'USDT',
    amount: '1',
    fromAccountType: 'SPOT',
    toAccountType: 'SPOT',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: 0,
  }) as Transfer;

describe("a transfer's sub-account", () => {
  test('the side the query names; a blank side is the master', () => {
    expect(subAccountOfTransfer({ toAccount: 'x' }, transfer('master', 'x'))).toEqual({ ok: true, subAccount: 'x' });
    expect(subAccountOfTransfer({ fromAccount: 'x' }, transfer('x', 'master'))).toEqual({ ok: true, subAccount: 'x' });
  });

  test('between two sub-accounts: the destination', () => {
    expect(subAccountOfTransfer({ fromAccount: 'x', toAccount: 'y' }, transfer('x', 'y'))).toEqual({ ok: true, subAccount: 'y' });
  });

  test('master to master: none, and why', () => {
    const found = subAccountOfTransfer({}, transfer('master', 'master'));
    expect(found).toEqual({ ok: false, reason: expect.stringContaining('both sides are the master') });
    // A service that reads both blank as "from the master to anyone": the source is the master, the other a sub-account.
    expect(subAccountOfTransfer({}, transfer('master', 'y'))).toEqual({ ok: true, subAccount: 'y' });
  });
});
