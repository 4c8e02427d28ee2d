// The one-time secret cannot be lost or garbled: every way out asks first and only y leaves; a second
// ctrl+c at the prompt quits; at any size the secret and the API key are shown whole.
import { afterEach, describe, expect, test } from 'vitest';
import { stripVTControlCharacters } from 'node:util';
import type { CreatedKey } from '../../src/api/types';
import type { TargetSwitcher } from '../../src/ui/targets';
import { osc52Clipboard } from '../../src/ui/clipboard';
import { lineWidth, startConsole, type ConsoleOptions, type TestConsole, expectFits } from './harness';
import { reachReview } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

/** Just enough of a switcher for ctrl+p to open the profiles screen (no profile is switched here). */
const switcher: TargetSwitcher = {
  current: () => undefined,
  subscribe: () => () => undefined,
  startupProblem: () => undefined,
  profiles: async () => [],
  openDemo: async () => undefined,
  openProfile: async () => ({ ok: false, message: 'not in this test' }),
  addProfile: async () => ({ ok: false, message: 'not in this test' }),
  useForSession: async () => ({ ok: false, message: 'not in this test' }),
};

const ASK = 'Have you stored the secret key?';

async function onSecret(options: ConsoleOptions = {}): Promise<CreatedKey> {
  c = await startConsole({ switcher, ...options });
  await reachReview(c, c.sandbox.subAccounts[2]!, { toggle: [0], note: 'exit test' });
  await c.press('enter');
  await c.waitForScreen('secret');
  const top = c.navState()!.stack.at(-1)!.route;
  if (top.screen !== 'secret') throw new Error('expected the secret screen');
  return top.created;
}

const onSecretScreen = () => c.navState()!.stack.at(-1)!.route.screen === 'secret';

describe('leaving the secret screen', () => {
  test.each([
    ['esc', 'esc', 'keys'],
    ['enter', 'enter', 'keys'],
    ['q', 'q', 'exit 0'],
    ['ctrl+p', '\u0010', 'profiles'],
    ['ctrl+t', 'ctrlT', 'transferFilter'],
    ['ctrl+c once', 'ctrlC', 'exit 130'],
  ])('%s asks first; any other key stays; y leaves and does what was asked', async (_name, key, after) => {
    const created = await onSecret();
    await c.press(key);
    await c.waitForText(ASK);
    expect(onSecretScreen()).toBe(true);
    expect(c.exitCode()).toBeUndefined();
    expect(c.frame()).toContain('y stored it, leave');

    await c.press('x');
    expect(c.frame()).not.toContain(ASK);
    expect(onSecretScreen()).toBe(true);

    await c.press(key);
    await c.waitForText(ASK);
    await c.press('y');
    if (after.startsWith('exit')) {
      await c.waitFor(() => c.exitCode() !== undefined, 'the exit');
      expect(c.exitCode()).toBe(Number(after.slice(5)));
    } else {
      await c.waitForScreen(after as 'keys');
      expect(c.exitCode()).toBeUndefined();
    }
    // The secret is gone from the navigation state whichever way it was left.
    expect(JSON.stringify(c.navState())).not.toContain(created.secretKey);
  });

  test('a copy still under way says so, and is ended when the screen is left: the secret reaches no clipboard after', async () => {
    let signal: AbortSignal | undefined;
    await onSecret({
      copy: (_text, given) =>
        new Promise<string>((resolve) => {
          signal = given;
          given?.addEventListener('abort', () => resolve('ended'));
        }),
    });
    await c.press('s');
    await c.waitForText('Copying the secret key…');
    expect(signal?.aborted).toBe(false);
    await c.press('enter');
    await c.waitForText(ASK);
    await c.press('y');
    await c.waitForScreen('keys');
    expect(signal?.aborted).toBe(true);
    expect(c.frame()).not.toContain('ended');
  });

  test('a second ctrl+c at the prompt quits at once (130)', async () => {
    await onSecret();
    await c.press('ctrlC');
    await c.waitForText(ASK);
    expect(c.exitCode()).toBeUndefined();
    await c.press('ctrlC');
    expect(c.exitCode()).toBe(130);
  });

  test.each([['enter'], ['esc'], ['q']])('asked by %s, a ctrl+c is the first one: it stays and asks; a second quits', async (key) => {
    await onSecret();
    await c.press(key);
    await c.waitForText(ASK);
    expect(c.frame()).not.toContain('ctrl+c again');
    await c.press('ctrlC');
    await c.settle(50);
    expect(c.exitCode()).toBeUndefined();
    expect(onSecretScreen()).toBe(true);
    expect(c.frame()).toContain(ASK);
    // The first ctrl+c is answered: the prompt now says what a second one does.
    expect(c.frame().replace(/\s+/g, ' ')).toContain('ctrl+c again: quit without it');
    await c.press('ctrlC');
    expect(c.exitCode()).toBe(130);
  });

  test('ctrl+c with the help open still asks about the secret', async () => {
    await onSecret();
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    await c.press('ctrlC');
    await c.waitForText(ASK);
    expect(c.exitCode()).toBeUndefined();
    expect(onSecretScreen()).toBe(true);
  });

  test.each([
    ['alt+y (ESC then y in one write)', ['esc', 'y']],
    ['enter and y typed ahead together', ['enter', 'y']],
    ['ctrl+p and y together', ['\u0010', 'y']],
  ])('%s: the y came with the key that asked, so it is no answer; a y typed after it is', async (_name, keys) => {
    await onSecret();
    await c.chunk(...keys);
    await c.settle(50);
    expect(onSecretScreen()).toBe(true);
    expect(c.frame()).toContain(ASK);
    await c.press('y');
    await c.waitFor(() => !onSecretScreen(), 'the secret screen left');
  });

  test('keys sent in one write with the leave key do not slip past the prompt', async () => {
    await onSecret();
    // Esc asks, q stays, Enter asks again: the prompt is up and the secret still there.
    await c.chunk('esc', 'q', 'enter');
    expect(onSecretScreen()).toBe(true);
    expect(c.frame()).toContain(ASK);
  });
});

describe('the secret shown whole at any size', () => {
  test.each([
    [50, 15],
    [40, 12],
    [60, 20],
    [200, 60],
  ])('%ix%i: revealed secret and API key read back character for character, no line too wide, no frame too tall', async (columns, rows) => {
    const created = await onSecret();
    await c.resize(columns, rows);
    await c.press('v');
    const lines = c.frame().split('\n');
    expect(lines.length).toBeLessThan(rows);
    for (const line of c.rawFrame().split('\n')) expect(lineWidth(line)).toBeLessThanOrEqual(columns);
    // The groups of the secret sit on consecutive lines: joined without spaces they are the secret.
    const text = lines.map((l) => l.trim()).join('\n');
    const compact = text.replace(/[ \n]/g, '');
    expect(compact).toContain(created.secretKey);
    expect(compact).toContain(created.apiKey);
    // No line carrying a piece of the key or the secret is cut.
    for (const line of lines.filter((l) => /[0-9a-z]{8}/.test(l) && !l.startsWith('broker-console'))) expect(line).not.toContain('…');
  });
});

/** The frame fits the terminal: no line too wide, the header first and the footer last, as many lines as the chrome allows. */
function expectChrome(raw: string, columns: number, rows: number, what: string): void {
  const lines = expectFits(raw, columns, rows, what);
  const where = `${what} at ${columns}x${rows}:\n${stripVTControlCharacters(raw)}`;
  expect(lines.length, where).toBe(rows - 1);
  expect(lines[0], where).toMatch(/^broker-console +DEMO /);
  expect(lines.at(-1), where).toMatch(/\? help$/);
}

describe('a key or secret too long for the window', () => {
  const hostile: CreatedKey = {
    subAccount: 'desk1',
    note: 'long secret',
    apiKey: 'mx0vabcdefabcdefa1b2',
    secretKey: '',
    permissions: ['SPOT_ACCOUNT_READ'],
    ips: [],
    createdAt: 1_700_000_000_000,
  };
  const long = (n: number) => 'abcDEF0123456789'.repeat(Math.ceil(n / 16)).slice(0, n);

  test("a secret of 128 characters at 40x12: shown whole, the API key beside its label so the frame fits; a copy's words on one line", async () => {
    const secretKey = long(128);
    c = await startConsole({ columns: 40, rows: 12, switcher, initialRoute: { screen: 'secret', created: { ...hostile, secretKey } } });
    await c.waitForText('Store the secret');
    await c.press('v');
    expect(c.frame().replace(/[ \n]/g, '')).toContain(secretKey);
    expect(c.frame()).toContain(`API key ${hostile.apiKey}`);
    await c.press('s');
    await c.waitForText('Secret key sent to the test');
    expect(c.copies).toEqual([secretKey]);
    expect(c.frame().replace(/[ \n]/g, '')).toContain(secretKey);
    for (const [i, raw] of c.frames().entries()) expectChrome(raw, 40, 12, `frame ${i}`);
  });

  test.each([
    ['secret', 1200, 80, 24],
    ['secret', 1200, 40, 12],
    ['secret', 1200, 60, 20],
    ['API key', 1200, 40, 12],
    ['API key', 4000, 100, 30],
  ] as const)('a %s of %i characters at %ix%i: the frame fits, the screen says so, the copy and y still work', async (what, n, columns, rows) => {
    const value = long(n);
    const created = what === 'secret' ? { ...hostile, secretKey: value } : { ...hostile, apiKey: value, secretKey: long(64) };
    c = await startConsole({ columns, rows, switcher, initialRoute: { screen: 'secret', created } });
    await c.waitForText('Store the secret');
    await c.press('v');
    const told = `The ${what} is ${n.toLocaleString('en-US')} characters: enlarge the window to see it whole, or press ${what === 'secret' ? 's' : 'c'} to copy it`;
    expect(c.frame().replace(/\s+/g, ' ')).toContain(told);
    for (const [i, raw] of c.frames().entries()) expectChrome(raw, columns, rows, `frame ${i}`);
    // The other value is still shown whole.
    expect(c.frame().replace(/\s+/g, '')).toContain(what === 'secret' ? created.apiKey : created.secretKey);

    await c.press(what === 'secret' ? 's' : 'c');
    await c.waitForText(what === 'secret' ? 'Secret key sent to' : 'API key sent to');
    expect(c.copies).toEqual([value]);
    expectChrome(c.rawFrame(), columns, rows, 'after the copy');

    // A window large enough shows it whole again.
    await c.resize(200, 60);
    expect(c.frame().replace(/[ \n]/g, '')).toContain(value);
    expectChrome(c.rawFrame(), 200, 60, 'enlarged');
    await c.resize(columns, rows);

    await c.press('enter');
    await c.waitForText(/Have you stored the secret key\?|Stored it\? y: leave/);
    expectChrome(c.rawFrame(), columns, rows, 'asking');
    await c.press('y');
    await c.waitForScreen('keys');
  });

  test('an unreadable secret of 127 characters at 40x12: the long warning, the key, the secret told and the prompt all fit', async () => {
    const secretKey = `${long(120)}\u001b]52;c;`;
    c = await startConsole({ columns: 40, rows: 12, switcher, initialRoute: { screen: 'secret', created: { ...hostile, secretKey } } });
    await c.waitForText('Delete this key');
    await c.press('v');
    expect(c.frame().replace(/\s+/g, ' ')).toContain('The secret is 127 characters: enlarge the window to see it whole s/c');
    await c.press('s');
    await c.waitForText('✗ The secret key was not copied');
    for (const [i, raw] of c.frames().entries()) expectChrome(raw, 40, 12, `frame ${i}`);
    expect(c.copies).toEqual([]);
    await c.press('enter');
    await c.waitForText('Stored it? y: leave');
    await c.press('y');
    await c.waitForScreen('keys');
  });
});

describe('copy says what was done', () => {
  test('OSC 52: the bytes go to the terminal, and the message says to paste to check', async () => {
    const written: string[] = [];
    const copy = osc52Clipboard({ write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream, {});
    const said = await copy('mx0vSECRET');
    expect(written).toEqual([`\u001b]52;c;${Buffer.from('mx0vSECRET').toString('base64')}\u0007`]);
    expect(said).toBe('sent to the terminal clipboard; paste to check');
  });

  test('the secret screen repeats what the clipboard did, never "Copied"', async () => {
    await onSecret();
    await c.press('s');
    await c.waitForText('Secret key sent to the test clipboard');
    expect(stripVTControlCharacters(c.frame())).not.toMatch(/Copied/);
  });
});
