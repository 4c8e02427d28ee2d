// A terminal for tests: Ink renders the real tree into a stdout of the size we choose, and keys go in
// through the same splitter the console uses (src/terminal/keyStream), written as chunks like a pty would.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { ReactElement } from 'react';
import { render } from 'ink';
import { KeyStream, afterRender } from '../../src/terminal/keyStream';

class FakeStdout extends EventEmitter {
  columns: number;
  rows: number;
  isTTY = true;
  readonly frames: string[] = [];
  constructor(columns: number, rows: number) {
    super();
    this.columns = columns;
    this.rows = rows;
  }
  write = (frame: string) => {
    this.frames.push(frame);
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
  resize(columns: number, rows: number): void;
  /** Until every key written is read (an ESC waits for what may follow it) and handled, and React has rendered what it set. */
  handled(): Promise<void>;
  /** Until the first frame is drawn and Ink listens for keys (its input effect runs after that frame). */
  listening(): Promise<void>;
  unmount(): void;
}

export function renderInTerminal(tree: ReactElement, size: { columns: number; rows: number }): TestTerminal {
  const stdout = new FakeStdout(size.columns, size.rows);
  const stderr = new FakeStdout(size.columns, size.rows);
  const tty = new FakeTty();
  const keys = new KeyStream(tty as unknown as NodeJS.ReadStream);
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    stdout,
    keys,
    write: (chunk) => tty.write(chunk),
    resize(columns, rows) {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    async handled() {
      const until = Date.now() + 2000;
      while (keys.backlog() > 0 && Date.now() < until) await afterRender();
      await afterRender();
      await reactIdle();
    },
    async listening() {
      const until = Date.now() + 2000;
      while (stdout.frames.length === 0 || keys.listenerCount('readable') === 0) {
        if (Date.now() > until) throw new Error(`timed out waiting for the first frame and Ink to listen for keys; frames: ${stdout.frames.length}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await reactIdle();
    },
    unmount() {
      instance.unmount();
      instance.cleanup();
      keys.detach();
    },
  };
}
