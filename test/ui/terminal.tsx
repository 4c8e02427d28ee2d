// A terminal for tests: Ink renders the real tree into a stdout of the size we choose, and keys go in
// through the same splitter the console uses (src/terminal/keyStream), written as chunks like a pty would.
// Ink draws as it does in the console (at most 30 frames a second, through its log-update); a test whose
// assertion is about every React commit asks for every commit drawn (Ink's debug mode) instead.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { ReactElement } from 'react';
import { render } from 'ink';
import { KeyStream, afterRender } from '../../src/terminal/keyStream';

/** Cursor moves, erases and modes (CSI ending in anything but m): what Ink's log-update writes around a frame, never in one. */
const CONTROL_AT_START = /^(?:\u001b\[[0-9;?]*[A-HJKSTfhl])+/;
const CONTROL_AT_END = /(?:\u001b\[[0-9;?]*[A-HJKSTfhl])+$/;

/** The frame one write of log-update's carries, without the erase before it, the cursor after it and the newline ending a frame shorter than the screen; undefined for a write of control only. */
export function frameIn(data: string): string | undefined {
  const text = data.replace(CONTROL_AT_START, '').replace(CONTROL_AT_END, '');
  if (text === '') return undefined;
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** A debug-mode write is the whole frame; the empty write waitUntilRenderFlush() makes is none. */
const wholeFrame = (data: string): string | undefined => (data === '' ? undefined : data);

class FakeStdout extends EventEmitter {
  columns: number;
  rows: number;
  isTTY = true;
  /** False once the terminal is closed: Ink then draws no last frame at unmount, which no test could read. */
  writable = true;
  readonly frames: string[] = [];
  constructor(
    columns: number,
    rows: number,
    private readonly frameOf: (data: string) => string | undefined,
  ) {
    super();
    this.columns = columns;
    this.rows = rows;
  }
  write = (data: string, encodingOrDone?: BufferEncoding | (() => void), done?: () => void) => {
    const frame = this.frameOf(data);
    if (frame !== undefined) this.frames.push(frame);
    (typeof encodingOrDone === 'function' ? encodingOrDone : done)?.();
    return true;
  };
  lastFrame = (): string | undefined => this.frames.at(-1);
}

/** What the terminal driver writes into: the bytes a pty would deliver, in the chunks given. */
class FakeTty extends EventEmitter {
  isTTY = true;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  write(chunk: string) {
    this.emit('data', chunk);
  }
}

// React's scheduler: the one instance Ink's renderer uses (both loaded by Node's require, not by vitest).
const scheduler = createRequire(import.meta.url)('scheduler') as {
  unstable_scheduleCallback(priority: number, run: () => void): unknown;
  unstable_LowPriority: number;
};

/**
 * Until React has run every render and effect scheduled so far, in every console of this process. Tests of a file
 * run at the same time: other consoles' renders on the one scheduler can push this one's past the two turns
 * afterRender() counts on (a key then meets the frame and the focused field of the key before). A low-priority
 * task runs after them.
 */
export const reactIdle = (): Promise<void> => new Promise((resolve) => scheduler.unstable_scheduleCallback(scheduler.unstable_LowPriority, () => resolve()));

export interface TestTerminal {
  stdout: FakeStdout;
  /** Writes one chunk, as one read() from a pty would return it. */
  write(chunk: string): void;
  keys: KeyStream;
  /** Until Ink and the console's layout have both drawn the new size. */
  resize(columns: number, rows: number): Promise<void>;
  /** Until every key written is read (an ESC waits for what may follow it) and handled, React has rendered what it set, and Ink has drawn it. */
  handled(): Promise<void>;
  /** As handled(), but Ink draws at its own pace, as it does for keys typed faster than its frame rate. */
  read(): Promise<void>;
  /** Until the frame Ink's throttle holds back, if any, is drawn (with what the effects run first render); at once in everyCommit. */
  drawn(): Promise<void>;
  /** Until the first frame is drawn and Ink listens for keys (its input effect runs after that frame). */
  listening(): Promise<void>;
  unmount(): void;
}

export interface TerminalOptions {
  columns: number;
  rows: number;
  /** Draw every React commit, for assertions about every frame the console could show (none repeated, none with a secret, each one fits). */
  everyCommit?: boolean;
}

export function renderInTerminal(tree: ReactElement, options: TerminalOptions): TestTerminal {
  const everyCommit = options.everyCommit ?? false;
  const frameOf = everyCommit ? wholeFrame : frameIn;
  const stdout = new FakeStdout(options.columns, options.rows, frameOf);
  const stderr = new FakeStdout(options.columns, options.rows, frameOf);
  const tty = new FakeTty();
  const keys = new KeyStream(tty as unknown as NodeJS.ReadStream);
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    debug: everyCommit,
    // A terminal, as the console's is, whatever the environment says about CI.
    interactive: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const read = async () => {
    const until = Date.now() + 2000;
    while (keys.backlog() > 0 && Date.now() < until) await afterRender();
    await afterRender();
    await reactIdle();
  };
  const drawn = async () => {
    // A frame Ink's throttle holds back is drawn now, not up to a frame's time later.
    if (!everyCommit) await instance.waitUntilRenderFlush();
  };
  const handled = async () => {
    await read();
    await drawn();
  };
  return {
    stdout,
    keys,
    write: (chunk) => tty.write(chunk),
    async resize(columns, rows) {
      stdout.columns = columns;
      stdout.rows = rows;
      // Ink draws at the new size at once; the console's layout follows in the render its resize handler asks for.
      stdout.emit('resize');
      await handled();
    },
    handled,
    read,
    drawn,
    async listening() {
      const until = Date.now() + 2000;
      while (stdout.frames.length === 0 || keys.listenerCount('readable') === 0) {
        if (Date.now() > until) throw new Error(`timed out waiting for the first frame and Ink to listen for keys; frames: ${stdout.frames.length}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await reactIdle();
    },
    unmount() {
      stdout.writable = false;
      instance.unmount();
      instance.cleanup();
      keys.detach();
    },
  };
}
