import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeAll, afterAll, describe, expect, test } from 'vitest';
import { startConsole, type TestConsole } from './harness';
import { lineWith, openKeys, seededAccounts } from './flows';
import { NO_IP } from '../../src/format/noIp';

let c: TestConsole;
afterEach(async () => c?.cleanup());

// Created times are shown in local time: a zone far from UTC makes that visible.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Kathmandu';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

/** Local time as "YYYY-MM-DD HH:MM[:SS]", computed independently of the console's helper. */
function local(ms: number, seconds = false): string {
  const text = new Date(ms).toLocaleString('sv-SE', { hour12: false });
  return seconds ? text : text.slice(0, 16);
}

describe('KeyList', () => {
  test('a slow answer shows the loading spinner, then the rows', async () => {
    c = await startConsole();
    const { busy } = await seededAccounts(c);
    // Held until the spinner shows, however long that takes on a busy machine; then answered.
    c.sandbox.queueFaults({ kind: 'hold' });
    await openKeys(c, busy, { wait: false });
    await c.waitForText('Loading keys…');
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText(new RegExp(`API keys of ${busy} · \\d+ keys`));
    expect(c.frame()).not.toContain('Loading keys…');
  });

  test('a fast answer never shows the spinner', async () => {
    c = await startConsole({ everyCommit: true });
    const { busy } = await seededAccounts(c); // also warms the connection
    const from = c.frames().length;
    await openKeys(c, busy);
    await c.settle(150);
    expect(
      c
        .frames()
        .slice(from)
        .some((f) => f.includes('Loading keys')),
    ).toBe(false);
  });

  test('rows show note, API key, permissions, IPs and the created time in local time', async () => {
    c = await startConsole({ columns: 220, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const frame = c.frame();
    expect(frame).toContain(`API keys of ${busy} · ${busyKeys.length} keys`);
    expect(frame).toMatch(/NOTE +API KEY +PERMISSIONS +IPS +CREATED/);
    for (const key of busyKeys) {
      const line = lineWith(frame, key.apiKey);
      expect(line).toContain(key.note);
      expect(line).toContain(key.permissions.join(',').slice(0, 30));
      expect(line).toContain(key.ips.length === 0 ? NO_IP : key.ips[0]!);
      expect(line).toContain(local(Number(key.createdAt)));
    }
    // The rows come in the service's order.
    const order = busyKeys.map((k) => frame.indexOf(k.apiKey));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(frame).toContain(`1/${busyKeys.length}`);
  });

  test('a key with no linked IP says so in one wording, in the list and the detail', async () => {
    c = await startConsole({ columns: 160, rows: 40 });
    const { busy, busyKeys } = await seededAccounts(c);
    const at = busyKeys.findIndex((k) => k.ips.length === 0);
    expect(at).toBeGreaterThanOrEqual(0);
    const key = busyKeys[at]!;
    await openKeys(c, busy);
    expect(lineWith(c.frame(), key.apiKey)).toContain(NO_IP);
    expect(lineWith(c.frame(), key.apiKey).replace(NO_IP, '')).not.toMatch(/\bany\b|—|\(none:/);
    await c.press('down', at);
    await c.press('enter');
    await c.waitForText('Linked IPs');
    expect(lineWith(c.frame(), 'Linked IPs')).toContain(NO_IP);
    expect(lineWith(c.frame(), 'Linked IPs')).not.toContain('—');
  });

  test('clearing a / filter keeps the cursor on its key, typed or kept', async () => {
    c = await startConsole({ columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    expect(busyKeys.length).toBeGreaterThan(3);
    await openKeys(c, busy);
    const at = busyKeys.length - 2;
    const key = busyKeys[at]!;
    for (const keep of [false, true]) {
      await c.press('/');
      await c.type(key.apiKey.slice(-12));
      await c.waitForText(/1 of \d+/);
      if (keep) await c.press('enter');
      await c.press('esc');
      await c.waitForText(`${at + 1}/${busyKeys.length}`);
      expect(lineWith(c.frame(), key.apiKey)).toMatch(/^›/);
      // Back on the first row for the next round.
      await c.press('up', at);
      await c.waitForText(`1/${busyKeys.length}`);
    }
  });

  test('narrow terminals show the short API key', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const key = busyKeys[0]!.apiKey;
    expect(c.frame()).not.toContain(key);
    expect(c.frame()).toContain(`${key.slice(0, 4)}…${key.slice(-4)}`);
  });

  test('an empty sub-account shows the empty state', async () => {
    c = await startConsole();
    const { empty } = await seededAccounts(c);
    await c.type(empty);
    await c.press('enter');
    await c.waitForText(`No API keys for ${empty} yet.`);
    expect(c.frame()).toContain(`API keys of ${empty} · 0 keys`);
    expect(c.frame()).toContain('Press n to create one.');
    expect(c.frame()).not.toContain('API KEY');
  });

  test('while a load tries again after a failed try, its spinner says so (and says no more once it has loaded)', async () => {
    c = await startConsole();
    const { busy } = await seededAccounts(c);
    c.sandbox.queueFaults({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    // Tries slow enough for the spinner (this console's own backoff between tries is a few ms).
    c.sandbox.setFaultRates({ latencyMs: 150 });
    const from = c.frames().length;
    await openKeys(c, busy, { wait: false });
    await c.waitForText(/API keys of \S+ · \d+ keys/);
    // In a frame while it loaded, however short.
    expect(
      c
        .frames()
        .slice(from)
        .some((f) => /Loading keys… — trying again \(try [12] answered 503\)/.test(stripVTControlCharacters(f))),
    ).toBe(true);
    expect(c.frame()).not.toContain('trying again');
    expect(c.frame()).toMatch(/✓ list keys 200 · \d+ ms · try 3/);
  });

  test('an error shows whole with the retry key; r retries and shows the rows', async () => {
    c = await startConsole();
    const { busy, busyKeys } = await seededAccounts(c);
    const lineCount = c.rawFrame().split('\n').length;
    // Three tries in all for a GET: three 503s exhaust them.
    c.sandbox.queueFaults({ kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await openKeys(c, busy, { wait: false });
    await c.waitForText('(r retry)');
    // The error whole, wrapped (the service's code 503 says what to do), the retry key at its end.
    const lines = c.frame().split('\n');
    const first = lines.findIndex((l) => l.includes('✗ list keys failed'));
    const last = lines.findIndex((l) => l.includes('(r retry)'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(last).toBeGreaterThanOrEqual(first);
    expect(lines.slice(first, last + 1).join(' ')).toMatch(
      /^✗ list keys failed \(HTTP 503 code 503\): .* — the service is busy or down: try again\s+later\s+\(r retry\)\s*$/,
    );
    expect(c.rawFrame().split('\n')).toHaveLength(lineCount);
    expect(c.frame()).not.toContain(busyKeys[0]!.apiKey);
    expect(c.frame()).toMatch(/✗ list keys 503 · \d+ ms · try 3/);

    await c.press('r');
    await c.waitForText(busyKeys[0]!.apiKey);
    expect(c.frame()).not.toContain('(r retry)');
    expect(c.frame()).toMatch(/✓ list keys 200 · \d+ ms/);
  });

  test('refresh (r) reloads the list', async () => {
    c = await startConsole();
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    const before = c.requestsOf('GET').length;
    await c.press('r');
    await c.settle(150);
    expect(c.requestsOf('GET').length).toBe(before + 1);
    expect(c.requests().at(-1)!.query).toContain(`subAccount=${busy}`);
  });

  test('the detail view shows every field with the full API key, and copies it', async () => {
    c = await startConsole({ columns: 80, rows: 24 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('down');
    await c.press('j');
    const key = busyKeys[2]!;
    expect(c.frame()).toContain(`3/${busyKeys.length}`);
    await c.press('enter');
    await c.waitForText(`Key ${key.apiKey.slice(0, 4)}…${key.apiKey.slice(-4)} of ${busy}`);
    const frame = c.frame();
    expect(lineWith(frame, 'Note')).toContain(key.note);
    expect(lineWith(frame, 'API key')).toContain(key.apiKey);
    expect(frame.replace(/\s+/g, ' ')).toContain(key.permissions.join(', '));
    expect(lineWith(frame, 'Linked IPs')).toContain(key.ips.length === 0 ? NO_IP : key.ips.join(', '));
    expect(lineWith(frame, 'Created')).toContain(`${local(Number(key.createdAt), true)} (local) · ${new Date(key.createdAt).toISOString()}`);

    await c.press('c');
    expect(c.copies).toEqual([key.apiKey]);
    await c.waitForText(`API key sent to the test clipboard: ${key.apiKey.slice(0, 4)}…${key.apiKey.slice(-4)}`);
    await c.press('enter');
    await c.waitForText(`API keys of ${busy}`);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
  });

  test('c copies the selected API key from the list', async () => {
    c = await startConsole();
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('down');
    await c.press('c');
    expect(c.copies).toEqual([busyKeys[1]!.apiKey]);
    await c.waitForText(`API key sent to the test clipboard: ${busyKeys[1]!.apiKey.slice(0, 4)}…${busyKeys[1]!.apiKey.slice(-4)}`);
  });
});
