// The demo's first frame does not wait for its sandbox: the picker is drawn from the seed's names, the sandbox
// starts once that frame is on screen, and a request made before it listens waits for it.
import React from 'react';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import { ConsoleRoot } from '../../src/ui/run';
import { makeTheme } from '../../src/ui/theme';
import { sleep } from '../ui/harness';
import { renderInTerminal, type TestTerminal } from '../ui/terminal';

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

async function demoAwaitingFrame() {
  folder = await mkdtemp(join(tmpdir(), 'bc-demo-start-'));
  let drawn = (): void => undefined;
  const frame = new Promise<void>((resolve) => (drawn = resolve));
  targets = createConsoleTargets({ folder, exportFolder: folder, drawn: frame });
  await targets.openDemo();
  return { target: targets.current()!, drawn };
}

const settled = async <T,>(promise: Promise<T>, ms: number): Promise<boolean> => Promise.race([promise.then(() => true, () => true), sleep(ms).then(() => false)]);

describe('the demo starts its sandbox after the first frame', () => {
  it('draws the picker of the demo sub-accounts first; a request waits for the sandbox, which starts once the frame is drawn', async () => {
    const { target, drawn } = await demoAwaitingFrame();
    expect(target.mode).toBe('demo');
    expect(target.suggestions).toHaveLength(new Set(target.suggestions).size);
    terminal = renderInTerminal(<ConsoleRoot switcher={targets!} theme={makeTheme(false)} copy={async () => 'copied'} onExit={() => undefined} />, { columns: 100, rows: 30 });
    const screen = stripVTControlCharacters(terminal.stdout.lastFrame() ?? '');
    expect(screen).toContain(`Demo sub-accounts (${target.suggestions.length})`);
    expect(screen).toContain(target.suggestions[0]);

    const keys = target.api.listSubAccountKeys(target.suggestions[0]!);
    expect(await settled(keys, 100)).toBe(false);
    expect(target.exchanges.last()).toBeUndefined();
    drawn();
    // Every name drawn is a sub-account the sandbox knows.
    expect(Array.isArray(await keys)).toBe(true);
    for (const name of target.suggestions) await target.api.listSubAccountKeys(name);
    expect(target.exchanges.last()).toMatchObject({ ok: true, status: 200 });
  });

  it('closed before its first frame: a waiting request fails with a clear message, and closing does not wait for a frame', async () => {
    const { target } = await demoAwaitingFrame();
    const keys = target.api.listSubAccountKeys(target.suggestions[0]!);
    expect(await settled(targets!.close(), 2000)).toBe(true);
    targets = undefined;
    await expect(keys).rejects.toThrow('the console closed before the demo started');
  });
});
