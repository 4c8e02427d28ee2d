// The console on the pinned demo: the transfer filter's spans (7d) count from the pin, and the status bar
// shows the pinned latency; the same console on the real clock counts from now. And the demo's first frame
// does not wait for its sandbox: the picker is drawn from the seed's names, the sandbox starts once that frame
// is on screen, and a request made before it listens waits for it.
import React from 'react';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { formatLocalTime } from '../../src/api/timeInput';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import { afterRender } from '../../src/terminal/keyStream';
import { ConsoleRoot } from '../../src/ui/run';
import { makeTheme } from '../../src/ui/theme';
import { KEYS, sleep } from '../ui/harness';
import { renderInTerminal, type TestTerminal } from '../ui/terminal';

const PIN = Date.UTC(2026, 10, 21, 9, 30, 0);
const DAY = 86_400_000;

let terminal: TestTerminal | undefined;
let targets: ConsoleTargets | undefined;
let folder: string | undefined;

afterEach(async () => {
  terminal?.unmount();
  terminal = undefined;
  await targets?.close();
  targets = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

async function openConsole(demoClockMs?: number) {
  folder = await mkdtemp(join(tmpdir(), 'bc-demo-console-'));
  targets = createConsoleTargets({ folder, exportFolder: folder, ...(demoClockMs !== undefined ? { demoClockMs } : {}) });
  await targets.openDemo();
  const t = renderInTerminal(
    <ConsoleRoot switcher={targets} theme={makeTheme(false)} copy={async () => 'sent to the test clipboard'} onExit={() => undefined} />,
    { columns: 100, rows: 30 },
  );
  terminal = t;
  const frame = () => stripVTControlCharacters(t.stdout.lastFrame() ?? '');
  const press = async (sequence: string) => {
    t.write(sequence);
    while (t.keys.backlog() > 0) await afterRender();
    await afterRender();
  };
  const waitFor = async (text: string) => {
    const until = Date.now() + 5000;
    while (!frame().includes(text)) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${text}; the frame was:\n${frame()}`);
      await sleep(5);
    }
  };
  await waitFor('Sub-accounts');
  return { frame, press, waitFor };
}

/** Opens the transfer filter and types `span` into Since. */
async function typeSince(c: Awaited<ReturnType<typeof openConsole>>, span: string) {
  await c.press('\u0014'); // ctrl+t
  await c.waitFor('Universal transfers: filter');
  for (let i = 0; i < 4; i++) await c.press(KEYS.tab);
  for (const ch of span) await c.press(ch);
}

describe('the console on the pinned demo', () => {
  it('7d in the filter counts from the pin, and the status bar shows the pinned latency', async () => {
    const c = await openConsole(PIN);
    await typeSince(c, '7d');
    await c.waitFor(`= ${formatLocalTime(PIN - 7 * DAY, true)}`);
    await c.press(KEYS.enter);
    await c.waitFor('✓ list transfers 200 · 12 ms');
    expect(c.frame()).toContain(`since ${formatLocalTime(PIN - 7 * DAY)}`);
  });

  it('not pinned: 7d counts from the real clock', async () => {
    const c = await openConsole();
    const before = Date.now();
    await typeSince(c, '7d');
    await c.waitFor('= ');
    const shown = /7d\s+= (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})/.exec(c.frame())?.[1];
    const candidates = [0, 1, 2, 3].map((s) => formatLocalTime(Math.floor(before / 1000) * 1000 - 7 * DAY + s * 1000, true));
    expect(candidates).toContain(shown);
  });
});

async function demoAwaitingFrame() {
  folder = await mkdtemp(join(tmpdir(), 'bc-demo-console-'));
  let drawn = (): void => undefined;
  const frame = new Promise<void>((resolve) => (drawn = resolve));
  targets = createConsoleTargets({ folder, exportFolder: folder, drawn: frame });
  await targets.openDemo();
  return { target: targets.current()!, drawn };
}

const settled = async <T,>(promise: Promise<T>, ms: number): Promise<boolean> =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    sleep(ms).then(() => false),
  ]);

describe('the demo starts its sandbox after the first frame', () => {
  it('draws the picker of the demo sub-accounts first; a request waits for the sandbox, which starts once the frame is drawn', async () => {
    const { target, drawn } = await demoAwaitingFrame();
    expect(target.mode).toBe('demo');
    expect(target.suggestions).toHaveLength(new Set(target.suggestions).size);
    terminal = renderInTerminal(<ConsoleRoot switcher={targets!} theme={makeTheme(false)} copy={async () => 'copied'} onExit={() => undefined} />, {
      columns: 100,
      rows: 30,
    });
    const screen = stripVTControlCharacters(terminal.stdout.lastFrame() ?? '');
    expect(screen).toContain(`Demo sub-accounts (${target.suggestions.length})`);
    expect(screen).toContain(target.suggestions[0]);

    const keys = target.api.listSubAccountKeys(target.suggestions[0]!);
    expect(await settled(keys, 100)).toBe(false);
    expect(target.exchanges.last()).toBeUndefined();
    drawn();
    // Every name drawn is a sub-account the sandbox knows; the last, frozen, shows what 140002 looks like.
    expect(Array.isArray(await keys)).toBe(true);
    const frozen = target.suggestions.at(-1)!;
    expect(frozen).toBe('frozendesk01');
    for (const name of target.suggestions.slice(0, -1)) await target.api.listSubAccountKeys(name);
    expect(target.exchanges.last()).toMatchObject({ ok: true, status: 200 });
    await expect(target.api.listSubAccountKeys(frozen)).rejects.toThrow(
      /code 140002\): sub account is forbidden \(frozendesk01\) — the sub-account is frozen or disabled/,
    );
  });

  it('closed before its first frame: a waiting request fails with a clear message, and closing does not wait for a frame', async () => {
    const { target } = await demoAwaitingFrame();
    const keys = target.api.listSubAccountKeys(target.suggestions[0]!);
    expect(await settled(targets!.close(), 2000)).toBe(true);
    targets = undefined;
    await expect(keys).rejects.toThrow('the console closed before the demo started');
  });
});
