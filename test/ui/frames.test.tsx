// A frame is drawn only when something on screen changes: Ink lays out and composes the whole screen for every
// React commit, so a commit that changes nothing costs a keystroke's work for no pixel (in the console and in
// every test). Navigation, keys past either end of a list, a cursor key that cannot move, loads that answer
// before the spinner, and requests that read as the one before draw no frame twice.
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openKeys, openTransfers, seededAccounts } from './flows';
import { startConsole, type TestConsole } from './harness';

let c: TestConsole | undefined;
afterEach(async () => c?.cleanup());

/** Frames identical to the frame before them: their index and what they show (to say which screen drew twice). */
const repeats = (frames: readonly string[]): string[] =>
  frames.flatMap((frame, i) =>
    i > 0 && frame === frames[i - 1] ? [`frame ${i}:\n${stripVTControlCharacters(frame).split('\n').slice(0, 6).join('\n')}`] : [],
  );

describe('frames', () => {
  it('the picker, a key list walked past both ends, a field cursor at its start and back: no frame twice', async () => {
    c = await startConsole({ everyCommit: true });
    const { busy } = await seededAccounts(c);
    const from = c.frames().length;
    await openKeys(c, busy);
    for (let i = 0; i < 8; i += 1) await c.press('down');
    for (let i = 0; i < 8; i += 1) await c.press('up');
    await c.press('esc');
    await c.waitForScreen('picker');
    await c.type('ab');
    for (let i = 0; i < 3; i += 1) await c.press('left');
    await c.settle(150);
    expect(c.frames().length - from).toBeGreaterThan(10);
    expect(repeats(c.frames().slice(from))).toEqual([]);
  });

  it('the transfer filter, a page of results walked and paged forward and back: no frame twice', async () => {
    c = await startConsole({ columns: 100, rows: 30, everyCommit: true });
    const from = c.frames().length;
    await openTransfers(c, { limit: '10' });
    for (let i = 0; i < 12; i += 1) await c.press('down');
    await c.press('n');
    await c.waitForText('Page 2 · 10 per page');
    await c.press('p');
    await c.waitForText('Page 1 · 10 per page');
    await c.settle(150);
    expect(c.frames().length - from).toBeGreaterThan(10);
    expect(repeats(c.frames().slice(from))).toEqual([]);
  });
});
