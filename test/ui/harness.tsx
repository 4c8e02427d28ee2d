// Our thin harness: the real App in a test terminal of our size, a real sandbox over 127.0.0.1
// and a real client; keys go in through the console's own key splitter; assertions read ANSI-stripped text.
import React from 'react';
import { expect } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { renderInTerminal } from './terminal';
import { displayWidth } from '../../src/terminal/text';
import { createBrokerApi } from '../../src/api/operations';
import { readOnlyApi } from '../../src/api/readOnly';
import type { BrokerApi } from '../../src/api/contract';
import { type DiscoveredSubAccount, type DiscoveredSubAccounts, memoryDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { memoryRecentSubAccounts, type RecentSubAccounts } from '../../src/config/recentSubAccounts';
import { fileExporter } from '../../src/export/fileExporter';
import type { ProxyChoice } from '../../src/api/proxy';
import type { OnFinished } from '../sandbox/helpers';
import type { RunningSandbox, SandboxOptions, SandboxRequestRecord } from '../../src/sandbox/types';
import { App } from '../../src/ui/App';
import { createExchangeLog, type ExchangeLog } from '../../src/ui/exchangeLog';
import type { NavigationState, Route } from '../../src/ui/navigation';
import type { ConsoleServices } from '../../src/ui/services';
import type { AuditRecorder } from '../../src/config/auditTrail';
import type { TargetSwitcher } from '../../src/ui/targets';
import { makeTheme } from '../../src/ui/theme';
import type { ProfileColor } from '../../src/credentials/profiles';
import type { CopyToClipboard } from '../../src/ui/clipboard';
import { ownSandbox } from '../sandbox/helpers';

export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  enter: '\r',
  esc: '\u001b',
  tab: '\t',
  shiftTab: '\u001b[Z',
  backspace: '\u007f',
  space: ' ',
  ctrlC: '\u0003',
  ctrlT: '\u0014',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
} as const;

export type KeyName = keyof typeof KEYS;

export interface ConsoleOptions {
  /** The console's clipboard (default: one that keeps what it is given in `copies`). */
  copy?: CopyToClipboard;
  mode?: 'demo' | 'live';
  noColor?: boolean;
  columns?: number;
  rows?: number;
  /** Names already remembered, most recent first. */
  recent?: string[];
  /** The recent-names store itself (e.g. file-backed); overrides `recent`. */
  recentStore?: RecentSubAccounts;
  /** Sub-accounts already discovered in transfer history (services.discovered). */
  discovered?: DiscoveredSubAccount[];
  /** Offered in the picker; default the sandbox's sub-accounts. */
  suggestions?: string[];
  sandbox?: SandboxOptions;
  /** Profiles and the demo for ctrl+p (the console's own switcher lives in commands/consoleTargets). */
  switcher?: TargetSwitcher;
  /** A sandbox already running, shared between consoles (left running by cleanup). */
  sharedSandbox?: RunningSandbox;
  initialRoute?: Route;
  /** The audit trail's recorder (services.audit); absent: not recorded. */
  audit?: AuditRecorder;
  /** A read-only target: why creating is disabled (services.readOnly); its api refuses to create, as consoleTargets wires it. */
  readOnly?: string;
  /** The proxy the client goes through (ClientConfig.proxy). */
  proxy?: ProxyChoice;
  /** The plain-http warning of the target (services.cleartext). */
  cleartext?: string;
  /** Every copy fails with this error (services.copy rejects). */
  copyFails?: Error;
  /** The live target's profile name (default ops) and its header colour (services.profileColor). */
  profile?: string;
  profileColor?: ProfileColor;
  /** Draw every React commit, not at the console's pace: for assertions about every frame (see renderInTerminal). */
  everyCommit?: boolean;
  /** The keys list that reaches the target's service (services.keyListCommand; the demo has none). */
  keyListCommand?: string;
}

export interface TestConsole {
  sandbox: RunningSandbox;
  api: BrokerApi;
  exchanges: ExchangeLog;
  recent: RecentSubAccounts;
  discovered: DiscoveredSubAccounts;
  /** Every text passed to the copy service, in order. */
  copies: string[];
  /** The lines the console asked to say on the terminal once it has closed. */
  said: string[];
  /** Folder the exporter writes into. */
  exportDir: string;
  /** Presses `key` `times` in a row (none for 0), each handled before the next and drawn at Ink's pace as fast keys are, and draws the frame after the last. */
  press(key: KeyName | (string & {}), times?: number): Promise<void>;
  type(text: string): Promise<void>;
  /** Writes keys as one chunk (what a pty delivers for fast typing, SSH, a script) and waits until every one is handled. */
  chunk(...keys: Array<KeyName | (string & {})>): Promise<void>;
  /** A bracketed paste, as a terminal sends it. */
  paste(text: string): Promise<void>;
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  waitForNoText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Waits until the screen on top of the navigation stack is `screen`. */
  waitForScreen(screen: Route['screen'], timeoutMs?: number): Promise<void>;
  waitFor(ok: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** The last frame, ANSI-stripped. */
  frame(): string;
  /** The last frame as written, escape codes included. */
  rawFrame(): string;
  /** Every frame written so far, raw. */
  frames(): readonly string[];
  navState(): NavigationState | undefined;
  exitCode(): number | undefined;
  resize(columns: number, rows: number): Promise<void>;
  requests(): readonly SandboxRequestRecord[];
  /** Requests of one method received since `from` (an index into requests()). */
  requestsOf(method: string, from?: number): SandboxRequestRecord[];
  settle(ms?: number): Promise<void>;
  cleanup(): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type { OnFinished } from '../sandbox/helpers';
export { reactIdle } from './terminal';

const matches = (frame: string, text: string | RegExp): boolean => (typeof text === 'string' ? frame.includes(text) : text.test(frame));

export async function startConsole(options: ConsoleOptions = {}): Promise<TestConsole> {
  // A host of its own: what the client keeps per base URL for the process (pace, waits, bans) never reaches a
  // later test's server on a port this one had.
  const sandbox = options.sharedSandbox ?? (await ownSandbox({ seed: 1, ...options.sandbox }));
  const exchanges = createExchangeLog();
  // A short backoff keeps retry tests quick; everything else is the client as shipped.
  const client = createBrokerApi({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    secretKey: sandbox.secretKey,
    retryBaseDelayMs: 5,
    onExchange: exchanges.record,
    onWaiting: (wait) => exchanges.waiting(wait),
    ...(options.proxy ? { proxy: options.proxy } : {}),
  });
  const api = options.readOnly ? readOnlyApi(client, options.readOnly) : client;
  const exportDir = await mkdtemp(join(tmpdir(), 'broker-console-ui-'));
  const recent = options.recentStore ?? memoryRecentSubAccounts(options.recent ?? []);
  const discovered = memoryDiscoveredSubAccounts(options.discovered ?? []);
  const copies: string[] = [];
  const said: string[] = [];
  const services: ConsoleServices = {
    sayOnLeaving: (line) => void said.push(line),
    api,
    mode: options.mode ?? 'demo',
    host: new URL(sandbox.baseUrl).host,
    profile: options.profile ?? (options.mode === 'live' ? 'ops' : 'demo'),
    ...(options.profileColor ? { profileColor: options.profileColor } : {}),
    credentialSource: options.mode === 'live' ? 'environment' : 'sandbox',
    exchanges,
    recent,
    discovered,
    suggestions: options.suggestions ?? sandbox.subAccounts,
    copy:
      options.copy ??
      (async (text) => {
        if (options.copyFails) throw options.copyFails;
        copies.push(text);
        return 'sent to the test clipboard';
      }),
    exporter: fileExporter(api, exportDir),
    theme: makeTheme(options.noColor ?? false),
    now: Date.now,
    ...(options.switcher ? { switcher: options.switcher } : {}),
    ...(options.audit ? { audit: options.audit } : {}),
    ...(options.readOnly ? { readOnly: options.readOnly } : {}),
    ...(options.cleartext ? { cleartext: options.cleartext } : {}),
    ...(options.keyListCommand !== undefined ? { keyListCommand: options.keyListCommand } : {}),
  };

  let nav: NavigationState | undefined;
  let exit: number | undefined;
  const onNavigation = (state: NavigationState) => {
    nav = state;
  };
  const onExit = (code: number) => {
    exit ??= code;
  };
  const terminal = renderInTerminal(<App services={services} onExit={onExit} onNavigation={onNavigation} initialRoute={options.initialRoute} />, {
    columns: options.columns ?? 100,
    rows: options.rows ?? 30,
    ...(options.everyCommit ? { everyCommit: true } : {}),
  });
  const { stdout } = terminal;

  const rawFrame = () => stdout.lastFrame() ?? '';
  // Waits poll the frame often: strip each frame once, not on every poll.
  let stripped = { count: -1, text: '' };
  const frame = () => {
    if (stripped.count !== stdout.frames.length) stripped = { count: stdout.frames.length, text: stripVTControlCharacters(rawFrame()) };
    return stripped.text;
  };

  const drained = () => terminal.handled();

  const waitFor = async (ok: () => boolean, what: string, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      // Met: what React rendered with it (a footer its effect set) is drawn too, and it still holds.
      if (ok()) {
        await terminal.drawn();
        if (ok()) return;
      }
      if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last frame:\n${frame()}`);
      await sleep(5);
    }
  };

  const keyOf = (key: string) => (KEYS as Record<string, string>)[key] ?? key;

  const console: TestConsole = {
    sandbox,
    api,
    exchanges,
    recent,
    discovered,
    copies,
    said,
    exportDir,
    async press(key, times = 1) {
      if (times < 1) return;
      for (let i = 1; i < times; i++) {
        terminal.write(keyOf(key));
        await terminal.read();
      }
      terminal.write(keyOf(key));
      // Handled and rendered; what it started (a request) is waited for with waitForText and friends.
      await drained();
    },
    async type(text) {
      // Each character handled before the next, drawn at Ink's pace as typing is; the last one drawn.
      for (const ch of text) {
        terminal.write(ch);
        await terminal.read();
      }
      await drained();
    },
    async chunk(...keys) {
      terminal.write(keys.map(keyOf).join(''));
      await drained();
    },
    async paste(text) {
      terminal.write(`\u001b[200~${text}\u001b[201~`);
      await drained();
    },
    waitForText: (text, timeoutMs = 3000) => waitFor(() => matches(frame(), text), `text ${String(text)}`, timeoutMs),
    waitForNoText: (text, timeoutMs = 3000) => waitFor(() => !matches(frame(), text), `no text ${String(text)}`, timeoutMs),
    waitForScreen: (screen, timeoutMs = 3000) => waitFor(() => nav?.stack.at(-1)?.route.screen === screen, `screen ${screen}`, timeoutMs),
    waitFor: (ok, what, timeoutMs = 3000) => waitFor(ok, what, timeoutMs),
    frame,
    rawFrame,
    frames: () => stdout.frames,
    navState: () => nav,
    exitCode: () => exit,
    resize: (columns, rows) => terminal.resize(columns, rows),
    requests: () => sandbox.requests(),
    requestsOf: (method, from = 0) =>
      sandbox
        .requests()
        .slice(from)
        .filter((r) => r.method === method),
    settle: (ms = 50) => sleep(ms),
    async cleanup() {
      terminal.unmount();
      await api.close().catch(() => undefined);
      if (!options.sharedSandbox) await sandbox.close().catch(() => undefined);
      await rm(exportDir, { recursive: true, force: true });
    },
  };

  await terminal.listening();
  return console;
}

/** A test's own console (and sandbox, unless shared), cleaned up as the test ends. */
export async function consoleFor(onTestFinished: OnFinished, options: ConsoleOptions = {}): Promise<TestConsole> {
  const c = await startConsole(options);
  onTestFinished(() => c.cleanup());
  return c;
}

/** Lines of a raw frame, as the terminal would show them. */
export function frameLines(raw: string): string[] {
  return raw.split('\n');
}

/** Display width of a line as a terminal shows it (ANSI stripped; CJK and emoji take two cells). */
export function lineWidth(line: string): number {
  return displayWidth(stripVTControlCharacters(line));
}

/**
 * Every line of a frame (ANSI stripped) is no wider than the terminal and the frame is shorter than it: what the
 * screen tests hold each frame to. Returns the lines, for a test's own further checks.
 */
export function expectFits(raw: string, columns: number, rows: number, what = ''): string[] {
  const lines = stripVTControlCharacters(raw).split('\n');
  const where = `${what === '' ? '' : `${what} `}at ${columns}x${rows}:\n${lines.join('\n')}`;
  for (const line of lines) expect(displayWidth(line), `${where}\nline: ${line}`).toBeLessThanOrEqual(columns);
  expect(lines.length, where).toBeLessThan(rows);
  return lines;
}

/** A switcher with one other profile, recording what it is asked to open (opening it would tear the console down). */
export function oneOtherProfile(opened: string[]): TargetSwitcher {
  return {
    current: () => undefined,
    subscribe: () => () => undefined,
    startupProblem: () => undefined,
    profiles: async () => [{ name: 'other', baseUrl: 'https://other.example', isDefault: false }],
    openDemo: async () => void opened.push('demo'),
    openProfile: async (name) => (opened.push(name), { ok: true }),
    addProfile: async () => ({ ok: true }),
    useForSession: async () => ({ ok: true }),
  };
}
