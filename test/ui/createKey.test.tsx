import { describe, expect, test } from 'vitest';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import { consoleFor, type OnFinished, type TestConsole } from './harness';
import { CTRL_U, fillCreateForm, lineWith, openCreateForm, openKeys, reachReview, type FormInput } from './flows';

const posts = (c: TestConsole) => c.requestsOf('POST');

/** The form shows exactly these choices and texts: what going back to it must keep. */
function expectForm(frame: string, form: { checked: number[]; other: string; ip: string; ipCount: number; note: string }) {
  KNOWN_PERMISSIONS.forEach((permission, i) => expect(frame).toContain(`[${form.checked.includes(i) ? 'x' : ' '}] ${permission}`));
  expect(lineWith(frame, 'Other')).toContain(form.other);
  expect(lineWith(frame, 'Linked IPs')).toContain(form.ip);
  expect(frame).toContain(`${form.ipCount}/4`);
  expect(lineWith(frame, 'Note')).toContain(form.note);
}

/** A console on the create form of the first sub-account. */
async function start(onTestFinished: OnFinished): Promise<TestConsole> {
  const c = await consoleFor(onTestFinished);
  await openCreateForm(c, c.sandbox.subAccounts[0]!);
  return c;
}

describe.concurrent('CreateKeyScreen: validation (nothing is sent)', () => {
  test.for<[string, FormInput, string, string]>([
    ['five IPs', { toggle: [0], ip: '192.0.2.1,192.0.2.2,192.0.2.3,192.0.2.4,192.0.2.5', note: 'n' }, 'at most 4 addresses (got 5)', '5/4'],
    ['a bad IP', { toggle: [0], ip: '192.0.2.300', note: 'n' }, "'192.0.2.300' is not an IPv4 or IPv6 address", '1/4'],
    ['a duplicate IP', { toggle: [0], ip: '192.0.2.1, 192.0.2.1', note: 'n' }, "'192.0.2.1' is listed twice", '2/4'],
    ['a CIDR range', { toggle: [0], ip: '192.0.2.0/24', note: 'n' }, "'192.0.2.0/24' is a range (CIDR); give single addresses", '1/4'],
    ['no permissions', { ip: '', note: 'n' }, 'at least one is required (e.g. SPOT_ACCOUNT_READ)', '0/4'],
    ['no note', { toggle: [0], ip: '192.0.2.1' }, 'required (a short description of the key)', '1/4'],
  ])('%s', async ([, input, message, counter], { onTestFinished }) => {
    const c = await start(onTestFinished);
    await fillCreateForm(c, input);
    expect(c.frame()).toContain(`Linked IPs  ${input.ip || 'optional'}`.slice(0, 20));
    expect(c.frame()).toContain(counter);
    await c.press('enter');
    await c.waitForText(`✗ ${message}`);
    expect(c.frame()).not.toContain('Review');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('createKey');
    await c.settle(100);
    expect(posts(c)).toHaveLength(0);
  });

  test('IP errors show live, before enter; a trailing comma is still typing', async ({ onTestFinished }) => {
    const c = await start(onTestFinished);
    await c.press('tab');
    await c.press('tab');
    await c.type('192.0.2.1,');
    expect(c.frame()).toContain('1/4');
    expect(c.frame()).not.toContain('✗');
    await c.type('192.0.2.2');
    expect(c.frame()).toContain('2/4');
    expect(c.frame()).not.toContain('✗');
    await c.type(',10.0.0.0/8');
    expect(c.frame()).toContain('3/4');
    expect(c.frame()).toContain("✗ '10.0.0.0/8' is a range (CIDR)");
    await c.press('backspace', ',10.0.0.0/8'.length);
    expect(c.frame()).toContain('2/4');
    expect(c.frame()).not.toContain('✗');
    expect(posts(c)).toHaveLength(0);
  });
});

describe.concurrent('CreateKeyScreen: fields', () => {
  test('Tab and Shift-Tab move the focus, wrapping around', async ({ onTestFinished }) => {
    const c = await start(onTestFinished);
    const focused = () =>
      c
        .frame()
        .split('\n')
        .find((l) => l.startsWith('› '))!;
    expect(focused()).toContain('Permissions');
    await c.press('tab');
    expect(focused()).toContain('Other');
    await c.press('tab');
    expect(focused()).toContain('Linked IPs');
    await c.press('tab');
    expect(focused()).toContain('Note');
    await c.press('tab');
    expect(focused()).toContain('Permissions');
    await c.press('shiftTab');
    expect(focused()).toContain('Note');
    await c.press('shiftTab');
    expect(focused()).toContain('Linked IPs');
    // Typed text lands in the focused field.
    await c.type('192.0.2.9');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('192.0.2.9');
    expect(lineWith(c.frame(), 'Note')).not.toContain('192.0.2.9');
  });

  test('space toggles the highlighted permission; arrows move in the checklist', async ({ onTestFinished }) => {
    const c = await start(onTestFinished);
    expect(c.frame()).toContain('(0 chosen');
    await c.press('space');
    expect(c.frame()).toContain(`[x] ${KNOWN_PERMISSIONS[0]}`);
    expect(c.frame()).toContain('(1 chosen');
    await c.press('down');
    await c.press('right');
    await c.press('space');
    expect(c.frame()).toContain(`[x] ${KNOWN_PERMISSIONS[3]}`);
    expect(c.frame()).toContain('(2 chosen');
    await c.press('space');
    expect(c.frame()).toContain(`[ ] ${KNOWN_PERMISSIONS[3]}`);
    expect(c.frame()).toContain('(1 chosen');
    // Space in a text field is text, not a toggle.
    await c.press('tab');
    await c.press('tab');
    await c.press('tab');
    await c.type('two words');
    expect(lineWith(c.frame(), 'Note')).toContain('two words');
    expect(c.frame()).toContain('(1 chosen');
  });

  test('the count says what will be sent: a permission ticked and typed again in Other, in any case, counts once', async ({ onTestFinished }) => {
    const c = await start(onTestFinished);
    await c.press('space');
    await c.press('tab');
    await c.type(`${KNOWN_PERMISSIONS[0]!.toLowerCase()}, ${KNOWN_PERMISSIONS[0]}`);
    await c.waitForText('(1 chosen');
    await c.type(`, ${KNOWN_PERMISSIONS[1]}`);
    await c.waitForText('(2 chosen');
  });

  test('q and ? are typed into text fields; the console does not quit', async ({ onTestFinished }) => {
    const c = await start(onTestFinished);
    await c.press('tab');
    await c.press('tab');
    await c.press('tab');
    await c.type('quick? q');
    expect(lineWith(c.frame(), 'Note')).toContain('quick? q');
    expect(c.exitCode()).toBeUndefined();
    expect(c.navState()!.helpOpen).toBe(false);
  });

  test('the review shows exactly the fields that will be sent', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0, 2], other: 'read_only', ip: ' 203.0.113.7 ,2001:db8::1', note: '  desk bot  ' });
    const frame = c.frame();
    const fields = frame
      .split('\n')
      .map((l) => /^(subAccount|permissions|ip|note)\s+(.*?)\s*$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]);
    expect(fields).toEqual([
      ['subAccount', name],
      ['permissions', 'SPOT_ACCOUNT_READ,SPOT_DEAL_READ,read_only'],
      ['ip', '203.0.113.7,2001:db8::1'],
      ['note', 'desk bot'],
    ]);
    expect(frame).toContain('enter sends · e edits (nothing is sent)');
    await c.settle(100);
    expect(posts(c)).toHaveLength(0);
  });

  test('commas and spaces after the last address (a pasted list ending ",, ") are not an empty address', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], ip: '203.0.113.7, 198.51.100.20,, ', note: 'pasted' });
    expect(lineWith(c.frame(), 'ip ')).toContain('203.0.113.7,198.51.100.20');
    expect(c.frame()).not.toContain('empty address');
  });

  test('a Linked IPs field of separators alone is still an empty address, not "any address"', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await openCreateForm(c, c.sandbox.subAccounts[0]!);
    await fillCreateForm(c, { toggle: [0], ip: ', ', note: 'commas only' });
    await c.press('enter');
    await c.waitForText('empty address before the first comma');
    expect(c.frame()).not.toContain('Review:');
  });

  test('a review without IPs says the key works from any address', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'anywhere' });
    expect(lineWith(c.frame(), 'ip ')).toContain('none (any address)');
  });
});

describe('CreateKeyScreen: sending', () => {
  // Alone (not concurrent): the three enters must land while the POST is held (a hold fault, released after).
  test('submit once: three quick enters while the POST is in flight send one request', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!);
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('enter');
    await c.press('enter');
    await c.press('y');
    await c.press('enter');
    expect(c.frame()).toContain('Creating the key…');
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText('Key created for');
    await c.settle(200);
    expect(posts(c)).toHaveLength(1);
    expect(posts(c)[0]!.path).toBe('/api/v3/broker/sub-account/apiKey');
  });

  test.concurrent('an error keeps every typed value: e goes back to the form intact', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0, 1], other: 'read_only', ip: '203.0.113.7,198.51.100.20', note: 'kept note' });
    // A rate limit refuses before anything is done: the one create failure that may be sent again from here.
    c.sandbox.queueFaults({ kind: 'status', status: 429 });
    await c.press('enter');
    await c.waitForText('(enter retry)');
    const errorLines = c
      .frame()
      .split('\n')
      .filter((l) => l.includes('✗ create key failed'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('HTTP 429');
    expect(c.frame()).toMatch(/✗ create key 429 · \d+ ms/);
    expect(posts(c)).toHaveLength(1);

    await c.press('e');
    await c.waitForText(`New API key for ${name}`);
    expectForm(c.frame(), { checked: [0, 1], other: 'read_only', ip: '203.0.113.7,198.51.100.20', ipCount: 2, note: 'kept note' });

    // And it can be sent again from there.
    await c.press('enter');
    await c.waitForText('Review');
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(2);
  });

  test.concurrent('outcome unknown: says the key may exist, never resends, r opens the refreshed key list', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    const before = await c.api.listSubAccountKeys(name);
    await reachReview(c, name, { toggle: [0], note: 'maybe created' });
    c.sandbox.queueFaults({ kind: 'reset-after-handling' });
    await c.press('enter');
    await c.waitForText('the key may exist');
    expect(c.frame()).toContain('Press r to open the key list, refreshed');
    expect(posts(c)).toHaveLength(1);
    await c.press('enter');
    await c.press('y');
    await c.settle(150);
    expect(posts(c)).toHaveLength(1);
    expect(c.frame()).toContain('the key may exist');

    const gets = c.requestsOf('GET').length;
    await c.press('r');
    await c.waitForText(`API keys of ${name} · ${before.length + 1} keys`);
    expect(c.requestsOf('GET').length).toBeGreaterThan(gets);
    expect(c.frame()).toContain('maybe created');
    await c.waitFor(() => c.navState()!.stack.length === 2, 'two screens');
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'keys']);
    expect(posts(c)).toHaveLength(1);
  });
});

describe.concurrent('CreateKeyScreen: a 5xx or -1006/-1007 to a create is an unknown outcome', () => {
  test.for<[string, { status: number; code?: number; msg?: string }]>([
    ['500', { status: 500 }],
    ['503', { status: 503 }],
    ['-1007 with HTTP 400', { status: 400, code: -1007, msg: 'Timeout waiting for response from backend server.' }],
  ])('%s: the key may exist, enter resends nothing (nor does e then enter), r offers the refreshed key list', async ([, fault], { onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    const before = await c.api.listSubAccountKeys(name);
    await reachReview(c, name, { toggle: [0], note: 'after a 5xx' });
    c.sandbox.queueFaults({ kind: 'status', ...fault });
    await c.press('enter');
    await c.waitForText('the key may exist');
    expect(c.frame()).toContain('Press r to open the key list, refreshed');
    expect(c.frame()).toContain('r check the key list');
    expect(c.frame()).not.toContain('(enter retry)');
    await c.press('enter');
    await c.press('e');
    await c.waitForText(`New API key for ${name}`);
    await c.press('enter');
    await c.waitForText('Review');
    // The same values: they were sent.
    expect(c.frame()).toContain('The request was sent, but its answer did not come');
    await c.press('enter');
    await c.settle(150);
    expect(posts(c)).toHaveLength(1);
    expect(c.frame()).toContain('the key may exist');
    // Edited values were never sent, and the review says so; enter says why it sends nothing.
    await c.press('e');
    await c.waitForText(`New API key for ${name}`);
    // The form opens where it was left: on the note.
    expect(c.frame()).toContain('› Note');
    await c.type(' v2');
    await c.press('enter');
    await c.waitForText('after a 5xx v2');
    expect(c.frame()).toContain('Not sent yet: the create sent before these edits got no answer');
    expect(c.frame()).not.toContain('The request was sent');
    await c.press('enter');
    await c.waitForText('✗ Not sent: check the key list first (r)');
    expect(posts(c)).toHaveLength(1);
    // At 40x12 the same, in short words that fit.
    await c.resize(40, 12);
    await c.waitForText('⚠ Not sent: the last create may exist.');
    expect(c.frame()).toContain('✗ Not sent: r checks the list first.');
    await c.resize(100, 30);

    await c.press('r');
    await c.waitForText(`API keys of ${name} · ${before.length} key${before.length === 1 ? '' : 's'}\n`);
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'keys']);
    expect(posts(c)).toHaveLength(1);
  });
});

describe.concurrent('CreateKeyScreen: a draft left behind', () => {
  /** From the form back to the picker, its name cleared: ready to open another sub-account. */
  const formToPicker = async (c: TestConsole) => {
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('esc');
    await c.waitForScreen('picker');
    await c.type(CTRL_U);
  };
  const focusedLine = (c: TestConsole) =>
    c
      .frame()
      .split('\n')
      .find((l) => l.startsWith('› '))!;

  test('esc keeps what was typed: n on the same sub-account resumes it, focus where it was; nothing is sent', async ({ onTestFinished }) => {
    const c = await start(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    await fillCreateForm(c, { toggle: [0, 1], other: 'read_only', ip: '203.0.113.7, 2001:db8::1', note: '注释🙂 desk bot' });
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('n');
    await c.waitForText(`New API key for ${name} · as you left it`);
    expectForm(c.frame(), { checked: [0, 1], other: 'read_only', ip: '203.0.113.7, 2001:db8::1', ipCount: 2, note: '注释🙂 desk bot' });
    expect(focusedLine(c)).toContain('Note');
    // It goes on as any form: typing edits the kept text, enter reviews exactly it.
    await c.type('!');
    await c.press('enter');
    await c.waitForText('Review');
    expect(lineWith(c.frame(), 'note')).toContain('注释🙂 desk bot!');
    expect(posts(c)).toHaveLength(0);
  });

  test('a created key drops its draft: the next form starts empty', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0], note: 'made once' });
    await c.press('enter');
    await c.waitForScreen('secret');
    await c.press('enter');
    await c.waitForText('Have you stored the secret key?');
    await c.press('y');
    await c.waitForScreen('keys');
    await c.press('n');
    await c.waitForText(`New API key for ${name}`);
    expect(c.frame()).not.toContain('as you left it');
    expect(c.frame()).toContain('0 chosen');
    expect(lineWith(c.frame(), 'Note')).not.toContain('made once');
    expect(posts(c)).toHaveLength(1);
  });

  test('a created key the kept / filter would hide: the filter gives way and the cursor is on the new key', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    await openKeys(c, name);
    const total = Number(/API keys of \S+ · (\d+) keys?/.exec(c.frame())![1]);
    await c.press('/');
    await c.type('zzz-matches-nothing');
    await c.press('enter');
    await c.waitForText('no key matches the filter');
    await c.press('n');
    await c.waitForText(`New API key for ${name}`);
    await fillCreateForm(c, { toggle: [0], ip: '203.0.113.9', note: 'filtered' });
    await c.press('enter');
    await c.waitForText('Review: this is exactly what will be sent');
    await c.press('enter');
    await c.waitForScreen('secret');
    await c.press('enter');
    await c.waitForText('Have you stored the secret key?');
    await c.press('y');
    await c.waitForText(`API keys of ${name} · ${total + 1} keys`);
    const cursorLine = () =>
      c
        .frame()
        .split('\n')
        .find((l) => l.startsWith('›')) ?? '';
    await c.waitFor(() => cursorLine().includes('filtered '), 'the cursor on the created key');
    expect(c.frame()).not.toContain('zzz-matches-nothing');
  });

  test('drafts are per sub-account, and a form left blank leaves none', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const [first, second] = c.sandbox.subAccounts as [string, string];
    await openCreateForm(c, first);
    await fillCreateForm(c, { note: 'for the first' });
    await formToPicker(c);
    await openCreateForm(c, second);
    expect(c.frame()).not.toContain('as you left it');
    expect(lineWith(c.frame(), 'Note')).not.toContain('for the first');
    // Typed, then cleared: nothing to resume.
    await fillCreateForm(c, { note: 'x' });
    await c.press('backspace');
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('n');
    await c.waitForText(`New API key for ${second}`);
    expect(c.frame()).not.toContain('as you left it');
    await formToPicker(c);
    await openCreateForm(c, first);
    await c.waitForText(`New API key for ${first} · as you left it`);
    expect(lineWith(c.frame(), 'Note')).toContain('for the first');
  });

  test('after an unknown outcome, r opens the key list and n brings the form back to send again if the key is not there', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0], ip: '203.0.113.7', note: 'maybe not made' });
    // Reset before handling: the key was not created, but the console cannot know that.
    c.sandbox.queueFaults({ kind: 'reset' });
    await c.press('enter');
    await c.waitForText('the key may exist');
    await c.press('r');
    await c.waitForScreen('keys');
    expect(c.frame()).not.toContain('maybe not made');
    await c.press('n');
    await c.waitForText(`New API key for ${name} · as you left it`);
    expect(lineWith(c.frame(), 'Note')).toContain('maybe not made');
    await c.press('enter');
    await c.waitForText('Review');
    await c.press('enter');
    await c.waitForScreen('secret');
    expect(posts(c)).toHaveLength(2);
  });
});
