// The review names what the key audit would flag, in words; against a LIVE target a key that can withdraw or
// transfer, or that has no IP, is sent only once the sub-account's name is typed. Read-only keys and the demo
// send on enter as before, and esc back to the form keeps what was typed.
import { isIP } from 'node:net';
import { describe, expect, test } from 'vitest';
import { displayWidth } from '../../src/terminal/text';
import { consoleFor, type TestConsole } from './harness';
import { fillCreateForm, lineWith, openKeys, reachReview } from './flows';

const posts = (c: TestConsole) => c.requestsOf('POST');
// Indexes into the checklist (KNOWN_PERMISSIONS): 0 SPOT_ACCOUNT_READ, 1 SPOT_ACCOUNT_WRITE, 9 SPOT_WITHDRAW_WRITE, 11 SPOT_TRANSFER_WRITE.
const READ = 0;
const WRITE = 1;
const WITHDRAW = 9;
const TRANSFER = 11;

describe('the review names the risks', () => {
  test.concurrent('demo: write, withdraw, transfer and no IP are named in words; enter still sends at once', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [WRITE, WITHDRAW, TRANSFER], note: 'risky demo' });
    const frame = c.frame();
    expect(frame).toContain('⚠ no-ip: no linked IP: any address can use it');
    expect(frame).toContain('⚠ write: can change the account or trade: SPOT_ACCOUNT_WRITE');
    expect(frame).toContain('⚠ withdraw: can withdraw funds: SPOT_WITHDRAW_WRITE');
    expect(frame).toContain('⚠ transfer: can transfer between accounts: SPOT_TRANSFER_WRITE');
    expect(frame).not.toContain('Confirm');
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(1);
  });

  test.concurrent('a read-only key with an IP names nothing', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live' });
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [READ], ip: '203.0.113.7', note: 'reader' });
    expect(c.frame()).not.toContain('⚠');
    expect(c.frame()).not.toContain('Confirm');
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(1);
  });
});

describe('LIVE: a risky key waits for the typed name', () => {
  test.concurrent('no IP: enter does nothing until the name matches, and says why; then it sends once', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live' });
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [READ], note: 'from anywhere' });
    expect(c.frame()).toContain('⚠ no-ip: no linked IP: any address can use it');
    expect(lineWith(c.frame(), 'Confirm')).toContain(`type ${name}`);
    await c.press('enter');
    await c.waitForText(`✗ Not sent: type ${name} in Confirm first`);
    // A wrong name is not enough either; e and y are typed, not commands.
    await c.type(`${name.slice(0, -1)}ey`);
    await c.press('enter');
    await c.waitForText(`✗ Not sent: type ${name} in Confirm first`);
    await c.settle(100);
    expect(posts(c)).toHaveLength(0);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('createKey');
    await c.press('backspace', 2);
    await c.type(name.slice(-1));
    expect(c.frame()).not.toContain('✗ Not sent');
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(1);
  });

  test.concurrent('after an unknown outcome, an edited review offers no Confirm field (nothing can be sent from it)', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live' });
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [READ], note: 'from anywhere' });
    await c.type(name);
    c.sandbox.queueFaults({ kind: 'status', status: 500 });
    await c.press('enter');
    await c.waitForText('the key may exist');
    await c.press('e');
    await c.waitForText(`New API key for ${name}`);
    await c.type(' v2');
    await c.press('enter');
    await c.waitForText('Not sent yet');
    expect(c.frame()).not.toContain('Confirm');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('createKey');
    expect(posts(c)).toHaveLength(1);
  });

  test.concurrent('withdraw or transfer with an IP needs it too; esc goes back to the form with everything typed', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live' });
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [READ, WITHDRAW], ip: '203.0.113.7', note: 'payout bot' });
    expect(c.frame()).toContain('⚠ withdraw: can withdraw funds: SPOT_WITHDRAW_WRITE');
    expect(c.frame()).toContain('Confirm');
    await c.type('half');
    await c.press('esc');
    await c.waitForText(`New API key for ${name}`);
    expect(c.frame()).toContain('[x] SPOT_WITHDRAW_WRITE');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('203.0.113.7');
    expect(lineWith(c.frame(), 'Note')).toContain('payout bot');
    // Back on the review, the confirmation starts empty: it was for what was shown then.
    await c.press('enter');
    await c.waitForText('Review:');
    expect(lineWith(c.frame(), 'Confirm')).not.toContain('half');
    await c.press('enter');
    await c.waitForText('✗ Not sent');
    expect(posts(c)).toHaveLength(0);
  });

  test.concurrent('a write key with an IP is named but needs no confirmation', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live' });
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [WRITE], ip: '203.0.113.7', note: 'trader' });
    expect(c.frame()).toContain('⚠ write: can change the account or trade: SPOT_ACCOUNT_WRITE');
    expect(c.frame()).not.toContain('Confirm');
    await c.press('enter');
    await c.waitForText('Key created for');
  });

  test.concurrent('at 40x12 the risks, the confirmation and the fields fit', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live', columns: 40, rows: 12 });
    const name = c.sandbox.subAccounts[0]!;
    await openKeys(c, name);
    await c.press('n');
    await c.waitForText('Permissions · 0 chosen');
    await fillCreateForm(c, { toggle: [WITHDRAW, TRANSFER], note: 'small' });
    await c.press('enter');
    await c.waitForText('Review: exactly what will be sent');
    const frame = c.frame();
    for (const line of frame.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(frame).toContain('⚠ flags: no-ip, withdraw, transfer');
    // Taller than the window: read to its end first, then the name is asked for.
    expect(frame).toContain('↓ to its end, type the name');
    while (!c.frame().includes('↑ back')) await c.press('down');
    expect(c.frame()).toContain('Type the name to send · esc edits');
    expect(frame).toContain('Confirm');
    expect(frame).toContain('subAccount');
    // Confirm's value starts in the column of the other fields' values.
    expect(lineWith(frame, 'Confirm').indexOf(`type ${name}`)).toBe(lineWith(frame, 'subAccount').indexOf(name));
    // Enter before the name: the reason why nothing was sent is whole, not cut.
    await c.press('enter');
    await c.waitForText('✗ Not sent');
    expect(lineWith(c.frame(), '✗ Not sent').trimEnd()).toBe('✗ Not sent: type the name in Confirm');
    expect(posts(c)).toHaveLength(0);
    await c.type(name);
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(1);
  });
});

describe('what will be sent, taller than the window', () => {
  test.concurrent('40x12, LIVE: every line is shown whole by scrolling, and it is sent only once read to its end', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { mode: 'live', columns: 40, rows: 12 });
    const name = c.sandbox.subAccounts[0]!;
    const ips = ['2001:db8:85a3::8a2e:370:7334', '2001:db8:aaaa:bbbb:cccc:dddd:eeee:2', '198.51.100.20', '203.0.113.7'];
    const note = 'withdrawal bot for the APAC desk, rotated monthly';
    await openKeys(c, name);
    await c.press('n');
    await c.waitForText('Permissions · 0 chosen');
    await fillCreateForm(c, { toggle: [READ, WITHDRAW], ip: ips.join(','), note });
    await c.press('enter');
    await c.waitForText('Review: exactly what will be sent');
    // The field lines seen, by their place in the whole (the line under them says which are on screen).
    const lines: string[] = [];
    const read = () => {
      const frame = c.frame().split('\n');
      const at = frame.findIndex((line) => /^lines \d+–\d+ of \d+/.test(line));
      const [, first, last] = /^lines (\d+)–(\d+)/.exec(frame[at]!)!;
      const count = Number(last) - Number(first) + 1;
      frame.slice(at - count, at).forEach((line, i) => (lines[Number(first) - 1 + i] = line.slice(13)));
    };
    read();
    expect(c.frame()).toMatch(/lines 1–\d+ of \d+ · ↓ more/);
    // What the screen says to do is read on first; the footer offers it.
    expect(c.frame()).toContain('↓ to its end, type the name');
    expect(c.frame()).toContain('↓ read on');
    for (const line of c.frame().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    await c.type(name);
    await c.press('enter');
    await c.waitForText('✗ Not sent: ↓ shows the rest first');
    for (let i = 0; i < 12 && !c.frame().includes('↑ back'); i++) {
      await c.press('down');
      read();
    }
    expect(c.frame()).toContain('↑ back');
    // At the end, with the name typed: enter sends, and the footer no longer says to read on.
    await c.waitForText('enter sends · esc edits');
    expect(c.frame()).not.toContain('↓ read on');
    // Read in order, the lines are every value whole (wrapped, nothing cut; a piece of an address carried over
    // starts with …).
    const squeezed = (text: string) => text.replace(/\s+/g, '');
    expect(squeezed(lines.join('').replace(/…/g, ''))).toBe(squeezed([name, 'SPOT_ACCOUNT_READ,SPOT_WITHDRAW_WRITE', ips.join(','), note].join('')));
    // No line reads as an address that is not one of those sent (an IPv6 address broken inside a group would).
    for (const line of lines) {
      const text = line.trim().replace(/,$/, '');
      if (isIP(text) !== 0) expect(ips).toContain(text);
    }
    expect(posts(c)).toHaveLength(0);
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(1);
  });
});
