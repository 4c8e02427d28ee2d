// The console's copy: the system clipboard locally (a stub xsel / wl-copy on PATH records what reached its
// stdin), OSC 52 over SSH or with no system clipboard (checked by its bytes, plain and tmux-wrapped), and
// the words that say which was done. The copied text goes to the tool's stdin and nowhere else.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  COPY_CANCELLED,
  OSC52_SENT,
  copyValue,
  osc52Clipboard,
  osc52Sequences,
  systemClipboard,
  systemClipboardTool,
  systemCopySaid,
} from '../../src/ui/clipboard';

const SECRET = 'Zx9/secret+key=with "quotes" ünï 🔑\nand a second line';
const b64 = Buffer.from(SECRET, 'utf8').toString('base64');
const ESC = '\u001b';
const PLAIN = `${ESC}]52;c;${b64}\u0007`;

function sink(): { stream: NodeJS.WritableStream; written: string[] } {
  const written: string[] = [];
  return { stream: { write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream, written };
}

describe('OSC 52, by its bytes', () => {
  it('plain: ESC ] 52 ; c ; base64 of the UTF-8 text, BEL; the words say to paste to check', async () => {
    const out = sink();
    expect(await osc52Clipboard(out.stream, {})(SECRET)).toBe('sent to the terminal clipboard; paste to check');
    expect(out.written).toEqual([PLAIN]);
  });

  it('inside tmux: the plain sequence (tmux takes it with set-clipboard on), then the same in the DCS passthrough, ESCs doubled', async () => {
    const env = { TMUX: '/tmp/tmux-1000/default,4242,0' };
    expect(osc52Sequences(SECRET, env)).toBe(`${PLAIN}${ESC}Ptmux;${ESC}${ESC}]52;c;${b64}\u0007${ESC}\\`);
    const out = sink();
    expect(await osc52Clipboard(out.stream, env)(SECRET)).toBe(OSC52_SENT);
    expect(out.written.join('')).toBe(`${PLAIN}${ESC}Ptmux;${ESC}${ESC}]52;c;${b64}\u0007${ESC}\\`);
    // An empty TMUX (tmux's own tests clear it) is not tmux.
    expect(osc52Sequences(SECRET, { TMUX: '' })).toBe(PLAIN);
  });
});

let dir: string;
let bin: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bc-clipboard-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for a clipboard tool: records its arguments and its stdin, exits with `status`. */
function stubTool(name: string, status = 0): { stdin: () => string; args: () => string } {
  const record = join(dir, `${name}.stdin`);
  const argv = join(dir, `${name}.args`);
  rmSync(record, { force: true });
  writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s ' "$@" > '${argv}'\ncat > '${record}'\nexit ${status}\n`);
  chmodSync(join(bin, name), 0o755);
  return { stdin: () => readFileSync(record, 'utf8'), args: () => readFileSync(argv, 'utf8').trim() };
}

describe('which clipboard a copy uses', () => {
  const path = (): string => `${bin}:/usr/bin:/bin`;
  it('over SSH: none (the terminal clipboard is the one at hand), whatever the display', () => {
    stubTool('xsel');
    expect(systemClipboardTool({ DISPLAY: ':0', PATH: path(), SSH_CONNECTION: '10.0.0.1 5022 10.0.0.2 22' }, 'linux')).toBeUndefined();
    expect(systemClipboardTool({ DISPLAY: ':0', PATH: path(), SSH_TTY: '/dev/pts/3' }, 'linux')).toBeUndefined();
    expect(systemClipboardTool({ PATH: path(), SSH_TTY: '/dev/pts/3' }, 'darwin')).toBeUndefined();
  });
  it('locally: wl-copy on Wayland, xsel on X11, pbcopy on macOS; none without a display or the tool', () => {
    stubTool('xsel');
    stubTool('wl-copy');
    expect(systemClipboardTool({ DISPLAY: ':0', PATH: path() }, 'linux')).toBe('xsel');
    expect(systemClipboardTool({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0', PATH: path() }, 'linux')).toBe('wl-copy');
    expect(systemClipboardTool({ PATH: path() }, 'linux')).toBeUndefined();
    expect(systemClipboardTool({ DISPLAY: ':0', PATH: '/nonexistent' }, 'linux')).toBeUndefined();
    expect(systemClipboardTool({}, 'darwin')).toBe('pbcopy');
  });
});

describe('systemClipboard', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  /** process.env as a local desktop session would have it (the copy reads process.env by default). */
  function desktop(vars: Record<string, string>): string {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    for (const key of ['SSH_CONNECTION', 'SSH_TTY', 'SSH_CLIENT', 'WAYLAND_DISPLAY', 'XDG_SESSION_TYPE', 'DISPLAY', 'TMUX', 'WSL_DISTRO_NAME', 'WSL_INTEROP'])
      delete process.env[key];
    Object.assign(process.env, { PATH: `${bin}:/usr/bin:/bin`, TMPDIR: tmp, ...vars });
    return tmp;
  }

  function settled(): {
    done: Promise<{ tool: string; ok: boolean; error?: unknown }>;
    onSettled: (o: { tool: string; ok: boolean; error?: unknown }) => void;
  } {
    let onSettled!: (o: { tool: string; ok: boolean; error?: unknown }) => void;
    const done = new Promise<{ tool: string; ok: boolean; error?: unknown }>((resolve) => {
      onSettled = resolve;
    });
    return { done, onSettled };
  }

  it('X11 locally: xsel runs with the text on its stdin; nothing to the terminal, no temporary file', async () => {
    const xsel = stubTool('xsel');
    const tmp = desktop({ DISPLAY: ':99' });
    const out = sink();
    const { done, onSettled } = settled();
    const said = await systemClipboard(out.stream, { onSettled })(SECRET);
    expect(said).toBe('sent to the system clipboard (xsel); paste to check');
    expect(said).toBe(systemCopySaid('xsel'));
    expect(await done).toEqual({ tool: 'xsel', ok: true });
    expect(xsel.stdin()).toBe(SECRET);
    expect(xsel.args()).toBe('--clipboard --input');
    expect(out.written).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("the tool runs with a minimal environment: no credential of the console's environment reaches it", async () => {
    const xsel = stubTool('xsel');
    const envFile = join(dir, 'xsel.env');
    writeFileSync(join(bin, 'xsel'), `#!/bin/sh\nenv > '${envFile}'\ncat > /dev/null\n`);
    desktop({ DISPLAY: ':99', BROKER_API_SECRET: 'env-secret-for-the-clipboard-test', BROKER_API_KEY: 'mx0venvkey', AWS_SECRET_ACCESS_KEY: 'other-secret' });
    const { done, onSettled } = settled();
    expect(await systemClipboard(sink().stream, { onSettled })(SECRET)).toBe(systemCopySaid('xsel'));
    expect((await done).ok).toBe(true);
    const seen = readFileSync(envFile, 'utf8');
    expect(seen).toContain('DISPLAY=:99');
    expect(seen).not.toContain('env-secret-for-the-clipboard-test');
    expect(seen).not.toContain('BROKER_');
    expect(seen).not.toContain('other-secret');
    expect(xsel.args).toBeDefined();
  });

  it('Wayland locally: wl-copy gets the text on its stdin, and no file is written', async () => {
    const wl = stubTool('wl-copy');
    const tmp = desktop({ WAYLAND_DISPLAY: 'wayland-1' });
    const out = sink();
    const { done, onSettled } = settled();
    expect(await systemClipboard(out.stream, { onSettled })(SECRET)).toBe('sent to the system clipboard (wl-copy); paste to check');
    expect(await done).toEqual({ tool: 'wl-copy', ok: true });
    expect(wl.stdin()).toBe(SECRET);
    expect(wl.args()).toBe('--type text/plain');
    expect(out.written).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a clipboard tool that fails: the text goes by OSC 52 after all', async () => {
    stubTool('xsel', 1);
    desktop({ DISPLAY: ':99', TMUX: '/tmp/tmux-0/default,1,0' });
    const out = sink();
    const { done, onSettled } = settled();
    // The words come after the tool finished: they say it failed and where the text went instead.
    expect(await systemClipboard(out.stream, { onSettled })(SECRET)).toBe('xsel failed, so sent to the terminal clipboard; paste to check');
    const outcome = await done;
    expect(outcome.ok).toBe(false);
    expect(out.written.join('')).toBe(osc52Sequences(SECRET, { TMUX: 'x' }));
  });

  it('a tool that hangs, and the screen left meanwhile: the tool is ended and nothing goes by OSC 52 after', async () => {
    const pidFile = join(dir, 'xsel.pid');
    writeFileSync(join(bin, 'xsel'), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 30\n`, { mode: 0o755 });
    desktop({ DISPLAY: ':99' });
    const out = sink();
    const { done, onSettled } = settled();
    const left = new AbortController();
    const said = systemClipboard(out.stream, { onSettled })(SECRET, left.signal);
    // The shell creates the file before it writes the pid: an empty read would be pid 0, this process's group.
    const written = (): boolean => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n');
    for (let i = 0; i < 100 && !written(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(1);
    left.abort();
    expect(await said).toBe(COPY_CANCELLED);
    expect((await done).ok).toBe(false);
    // Ended, and reaped (on a loaded machine a moment after the kill).
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe(false);
    expect(out.written).toEqual([]);
  });

  it('over SSH, or with no system clipboard: OSC 52 at once, and the library is never loaded', async () => {
    stubTool('xsel');
    let loaded = 0;
    const load = async () => {
      loaded += 1;
      return { write: async () => undefined };
    };
    for (const env of [{ DISPLAY: ':99', PATH: `${bin}:/usr/bin`, SSH_CONNECTION: '10.0.0.1 5022 10.0.0.2 22' }, { PATH: `${bin}:/usr/bin` }]) {
      const out = sink();
      expect(await systemClipboard(out.stream, { env, platform: 'linux', load })(SECRET)).toBe(OSC52_SENT);
      expect(out.written).toEqual([PLAIN]);
    }
    const tmux = sink();
    expect(await systemClipboard(tmux.stream, { env: { TMUX: '/tmp/t,1,0', SSH_TTY: '/dev/pts/1' }, platform: 'linux', load })(SECRET)).toBe(OSC52_SENT);
    expect(tmux.written.join('')).toBe(osc52Sequences(SECRET, { TMUX: 'x' }));
    expect(loaded).toBe(0);
  });
});

describe('copyValue: the one rule for every copy the screens make', () => {
  const recording = () => {
    const copied: string[] = [];
    return { copied, copy: async (text: string) => (copied.push(text), 'sent to the test clipboard') };
  };

  it.each([
    ['a line break', 'mx0vabc\r\necho PWNED\r\n', 'U+000D'],
    ['an OSC 52 write', '6708\u001b]52;c;ZXZpbA==\u0007', 'U+001B'],
    ['a C1 CSI', 'ab\u009b31m', 'U+009B'],
    ['a bidi override', 'abc\u202egnp.exe', 'U+202E'],
    ['a zero-width space', 'mx0v\u200babc', 'U+200B'],
  ])('a value holding %s is not copied, and the notice names the character', async (_name, value, code) => {
    const { copied, copy } = recording();
    expect(await copyValue(copy, 'transfer id', value, { shown: value })).toBe(
      `✗ The transfer id was not copied: it holds ${code}, which a terminal cannot show (shown as a mark)`,
    );
    expect(copied).toEqual([]);
  });

  it('a value a terminal shows as it is (an emoji with its joiner too) is copied as sent; the notice says what was done first', async () => {
    const { copied, copy } = recording();
    const value = '6708👩‍💻'.repeat(20);
    const said = await copyValue(copy, 'transfer id', value, { shown: value });
    expect(copied).toEqual([value]);
    expect(said.startsWith('Transfer id sent to the test clipboard: 6708')).toBe(true);
    expect(await copyValue(copy, 'secret key', 'abc')).toBe('Secret key sent to the test clipboard');
  });

  it('a copy that fails says why, and where the value still is; never the value', async () => {
    const copy = async () => Promise.reject(Object.assign(new Error('boom mx0vSECRET'), { code: 'EIO' }));
    expect(await copyValue(copy, 'secret key', 'mx0vSECRET', { ifFailed: 'copy it from the screen' })).toBe(
      '✗ The secret key could not be copied (EIO): copy it from the screen',
    );
  });

  it('no screen copies but through it', () => {
    const root = join(import.meta.dirname, '../../src/ui');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && f !== 'clipboard.ts');
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/\bcopy\(/);
  });
});
