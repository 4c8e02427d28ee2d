import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runProfileAdd } from '../../src/commands/profile';
import { readHiddenLine, readLines } from '../../src/commands/terminalInput';
import { loadProfiles } from '../../src/credentials/profiles';
import { capture, testContext } from './helpers';

/** A stand-in terminal: a stream with isTTY and a raw-mode switch whose calls are recorded. */
function fakeTty(): PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode: (mode: boolean) => void; modes: boolean[] } {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode: (mode: boolean) => void; modes: boolean[] };
  stream.isTTY = true;
  stream.isRaw = false;
  stream.modes = [];
  stream.setRawMode = (mode) => {
    stream.modes.push(mode);
    stream.isRaw = mode;
  };
  return stream;
}

describe('hidden line reader (raw mode)', () => {
  it('the Esc key alone, then typing: nothing typed after it is lost; Alt and a key (one write) is no text', async () => {
    const tty = fakeTty();
    const out = capture();
    const answer = readHiddenLine(tty, out.stream, 'Secret: ');
    tty.write('ab');
    tty.write('\u001b');
    await new Promise((resolve) => setTimeout(resolve, 60));
    tty.write('cd');
    tty.write('\u001bx');
    tty.write('e\r');
    expect(await answer).toEqual({ ok: true, value: 'abcde' });
  });

  it('an arrow key split over two reads (ssh, tmux) is still no text', async () => {
    const tty = fakeTty();
    const out = capture();
    const answer = readHiddenLine(tty, out.stream, 'Secret: ');
    tty.write('ab');
    tty.write('\u001b');
    tty.write('[D');
    tty.write('\u001b');
    tty.write('OA');
    tty.write('c\r');
    expect(await answer).toEqual({ ok: true, value: 'abc' });
  });

  it('echoes nothing, edits with backspace and Ctrl-U, ignores arrow keys, and restores the mode', async () => {
    const tty = fakeTty();
    const out = capture();
    const answer = readHiddenLine(tty, out.stream, 'Secret: ');
    tty.write('wrong');
    tty.write('\u0015'); // Ctrl-U clears
    tty.write('s3cr');
    tty.write('\u001b[D\u001bOA'); // left arrow, SS3 up: ignored
    tty.write('x\u007f'); // typed then erased
    tty.write('et ü "q"\r');
    expect(await answer).toEqual({ ok: true, value: 's3cret ü "q"' });
    expect(out.text()).toBe('Secret: \n');
    expect(tty.modes).toEqual([true, false]);
    expect(tty.isPaused()).toBe(true);
  });

  it('Ctrl-C aborts and restores the mode; Ctrl-D on an empty line ends', async () => {
    let tty = fakeTty();
    const first = readHiddenLine(tty, capture().stream, '> ');
    tty.write('abc\u0003def\r');
    expect(await first).toEqual({ ok: false, reason: 'interrupted' });
    expect(tty.modes).toEqual([true, false]);
    tty = fakeTty();
    const second = readHiddenLine(tty, capture().stream, '> ');
    tty.write('\u0004');
    expect(await second).toEqual({ ok: false, reason: 'ended' });
    expect(tty.isRaw).toBe(false);
  });

  it('multi-byte characters split across chunks stay whole', async () => {
    const tty = fakeTty();
    const answer = readHiddenLine(tty, capture().stream, '> ');
    const bytes = Buffer.from('密\r');
    tty.write(bytes.subarray(0, 1));
    tty.write(bytes.subarray(1));
    expect(await answer).toEqual({ ok: true, value: '密' });
  });
});

describe('lines from a pipe', () => {
  it('the first two lines, CRLF or LF, without reading further', async () => {
    const input = new PassThrough();
    const lines = readLines(input, 2);
    input.write('key\r\nsec');
    input.write('ret\nthird\n');
    expect(await lines).toEqual(['key', 'secret']);
  });
  it('fewer lines when the input ends first; the last line needs no newline', async () => {
    const input = new PassThrough();
    input.end('only');
    expect(await readLines(input, 2)).toEqual(['only']);
    const two = new PassThrough();
    two.end('a\nb');
    expect(await readLines(two, 2)).toEqual(['a', 'b']);
  });
});

describe('profile add on a terminal', () => {
  let home = '';
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('Ctrl-C at the secret prompt: exit 130, the terminal restored, nothing saved', async () => {
    home = mkdtempSync(join(tmpdir(), 'bc-tty-'));
    const tty = fakeTty();
    const { ctx, err, out } = testContext(
      undefined,
      {
        configFolder: join(home, 'config'),
        stdin: tty,
        // The keychain is reached before the prompts; an empty one that must never be written to.
        keychain: async () => ({
          get: async () => undefined,
          set: async () => {
            throw new Error('nothing may be stored after Ctrl-C');
          },
          remove: async () => false,
        }),
      },
      { baseUrl: 'http://127.0.0.1:9' },
    );
    const running = runProfileAdd('ttyprofile', {}, ctx);
    await new Promise((r) => setTimeout(r, 20));
    tty.write('mx0vkey\r');
    await new Promise((r) => setTimeout(r, 20));
    tty.write('half-a-secr\u0003');
    expect(await running).toBe(130);
    expect(tty.modes).toEqual([true, false, true, false]);
    expect(err.text()).toBe('API key (not shown): \nSecret key (not shown): \ninterrupted: nothing was saved\n');
    expect(err.text()).not.toContain('mx0vkey');
    expect(out.text()).toBe('');
    expect((await loadProfiles(join(home, 'config'))).profiles).toEqual([]);
  });
});
