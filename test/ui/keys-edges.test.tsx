// The keys side at its edges: a hostile service (escape sequences, CR-LF, bidi overrides, a 200,000-character
// field) and hostile names never reach the terminal raw; CJK and emoji keep the table and the review aligned;
// the footer and the review follow the request's state; the recent list keeps only sub-accounts that exist.
import React from 'react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import { memoryDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { memoryRecentSubAccounts, type RecentSubAccounts } from '../../src/config/recentSubAccounts';
import { displayWidth } from '../../src/terminal/text';
import { App } from '../../src/ui/App';
import { createExchangeLog } from '../../src/ui/exchangeLog';
import type { Route } from '../../src/ui/navigation';
import type { ConsoleServices } from '../../src/ui/services';
import { makeTheme } from '../../src/ui/theme';
import { consoleFor, KEYS, type OnFinished, sleep, type TestConsole, expectFits } from './harness';
import { fillCreateForm, lineWith, openCreateForm, openKeys, reachReview } from './flows';
import { renderInTerminal } from './terminal';

// ---- hostile text ----

const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
const TITLE = '\u001b]0;owned\u0007';
const CSI = '\u001b[2J\u001b[H';
const CRLF = 'one\r\nFAKE OUTPUT LINE';
const BIDI = '\u202egnp.exe';
const C1 = '\u009b31mred';
const RAW = '\u0007\u0000\u007f';

/** What must never be in a frame (after Ink's own colour codes are taken out): ESC, BEL, NUL, DEL, CR, C1, bidi. */
function expectClean(raw: string, what: string): void {
  const withoutSgr = raw.replace(/\u001b\[[0-9;]*m/g, '');
  const bad = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.exec(withoutSgr);
  expect(bad, `${what}: ${JSON.stringify(bad?.[0])} at ${bad?.index} in\n${stripVTControlCharacters(raw)}`).toBeNull();
}

interface WireKey {
  note: string;
  apiKey: string;
  permissions: string;
  ip: string;
  creatTime: number;
}

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const HOSTILE_KEYS: WireKey[] = [
  { note: `bot ${OSC52}${TITLE} end`, apiKey: `mx0v${CSI}hostile0001`, permissions: `SPOT_ACCOUNT_READ,${BIDI}`, ip: `192.0.2.1,${CRLF}`, creatTime: T0 },
  { note: `${C1}${RAW}`, apiKey: 'mx0vplainkey000000000000000000002', permissions: `read_only${TITLE}`, ip: '', creatTime: T0 + 1000 },
  { note: 'x'.repeat(200_000), apiKey: `mx0v${'y'.repeat(200_000)}`, permissions: 'z'.repeat(200_000), ip: '1'.repeat(200_000), creatTime: T0 + 2000 },
];
const WIDE_KEYS: WireKey[] = [
  { note: '日本語のメモ', apiKey: 'mx0vcjk00000000000000000000000001', permissions: 'SPOT_ACCOUNT_READ', ip: '192.0.2.1', creatTime: T0 },
  { note: '🚀 rocket 👩‍💻 dev', apiKey: 'mx0vemoji000000000000000000000002', permissions: 'SPOT_DEAL_READ', ip: '', creatTime: T0 + 1000 },
  { note: 'e\u0301te\u0301 café', apiKey: 'mx0vcombining00000000000000000003', permissions: 'SPOT_DEAL_WRITE', ip: '2001:db8::1', creatTime: T0 + 2000 },
  {
    note: 'plain ascii note',
    apiKey: 'mx0vascii0000000000000000000000004',
    permissions: 'SPOT_ACCOUNT_READ,SPOT_DEAL_READ',
    ip: '198.51.100.7',
    creatTime: T0 + 3000,
  },
  { note: '한국어 메모와 中文备注', apiKey: 'mx0vhangul00000000000000000000005', permissions: 'SPOT_ACCOUNT_WRITE', ip: '', creatTime: T0 + 4000 },
];

/** A service that answers the key list with crafted JSON, and every other call with a hostile error. */
async function hostileService(
  keys: Record<string, WireKey[] | { status: number; code: number; msg: string }>,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', Date: new Date().toUTCString() });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') {
        const found = keys[url.searchParams.get('subAccount') ?? ''] ?? keys['*'];
        if (!found) return answer(400, { code: 140001, msg: `sub account does not exist ${OSC52}` });
        if (Array.isArray(found)) return answer(200, { subAccount: found });
        return answer(found.status, { code: found.code, msg: found.msg });
      }
      return answer(400, { code: 700004, msg: `bad ${TITLE}${CRLF}${BIDI} parameter` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Mounted {
  raw(): string;
  frames(): readonly string[];
  frame(): string;
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
  waitForText(text: string | RegExp): Promise<void>;
  resize(columns: number, rows: number): Promise<void>;
  recent: RecentSubAccounts;
  copies: string[];
  close(): Promise<void>;
}

/** The real App, with a real client pointed at the hostile service; target, profile and recent names hostile too. */
async function mountHostile(options: {
  columns: number;
  rows: number;
  keys: Parameters<typeof hostileService>[0];
  recent?: string[];
  initialRoute?: Route;
  /** Every React commit drawn: for checks of every frame. */
  everyCommit?: boolean;
}): Promise<Mounted> {
  const service = await hostileService(options.keys);
  const api = createBrokerApi({ baseUrl: service.baseUrl, apiKey: 'k', secretKey: 's', retryBaseDelayMs: 1 });
  const recent = memoryRecentSubAccounts(options.recent ?? []);
  const copies: string[] = [];
  const exchanges = createExchangeLog();
  const services: ConsoleServices = {
    api,
    mode: 'live',
    host: `evil${TITLE}.example:443`,
    profile: `ops${OSC52}`,
    credentialSource: `env${BIDI}`,
    discovered: memoryDiscoveredSubAccounts(),
    exchanges,
    recent,
    suggestions: [],
    copy: async (text) => {
      copies.push(text);
      return `sent ${TITLE}`;
    },
    exporter: {} as ConsoleServices['exporter'],
    theme: makeTheme(false),
    now: Date.now,
  };
  const terminal = renderInTerminal(<App services={services} onExit={() => undefined} initialRoute={options.initialRoute} />, {
    columns: options.columns,
    rows: options.rows,
    everyCommit: options.everyCommit ?? false,
  });
  const raw = () => terminal.stdout.lastFrame() ?? '';
  const frame = () => stripVTControlCharacters(raw());
  const drained = () => terminal.handled();
  await terminal.listening();
  return {
    raw,
    frame,
    frames: () => terminal.stdout.frames,
    async press(key) {
      terminal.write((KEYS as Record<string, string>)[key] ?? key);
      await drained();
    },
    async type(text) {
      for (const ch of text) {
        terminal.write(ch);
        await drained();
      }
    },
    async waitForText(text) {
      const until = Date.now() + 4000;
      const ok = () => (typeof text === 'string' ? frame().includes(text) : text.test(frame()));
      for (;;) {
        if (ok()) {
          await terminal.drawn();
          if (ok()) return;
        }
        if (Date.now() > until) throw new Error(`timed out waiting for ${String(text)}:\n${frame()}`);
        await sleep(5);
      }
    },
    resize: (columns, rows) => terminal.resize(columns, rows),
    recent,
    copies,
    async close() {
      terminal.unmount();
      await api.close().catch(() => undefined);
      await service.close();
    },
  };
}

async function mounted(onTestFinished: OnFinished, options: Parameters<typeof mountHostile>[0]): Promise<Mounted> {
  const m = await mountHostile(options);
  onTestFinished(() => m.close());
  return m;
}

// Concurrent: each test has its own service and console; they mostly wait for renders and answers, well within
// the time each detail is allowed.
describe.concurrent('hostile text from the service and from names never reaches the terminal raw', () => {
  test.for([
    [40, 12],
    [80, 24],
    [200, 60],
  ] as const)('key list, key detail, copy, header and status bar at %ix%i', { timeout: 30_000 }, async ([columns, rows], { onTestFinished }) => {
    const m = await mounted(onTestFinished, { columns, rows, keys: { '*': HOSTILE_KEYS }, initialRoute: { screen: 'picker' }, everyCommit: true });
    await m.type('hostilesub');
    await m.press('enter');
    await m.waitForText('· 3 keys');
    const list = m.frame();
    // Visible marks where the controls were: the operator sees that something odd came.
    expect(list).toContain('␛');
    // One line per key: a CR-LF in a field never starts a line of its own.
    expect(list).not.toContain('FAKE OUTPUT LINE\n');
    expect(list.split('\n').filter((l) => /^[› ] /.test(l) && l.includes('mx0v')).length).toBe(3);
    expectFits(m.raw(), columns, rows, 'hostile key list');
    // The first key's API key holds an escape sequence: it is not copied (pasted into a shell it could run a command).
    await m.press('c');
    await m.waitForText('✗ The API key was not copied');
    // Every key's detail, the 200,000-character one too (cut before layout: it renders at once).
    for (let i = 0; i < HOSTILE_KEYS.length; i++) {
      const started = Date.now();
      await m.press('enter');
      await m.waitForText('Linked IPs');
      expect(Date.now() - started).toBeLessThan(1500);
      expectFits(m.raw(), columns, rows, `hostile key detail ${i}`);
      await m.press('c');
      await m.press('enter');
      await m.press('down');
    }
    // Only the keys a terminal can show are copied, each as sent; the notice says what was done before which key.
    expect(m.copies).toEqual([HOSTILE_KEYS[1]!.apiKey, HOSTILE_KEYS[2]!.apiKey]);
    expect(m.frame()).toContain('API key sent ␛]0;owned␇: mx0v…');
    // The header (host) and the status bar (profile, source) are outside text too.
    expect(m.frame().split('\n')[0]).toContain('evil␛]0;own');
    expect(m.frame()).toContain('ops␛]52');
    for (const [i, raw] of m.frames().entries()) expectClean(raw, `frame ${i}`);
  });

  test('an error msg from the service: sanitised, wrapped whole, and no retry for a 400', async ({ onTestFinished }) => {
    const m = await mounted(onTestFinished, {
      columns: 60,
      rows: 20,
      everyCommit: true,
      keys: { refused: { status: 400, code: 700004, msg: `bad ${OSC52}${TITLE}${CRLF}${BIDI} ${'long words '.repeat(6)}end` } },
    });
    await m.type('refused');
    await m.press('enter');
    await m.waitForText('list keys failed');
    await m.waitForText('end');
    expect(m.frame()).toContain('␛]52');
    expect(m.frame()).not.toContain('retry)');
    expectFits(m.raw(), 60, 20, 'error');
    for (const raw of m.frames()) expectClean(raw, 'error frames');
  });

  test('a create refused with a hostile msg: shown sanitised, no retry offered, enter sends nothing more', async ({ onTestFinished }) => {
    const m = await mounted(onTestFinished, { columns: 80, rows: 24, keys: { '*': [] }, everyCommit: true });
    await m.type('emptysub');
    await m.press('enter');
    await m.waitForText('· 0 keys');
    await m.press('n');
    await m.waitForText('Permissions (');
    await m.press('space');
    // An IP: a LIVE key without one would first ask for the sub-account's name.
    for (let i = 0; i < 2; i++) await m.press('tab');
    await m.type('203.0.113.7');
    await m.press('tab');
    await m.type('note');
    await m.press('enter');
    await m.waitForText('Review:');
    await m.press('enter');
    await m.waitForText('create key failed');
    expect(m.frame()).toContain('␛]0;owned␇');
    expect(m.frame()).toContain('<U+202E>');
    expect(m.frame()).not.toContain('(enter retry)');
    expect(m.frame().split('\n').at(-1)).toContain('e edit the form');
    expect(m.frame().split('\n').at(-1)).not.toContain('enter send');
    for (const raw of m.frames()) expectClean(raw, 'create error frames');
  });

  test('recent names from the file and the breadcrumbs: sanitised; a name with a bidi override opens marked', async ({ onTestFinished }) => {
    const names = [`${TITLE}evil`, `good${BIDI}`, `tab\tname${OSC52}`];
    const m = await mounted(onTestFinished, { columns: 80, rows: 24, keys: { '*': WIDE_KEYS }, recent: names, everyCommit: true });
    expect(m.frame()).toContain('␛]0;owned␇evil');
    expect(m.frame()).toContain('good<U+202E>gnp.exe');
    expect(m.frame()).toContain('tab␉name␛]52');
    await m.press('down');
    await m.press('down');
    await m.press('enter');
    await m.waitForText('· 5 keys');
    expect(m.frame().split('\n')[0]).toContain('<U+202E>gnp.exe › Keys');
    expect(m.frame()).toContain('API keys of good<U+202E>gnp.exe');
    // The name with controls is refused before anything is sent; its text is shown marked. (The name just
    // opened is now the most recent, so the one with the title sequence is second.)
    await m.press('esc');
    await m.waitForText('Choose a sub-account');
    await m.press('down');
    await m.press('down');
    await m.press('enter');
    await m.waitForText('control characters');
    for (const raw of m.frames()) expectClean(raw, 'picker frames');
  });
});

// ---- widths as the eye sees them ----

/** Display offset at which `needle` starts on a line. */
const offsetOf = (line: string, needle: string | RegExp): number => {
  const at = typeof needle === 'string' ? line.indexOf(needle) : (needle.exec(line)?.index ?? -1);
  expect(at, `${String(needle)} in ${line}`).toBeGreaterThanOrEqual(0);
  return displayWidth(line.slice(0, at));
};

describe.concurrent('CJK, emoji and combining marks keep columns aligned', () => {
  test.for([40, 60, 80, 120, 200])('the keys table at %i columns', async (columns, { onTestFinished }) => {
    const m = await mounted(onTestFinished, { columns, rows: 20, keys: { '*': WIDE_KEYS } });
    await m.type('widesub');
    await m.press('enter');
    await m.waitForText('· 5 keys');
    const lines = m.frame().split('\n');
    const header = lines.find((l) => l.includes('NOTE') && l.includes('API KEY'))!;
    const rows = lines.filter((l) => l.includes('mx0v'));
    expect(rows).toHaveLength(WIDE_KEYS.length);
    const keyAt = offsetOf(header, 'API KEY');
    const permissionsAt = offsetOf(header, 'PERMISSIO');
    for (const row of rows) {
      expect(offsetOf(row, 'mx0v'), row).toBe(keyAt);
      expect(offsetOf(row, /SPOT_/), row).toBe(permissionsAt);
      expect(displayWidth(row)).toBeLessThanOrEqual(columns);
    }
    if (columns >= 60) {
      const createdAt = offsetOf(header, 'CREATED');
      for (const row of rows) expect(offsetOf(row, /\d{4}-\d\d-\d\d \d\d:\d\d/), row).toBe(createdAt);
    }
    // Whole notes where they fit.
    if (columns >= 200) for (const key of WIDE_KEYS) expect(m.frame()).toContain(key.note);
    // Column widths do not depend on the rows: the same at another list.
    await m.press('down');
    const again = m
      .frame()
      .split('\n')
      .find((l) => l.includes('NOTE') && l.includes('API KEY'));
    expect(again).toBe(header);
  });

  test.for([40, 80])('the review at %i columns', async (columns, { onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns, rows: 24 });
    const name = c.sandbox.subAccounts[0]!;
    await openKeys(c, name);
    await c.press('n');
    await c.waitForText(/Permissions (\(|·)/);
    await fillCreateForm(c, { toggle: [0], ip: '203.0.113.7', note: '日本語 🚀 café 👩‍💻 メモ' });
    await c.press('enter');
    await c.waitForText('Review:');
    const lines = c.frame().split('\n');
    const valueAt = offsetOf(lineWith(c.frame(), 'subAccount'), name);
    expect(offsetOf(lineWith(c.frame(), 'permissions '), 'SPOT_ACCOUNT_READ')).toBe(valueAt);
    expect(offsetOf(lineWith(c.frame(), 'ip '), '203.0.113.7')).toBe(valueAt);
    expect(offsetOf(lineWith(c.frame(), 'note '), '日本語')).toBe(valueAt);
    expect(c.frame()).toContain('日本語 🚀 café 👩‍💻 メモ');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
  });
});

// ---- what the screen says matches what the keys do ----

const footer = (c: TestConsole) => c.frame().split('\n').at(-1)!;
const posts = (c: TestConsole) => c.requestsOf('POST');

describe('the review follows the request', () => {
  // Alone (not concurrent): e and esc must land while the POST is held for 700 ms.
  test('in flight: the footer says keys do nothing until the answer, and nothing else is offered', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!);
    expect(footer(c)).toContain('enter send');
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('enter');
    await c.waitForText('Creating the key');
    expect(footer(c)).toContain('sending… keys do nothing until the answer');
    expect(footer(c)).not.toContain('enter send');
    expect(footer(c)).not.toContain('esc back');
    await c.press('e');
    await c.press('esc');
    expect(c.frame()).toContain('Creating the key');
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(1);
  });

  test.concurrent('outcome unknown: the footer offers r (the list), never enter', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'maybe' });
    c.sandbox.queueFaults({ kind: 'reset-after-handling' });
    await c.press('enter');
    await c.waitForText('the key may exist');
    expect(footer(c)).toContain('r check the key list');
    expect(footer(c)).not.toContain('enter send');
    // Editing does not clear it: the review after an edit still says the key may exist, and sends nothing.
    await c.press('e');
    await c.waitForText(/Permissions (\(|·)/);
    await c.press('enter');
    await c.waitForText('Review:');
    expect(c.frame()).toContain('the key may exist');
    await c.press('enter');
    await c.settle(150);
    expect(posts(c)).toHaveLength(1);
  });

  test.concurrent('a 400 for invalid input: no retry offered, enter sends nothing more, the footer says edit', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!);
    c.sandbox.queueFaults({ kind: 'status', status: 400, code: 700004, msg: 'Mandatory parameter note is malformed' });
    await c.press('enter');
    await c.waitForText('create key failed (HTTP 400 code 700004)');
    expect(c.frame()).not.toContain('(enter retry)');
    expect(c.frame()).toContain('Sending it again would fail the same way');
    expect(footer(c)).toContain('e edit the form');
    expect(footer(c)).not.toContain('enter send');
    await c.press('enter');
    await c.press('y');
    await c.settle(150);
    expect(posts(c)).toHaveLength(1);
  });

  test.concurrent("a corrected form: its review does not show the previous attempt's error", async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'first try' });
    // A 429 refuses before anything is done (a 5xx would leave the outcome unknown: no retry then).
    c.sandbox.queueFaults({ kind: 'status', status: 429 });
    await c.press('enter');
    await c.waitForText('(enter retry)');
    expect(footer(c)).toContain('enter send');
    await c.press('e');
    await c.waitForText(/Permissions (\(|·)/);
    await c.type(' corrected');
    await c.press('enter');
    await c.waitForText('Review:');
    expect(lineWith(c.frame(), 'note ')).toContain('first try corrected');
    // (The status bar still says how the last request went; the review itself starts clean.)
    const body = c.frame().split('\n').slice(0, -2).join('\n');
    expect(body).not.toContain('create key failed');
    expect(body).not.toContain('✗');
    expect(c.frame()).toContain('enter sends · e edits (nothing is sent)');
    await c.press('enter');
    await c.waitForText('Key created for');
    expect(posts(c)).toHaveLength(2);
  });
});

describe.concurrent('retry only where it can help', () => {
  test('a key list refused with a 400: no (r retry); a 503: r retry', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    const name = c.sandbox.subAccounts[0]!;
    c.sandbox.queueFaults({ kind: 'status', status: 400, code: 700007, msg: 'No permission' });
    await openKeys(c, name, { wait: false });
    await c.waitForText('list keys failed (HTTP 400 code 700007)');
    expect(c.frame()).not.toContain('retry)');
    // r is not offered, so it does nothing (what the screen says is what the keys do).
    const sent = c.requests().length;
    await c.press('r');
    await c.settle(100);
    expect(c.requests()).toHaveLength(sent);
    c.sandbox.queueFaults(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 503 })));
    await c.press('esc');
    await openKeys(c, name, { wait: false });
    await c.waitForText('(r retry)');
  });
});

describe.concurrent('the recent list keeps only sub-accounts the service knows', () => {
  test('a name the service says does not exist (140001) is not remembered, and is forgotten if it was', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { recent: ['nosuchsub77'] });
    const real = c.sandbox.subAccounts[0]!;
    await c.press('down');
    await c.press('enter');
    await c.waitForText('code 140001');
    expect(c.frame()).not.toContain('retry)');
    expect(c.frame().replace(/\s+/g, ' ')).toContain('esc goes back to choose another');
    await c.waitFor(() => !c.recent.list().includes('nosuchsub77'), 'the name forgotten');
    await c.press('esc');
    await c.waitForText('Choose a sub-account');
    // Back with the name typed, to fix it; cleared, another is typed.
    await c.waitForText('Sub-account: nosuchsub77');
    await c.press('\u0015');
    await c.type('typo9999');
    await c.press('enter');
    await c.waitForText('code 140001');
    await c.settle(50);
    expect(c.recent.list()).toEqual([]);
    await c.press('esc');
    await c.waitForText('Choose a sub-account');
    await c.waitForText('Sub-account: typo9999');
    // Typed only: neither name is offered in the list.
    expect(
      c
        .frame()
        .split('\n')
        .filter((line) => line.includes('typo9999')),
    ).toHaveLength(1);
    expect(c.frame()).not.toContain('nosuchsub77');
    await c.press('\u0015');
    // One that exists is remembered once its keys were listed.
    await openKeys(c, real);
    await c.waitFor(() => c.recent.list()[0] === real, 'the real name remembered');
  });
});

describe.concurrent('a frozen sub-account (140002)', () => {
  test('its key list says so with where to check, offers no retry, and esc goes back to choose another', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 24 });
    await c.type('frozendesk01');
    await c.press('enter');
    await c.waitForText('code 140002');
    const text = c.frame().replace(/\s+/g, ' ');
    expect(text).toContain(
      "sub account is forbidden (frozendesk01) — the sub-account is frozen or disabled: check its status in the broker's sub-account list",
    );
    expect(text).toContain('esc goes back to choose another');
    expect(c.frame()).not.toContain('retry)');
    await c.press('esc');
    await c.waitForText('Choose a sub-account');
  });
});

describe.concurrent('NO_COLOR', () => {
  test('the checklist cursor and the choices are marked in text, not colour alone', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { noColor: true, everyCommit: true });
    await openCreateForm(c, c.sandbox.subAccounts[0]!);
    expect(c.frame()).toContain(`›[ ] ${KNOWN_PERMISSIONS[0]}`);
    await c.press('space');
    expect(c.frame()).toContain(`›[x] ${KNOWN_PERMISSIONS[0]}`);
    await c.press('right');
    expect(c.frame()).toContain(` [x] ${KNOWN_PERMISSIONS[0]}`);
    expect(c.frame()).toContain(`›[ ] ${KNOWN_PERMISSIONS[1]}`);
    // Leaving the checklist hides its cursor; the focused field is marked.
    await c.press('tab');
    expect(c.frame()).not.toContain('›[');
    expect(lineWith(c.frame(), 'Other')).toMatch(/^› Other/);
    expect(c.frames().some((f) => /\u001b\[(3|4|9|10)\d(;\d+)*m/.test(f))).toBe(false);
  });
});

describe.concurrent('the example permission is one the service accepts', () => {
  test('read_only, as the form suggests it, creates a key', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished);
    await openCreateForm(c, c.sandbox.subAccounts[0]!);
    expect(lineWith(c.frame(), 'Other')).toContain('e.g. read_only');
    await fillCreateForm(c, { other: 'read_only', note: 'example permission' });
    await c.press('enter');
    await c.waitForText('Review:');
    expect(lineWith(c.frame(), 'permissions ')).toContain('read_only');
    await c.press('enter');
    await c.waitForText('Key created for');
    const keys = await c.api.listSubAccountKeys(c.sandbox.subAccounts[0]!);
    expect(keys.find((k) => k.note === 'example permission')?.permissions).toEqual(['read_only']);
  });
});

describe.concurrent('creation times as the service sent them', () => {
  test(
    'a creatTime beyond the Date range or with a fraction is shown as the number that came, in the list and the detail',
    { timeout: 30_000 },
    async ({ onTestFinished }) => {
      // JSON.stringify writes 1e20 as 100000000000000000000: beyond what a Date holds (8.64e15 ms), as is 8640000000000001.
      const odd: WireKey[] = [
        { note: 'far future', apiKey: 'mx0vfarfuture0000000000000000001', permissions: 'SPOT_ACCOUNT_READ', ip: '', creatTime: 1e20 },
        { note: 'just past the range', apiKey: 'mx0vpastrange0000000000000000002', permissions: 'SPOT_ACCOUNT_READ', ip: '', creatTime: 8_640_000_000_000_001 },
        { note: 'with a fraction', apiKey: 'mx0vfraction00000000000000000003', permissions: 'SPOT_ACCOUNT_READ', ip: '', creatTime: 1_763_726_400_000.5 },
      ];
      const shown = ['100000000000000000000', '8640000000000001', '1763726400000.5'];
      const m = await mounted(onTestFinished, { columns: 120, rows: 30, keys: { '*': odd }, initialRoute: { screen: 'picker' } });
      await m.type('oddtimes');
      await m.press('enter');
      await m.waitForText('· 3 keys');
      for (const [i, text] of shown.entries()) {
        expect(lineWith(m.frame(), odd[i]!.note)).toContain(text.slice(0, 15));
        await m.press('enter');
        await m.waitForText('Linked IPs');
        expect(lineWith(m.frame(), 'Created')).toContain(`${text} (local) · ${text} (not a date)`);
        await m.press('esc');
        await m.waitForText('· 3 keys');
        await m.press('down');
      }
    },
  );
});
