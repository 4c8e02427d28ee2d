// Every keys-side screen, the setup screens and the help overlay at 40x12, 60x20, 80x24 and 200x60: no line
// wider than the terminal, no frame as tall as it, and header, status bar and footer one line each.
import React from 'react';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { BrokerApi } from '../../src/api/contract';
import { memoryDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { memoryRecentSubAccounts } from '../../src/config/recentSubAccounts';
import { displayWidth } from '../../src/terminal/text';
import { App } from '../../src/ui/App';
import { footerLine } from '../../src/ui/components/Footer';
import { whoLine } from '../../src/ui/components/StatusBar';
import { createExchangeLog } from '../../src/ui/exchangeLog';
import type { Route } from '../../src/ui/navigation';
import type { ConsoleServices } from '../../src/ui/services';
import type { CheckOutcome, ProfileSummary, TargetSwitcher } from '../../src/ui/targets';
import { makeTheme } from '../../src/ui/theme';
import { consoleFor, KEYS, sleep, startConsole, expectFits } from './harness';
import { fillCreateForm } from './flows';
import { renderInTerminal, type TestTerminal } from './terminal';

const SIZES: ReadonlyArray<readonly [number, number]> = [
  [40, 12],
  [60, 20],
  [80, 24],
  [200, 60],
];

/** Asserts the frame fits the terminal: each line's display width, the line count, the chrome's three lines. */
function expectChrome(raw: string, columns: number, rows: number, what: string): void {
  const lines = expectFits(raw, columns, rows, what);
  const where = `${what} at ${columns}x${rows}:\n${stripVTControlCharacters(raw)}`;
  // Header first, status bar and footer last, one line each: the frame is the chrome plus the body, exactly.
  expect(lines.length, where).toBe(rows - 1);
  expect(lines[0], where).toMatch(/ (DEMO|LIVE|SETUP) /);
  // The footer ends with `? help`; with the help open, it says how to close it.
  expect(lines.at(-1), where).toMatch(what.startsWith('help on') ? /\? or esc close$/ : /\? help$/);
  // A help taller than its room says how to scroll it.
  if (what.startsWith('help on') && lines.some((l) => l.startsWith('↓ more'))) expect(lines.at(-1), where).toMatch(/^↑↓ scroll/);
  expect(lines.at(-2), where).toMatch(/(no request yet|ms)/);
}

let busy = '';
beforeAll(async () => {
  // The sub-account with the most keys. Every test has a sandbox of its own (they queue faults, and run at the
  // same time), all of the same seed: the same sub-accounts and keys as this one's.
  const probe = await startConsole();
  let most = -1;
  for (const name of probe.sandbox.subAccounts) {
    const keys = await probe.api.listSubAccountKeys(name);
    if (keys.length > most) [busy, most] = [name, keys.length];
  }
  await probe.cleanup();
});

const LONG_NOTE = 'a long note that goes on and on past the width of any small window, 長い備考も 🚀 ends here';

// Concurrent: every test has its own console and sandbox, or a setup console without one.
describe.concurrent.each(SIZES)('at %ix%i', (columns, rows) => {
  test('picker, key list, key detail, help, create form (long note, errors), review, review error', async ({ onTestFinished }) => {
    const recent = ['a-recent-name-that-is-quite-long-for-a-small-window-0123456789', 'beta02'];
    const c = await consoleFor(onTestFinished, { columns, rows, recent });
    const fits = (what: string) => expectChrome(c.rawFrame(), columns, rows, what);
    fits('picker');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    fits('help on the picker');
    await c.press('?');
    await c.type('bad name');
    await c.press('enter');
    await c.waitForText('✗ Sub-account');
    fits('picker with a problem');
    await c.press('backspace', 'bad name'.length);

    await c.type(busy);
    await c.press('enter');
    await c.waitForText(new RegExp(`API keys of ${busy}.*· \\d+ keys`));
    fits('key list');
    await c.press('down');
    await c.press('enter');
    await c.waitForText('Linked IPs');
    fits('key detail');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    fits('help on the key detail');
    await c.press('?');
    await c.press('enter');
    await c.waitForText(new RegExp(`API keys of ${busy}`));
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    fits('help on the key list');
    await c.press('?');

    await c.press('n');
    await c.waitForText(/Permissions (\(|·)/);
    fits('create form');
    await c.press('enter');
    await c.waitForText('✗ at least one is required');
    fits('create form with an error');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    fits('help on the create form');
    await c.press('?');
    await fillCreateForm(c, { toggle: [0], ip: '203.0.113.7, 198.51.100.20, 192.0.2.1', note: LONG_NOTE });
    fits('create form with a long note');
    expect(c.frame()).toContain('3/4');
    await c.press('enter');
    await c.waitForText('Review:');
    fits('review');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    fits('help on the review');
    await c.press('?');
    c.sandbox.queueFaults({
      kind: 'status',
      status: 400,
      code: 730702,
      msg: 'API KEY permission does not exist: the permission list holds one the service does not know',
    });
    // Taller than the window below 60x20, what will be sent is read to its end before it can be sent.
    for (let i = 0; i < 20 && /lines \d+–\d+ of \d+ · ↓ more/.test(c.frame()); i++) await c.press('down');
    fits('review scrolled');
    await c.press('enter');
    await c.waitForText('create key failed');
    fits('review with an error');
    await c.press('e');
    await c.waitForText(/Permissions (\(|·)/);
    fits('create form after the review');
    // A 5xx leaves the outcome unknown: that review fits too.
    await c.press('enter');
    await c.waitForText('Review:');
    c.sandbox.queueFaults({ kind: 'status', status: 503, msg: 'Service Unavailable: the upstream keeps failing, please try again a little later' });
    for (let i = 0; i < 20 && /lines \d+–\d+ of \d+ · ↓ more/.test(c.frame()); i++) await c.press('down');
    await c.press('enter');
    await c.waitFor(() => /r check|may exist/.test(c.frame()), 'the unknown outcome');
    fits('review, outcome unknown');
  }, 40_000);

  test('key list error, and the empty state', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns, rows });
    c.sandbox.queueFaults(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 503, msg: 'x'.repeat(300) })));
    await c.type(busy);
    await c.press('enter');
    await c.waitForText('list keys failed');
    expectChrome(c.rawFrame(), columns, rows, 'key list error');
  });

  test.for<[string, Route]>([
    ['welcome', { screen: 'welcome' }],
    ['add profile', { screen: 'addProfile' }],
    ['session credentials', { screen: 'sessionCredentials', profile: 'a-profile-with-a-long-name', baseUrl: 'https://api.example.com/a/long/path' }],
    ['profiles', { screen: 'profiles' }],
  ])('%s', async ([what, route]) => {
    const t = mountSetup(columns, rows, route);
    try {
      await t.settle();
      expectChrome(t.raw(), columns, rows, what);
      await t.press('?');
      expectChrome(t.raw(), columns, rows, `help on ${what}`);
      await t.press('?');
      if (route.screen === 'addProfile' || route.screen === 'sessionCredentials') {
        // A refused check: the message (the service's, long) under the form.
        await t.press(KEYS.enter);
        await t.waitFor(() => t.frame().includes('✗'), 'the refusal');
        expectChrome(t.raw(), columns, rows, `${what} refused`);
      }
      if (route.screen === 'profiles') {
        await t.press(KEYS.enter); // opening the first profile fails: the message shows under the list
        await t.waitFor(() => t.frame().includes('⚠'), 'the failure');
        expectChrome(t.raw(), columns, rows, `${what} failed`);
      }
    } finally {
      t.unmount();
    }
  });
});

describe.concurrent('chrome', () => {
  test('header, status bar and footer are one line at every width from 40 up', async () => {
    const t = mountSetup(
      40,
      12,
      { screen: 'welcome' },
      { mode: 'live', host: 'a-very-long-host-name.example.com:8443', profile: 'a-profile-name-that-is-long' },
    );
    try {
      await t.settle();
      for (const columns of [40, 41, 47, 53, 64, 79, 80, 99, 100, 133, 200]) {
        await t.resize(columns, 14);
        expectChrome(t.raw(), columns, 14, 'welcome (live)');
        const lines = t.frame().split('\n');
        expect(lines[0]).toContain(' LIVE ');
        expect(lines[0]).toContain('Welcome');
      }
    } finally {
      t.unmount();
    }
  });

  test('the status bar says a profile named after its source once, never "environment · environment"', async () => {
    expect(whoLine('environment', 'environment')).toBe('environment');
    expect(whoLine('ops', 'environment')).toBe('ops · environment');
    const t = mountSetup(80, 24, { screen: 'welcome' }, { mode: 'live', profile: 'environment', credentialSource: 'environment' });
    try {
      await t.settle();
      const status = t.frame().split('\n').at(-2)!;
      expect(status).toContain('environment');
      expect(status).not.toContain('environment · environment');
    } finally {
      t.unmount();
    }
  });

  test('the footer fits any width and keeps ? help', () => {
    for (const width of [40, 50, 60, 80, 120]) {
      for (const screen of [
        'picker',
        'keys',
        'keyDetail',
        'createKey',
        'review',
        'reviewConfirm',
        'reviewSending',
        'reviewUnknown',
        'reviewRejected',
        'welcome',
        'credentials',
        'profiles',
      ] as const) {
        const line = footerLine(screen, width);
        expect(displayWidth(line)).toBeLessThan(width);
        expect(line.endsWith('? help')).toBe(true);
      }
    }
  });
});

// ---- A console in setup mode (or live, with a fake target), for the welcome and profile screens ----

interface SetupTerminal {
  raw(): string;
  frame(): string;
  press(key: string): Promise<void>;
  /** Until the first frame is out, Ink reads keys, and what mounting started has rendered. */
  settle(): Promise<void>;
  resize(columns: number, rows: number): Promise<void>;
  waitFor(ok: () => boolean, what: string): Promise<void>;
  unmount(): void;
}

const REFUSAL = 'the service refused the connection: HTTP 401 code 10072 — check the API key and the secret; this message is long on purpose so that it wraps';

/** A switcher that knows two profiles (one with a long name) and refuses every check with a long message. */
function fakeSwitcher(): TargetSwitcher {
  const profiles: ProfileSummary[] = [
    { name: 'prod', baseUrl: 'https://api.example.com', isDefault: true },
    { name: 'a-profile-with-a-very-long-name-indeed', baseUrl: 'https://a-very-long-host-name.example.com:8443/and/a/path', isDefault: false },
  ];
  const refused: CheckOutcome = { ok: false, message: REFUSAL };
  return {
    current: () => undefined,
    subscribe: () => () => undefined,
    startupProblem: () => ({ kind: 'keychain', message: `The keychain could not be used: ${'D-Bus said no. '.repeat(6)}`, profile: profiles[1] }),
    profiles: async () => profiles,
    openDemo: async () => undefined,
    openProfile: async () => ({ ok: false, message: `${REFUSAL} (${profiles[0]!.name})` }),
    addProfile: async () => refused,
    useForSession: async () => refused,
  };
}

function mountSetup(columns: number, rows: number, route: Route, overrides: Partial<ConsoleServices> = {}): SetupTerminal {
  const services: ConsoleServices = {
    api: {} as BrokerApi,
    mode: 'setup',
    host: '',
    profile: 'no profile',
    credentialSource: 'none yet',
    exchanges: createExchangeLog(),
    recent: memoryRecentSubAccounts(),
    discovered: memoryDiscoveredSubAccounts(),
    suggestions: [],
    copy: async () => 'copied',
    exporter: {} as ConsoleServices['exporter'],
    theme: makeTheme(false),
    now: Date.now,
    switcher: fakeSwitcher(),
    ...overrides,
  };
  const terminal: TestTerminal = renderInTerminal(<App services={services} onExit={() => undefined} initialRoute={route} />, { columns, rows });
  const raw = () => terminal.stdout.lastFrame() ?? '';
  return {
    raw,
    frame: () => stripVTControlCharacters(raw()),
    async press(key) {
      terminal.write(key);
      // What the key started is waited for with waitFor.
      await terminal.handled();
    },
    settle: () => terminal.listening(),
    resize: (w, h) => terminal.resize(w, h),
    async waitFor(ok, what) {
      const until = Date.now() + 3000;
      for (;;) {
        if (ok()) {
          await terminal.drawn();
          if (ok()) return;
        }
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${stripVTControlCharacters(raw())}`);
        await sleep(5);
      }
    },
    unmount: () => terminal.unmount(),
  };
}
