// The console (the built bin, in tmux) with its code cache: the first start writes it after the first frame, the
// next starts use it, and a corrupt one is compiled around and replaced; the screen is the same every time.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSubAccountNames } from '../../src/sandbox/seedAccounts';
import { buildCli } from '../commands/helpers';
import { TmuxSession, sleep, tmuxAvailable } from '../e2e/tmux';

const missing = tmuxAvailable();

describe.skipIf(missing !== undefined)('the console and its code cache (tmux 100x30)', () => {
  let bin: string;
  let home: string;
  beforeAll(async () => {
    bin = await buildCli();
    home = mkdtempSync(join(tmpdir(), 'bc-console-cache-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const consoleCaches = (): string[] => {
    try {
      return readdirSync(join(home, 'cache')).filter((name) => /^app-[0-9a-f]{12}\.console\./.test(name));
    } catch {
      return [];
    }
  };

  /** Starts the demo, waits for its first screen (and, when asked, until `cacheWritten`), quits with Esc. */
  async function firstScreen(cacheWritten?: () => boolean, env: Record<string, string> = {}, onScreen = (): void => undefined): Promise<string> {
    const session = TmuxSession.start(`node ${bin} --demo`, { columns: 100, rows: 30, cwd: home, env: { BROKER_CONSOLE_HOME: home, TERM: 'xterm-256color', ...env } });
    try {
      const screen = await session.waitFor(`Demo sub-accounts (${demoSubAccountNames(1).length})`);
      onScreen();
      for (let i = 0; cacheWritten && !cacheWritten() && i < 100; i++) await sleep(50);
      await session.keys('Escape');
      return screen;
    } finally {
      session.kill();
    }
  }

  it('draws the same first screen with no cache, with the cache it wrote, and with a corrupt one', async () => {
    const cold = await firstScreen(() => consoleCaches().length > 0);
    const [file] = consoleCaches();
    expect(file).toBeDefined();
    const written = readFileSync(join(home, 'cache', file!));

    // No Intl.Segmenter before the first frame: its text needs no ICU (src/terminal/graphemeSegmenter.mjs).
    const log = join(home, 'segmenters.log');
    writeFileSync(log, '');
    const preload = fileURLToPath(new URL('./countSegmenters.cjs', import.meta.url));
    let builtByFirstFrame = '';
    expect(await firstScreen(undefined, { NODE_OPTIONS: `--require ${preload}`, BC_TEST_SEGMENTER_LOG: log }, () => (builtByFirstFrame = readFileSync(log, 'utf8')))).toBe(cold);
    expect(builtByFirstFrame).toBe('');
    // Used, not rewritten.
    expect(readFileSync(join(home, 'cache', file!)).equals(written)).toBe(true);

    const corrupt = Buffer.from(written);
    corrupt[corrupt.length >> 1]! ^= 0x01;
    writeFileSync(join(home, 'cache', file!), corrupt);
    const rewritten = () => !readFileSync(join(home, 'cache', file!)).equals(corrupt);
    expect(await firstScreen(rewritten)).toBe(cold);
    expect(rewritten()).toBe(true);
  });
});
