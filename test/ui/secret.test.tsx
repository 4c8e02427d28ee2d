import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { startConsole, type TestConsole } from './harness';
import { fillCreateForm, lineWith, openCreateForm, reachReview } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

describe('SecretReveal', () => {
  test('narrower than 60 columns, the other fields still show when the window has lines for them (58x22)', async () => {
    c = await startConsole({ columns: 58, rows: 22 });
    await openCreateForm(c, c.sandbox.subAccounts[0]!);
    await fillCreateForm(c, { toggle: [0], ip: '203.0.113.7, 198.51.100.20', note: 'narrow' });
    await c.press('enter');
    await c.waitForText('Review:');
    await c.press('enter');
    await c.waitForScreen('secret');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('203.0.113.7');
    expect(lineWith(c.frame(), 'Note')).toContain('narrow');
    expect(lineWith(c.frame(), 'Permissions')).toContain('SPOT_ACCOUNT_READ');
  });

  test('at 80x24, four linked IPs with two long IPv6 addresses are shown whole, on the lines the screen has room for', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const ips = ['2001:db8:85a3:0:0:8a2e:370:7334', '198.51.100.250', '2001:db8:0:0:1:0:0:1f', '203.0.113.7'];
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], ip: ips.join(', '), note: 'four ips' });
    await c.press('enter');
    await c.waitForScreen('secret');
    const frame = c.frame();
    const field = frame.slice(frame.indexOf('Linked IPs'), frame.indexOf('Note'));
    const top = c.navState()!.stack.at(-1)!.route;
    if (top.screen !== 'secret') throw new Error('expected the secret screen');
    for (const ip of top.created.ips) expect(field).toContain(ip);
    expect(field).not.toContain('…');
    expect(field).not.toMatch(/ \+\d/);
  });

  test('masked until revealed, leaves only after confirmation, then gone from screen and state', async () => {
    c = await startConsole({ everyCommit: true });
    const name = c.sandbox.subAccounts[0]!;
    const before = await c.api.listSubAccountKeys(name);
    await reachReview(c, name, { toggle: [0], ip: '203.0.113.7,198.51.100.20', note: 'secret test' });
    await c.press('enter');
    await c.waitForText(`Key created for ${name}`);
    await c.waitForScreen('secret');
    const top = c.navState()!.stack.at(-1)!.route;
    if (top.screen !== 'secret') throw new Error('expected the secret screen');
    const { secretKey, apiKey } = top.created;
    expect(secretKey.length).toBeGreaterThan(16);

    // Masked by default, with the plain warning.
    expect(c.frame()).toContain('it will not be shown again');
    expect(lineWith(c.frame(), 'API key')).toContain(apiKey);
    expect(lineWith(c.frame(), 'Secret key')).toContain('••••');
    expect(c.frames().some((f) => f.includes(secretKey))).toBe(false);
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('203.0.113.7, 198.51.100.20');

    await c.press('v');
    expect(lineWith(c.frame(), 'Secret key')).toContain(secretKey);
    await c.press('v');
    expect(c.frame()).not.toContain(secretKey);
    await c.press('s');
    await c.press('c');
    expect(c.copies).toEqual([secretKey, apiKey]);
    await c.press('v');
    expect(c.frame()).toContain(secretKey);

    // Esc alone does not leave: it asks.
    await c.press('esc');
    await c.waitForText('Have you stored the secret key?');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('secret');
    // Any other key stays.
    await c.press('x');
    expect(c.frame()).not.toContain('Have you stored the secret key?');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('secret');
    await c.press('enter');
    await c.waitForText('Have you stored the secret key?');

    const from = c.frames().length;
    await c.press('y');
    await c.waitForText(`API keys of ${name} · ${before.length + 1} keys`);
    await c.waitForScreen('keys');
    await c.settle(150);

    // Gone from every later frame and from the navigation state.
    const later = c.frames().slice(from);
    expect(later.length).toBeGreaterThan(0);
    expect(later.some((f) => f.includes(secretKey))).toBe(false);
    expect(JSON.stringify(c.navState())).not.toContain(secretKey);
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'keys']);

    // The new key is listed, and the cursor is on it in every frame that lists it: no frame with the cursor
    // elsewhere first (a recording or a fast script would catch that one).
    const shortNew = `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
    const listing = later.map((f) => stripVTControlCharacters(f)).filter((f) => f.includes(`${before.length + 1} keys`));
    expect(listing.length).toBeGreaterThan(0);
    for (const f of listing) {
      const cursorLine = f.split('\n').find((l) => l.startsWith('›')) ?? '';
      expect(cursorLine.includes(apiKey) || cursorLine.includes(shortNew), cursorLine).toBe(true);
    }
    // The new key is listed, and the cursor is on it.
    expect(lineWith(c.frame(), apiKey)).toMatch(/^› /);
    expect(lineWith(c.frame(), apiKey)).toContain('secret test');
    await c.press('enter');
    expect(lineWith(c.frame(), 'API key')).toContain(apiKey);
    expect(c.frame()).not.toContain(secretKey);
  });

  test('a key made without IPs: the review and the secret screen say "none (any address)"', async () => {
    c = await startConsole();
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'no ip' });
    expect(lineWith(c.frame(), 'ip ')).toContain('none (any address)');
    await c.press('enter');
    await c.waitForScreen('secret');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain('none (any address)');
  });

  test('Ctrl-C on the secret screen asks first; a second Ctrl-C exits 130', async () => {
    c = await startConsole();
    await reachReview(c, c.sandbox.subAccounts[1]!);
    await c.press('enter');
    await c.waitForText('Key created for');
    await c.press('ctrlC');
    await c.waitForText('Have you stored the secret key?');
    expect(c.exitCode()).toBeUndefined();
    await c.press('ctrlC');
    expect(c.exitCode()).toBe(130);
  });
});

describe('SecretReveal at 40x12', () => {
  test('the revealed secret, the title and the whole leave prompt fit the window', async () => {
    c = await startConsole();
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0], ip: '203.0.113.7', note: 'small' });
    await c.resize(40, 12);
    await c.press('enter');
    await c.waitForScreen('secret');
    await c.press('v');
    const plain = () => stripVTControlCharacters(c.frame());
    expect(plain()).toContain(`Key created for ${name}`);
    await c.press('enter');
    await c.waitForText('y: leave');
    expect(plain()).toContain(`Key created for ${name}`);
    const lines = plain().split('\n');
    expect(lines.length).toBeLessThanOrEqual(12);
    const prompt = lines.filter((l) => l.includes('stored') || l.includes('stay')).join(' ');
    expect(prompt).toMatch(/y: leave.*other key: stay/u);
    await c.press('x');
    await c.press('s');
    await c.waitForText('Secret key sent');
    expect(plain()).toContain('⚠ Store the secret');
  });
});
