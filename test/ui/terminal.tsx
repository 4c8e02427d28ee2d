// A terminal for tests: Ink renders the real tree into a stdout of the size we choose, and keys go in
// through the same splitter the console uses (src/terminal/keyStream), written as chunks like a pty would.
import { EventEmitter } from 'node:events';
import type { ReactElement } from 'react';
import { render } from 'ink';
import { KeyStream } from '../../src/terminal/keyStream';
import { shareInkLineCaches } from '../../src/ui/ink/lineCaches';

// The console shares Ink's line caches across frames (src/ui/run.tsx): the tests render the same way.
shareInkLineCaches();

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

export interface TestTerminal {
  stdout: FakeStdout;
  /** Writes one chunk, as one read() from a pty would return it. */
  write(chunk: string): void;
  keys: KeyStream;
  resize(columns: number, rows: number): void;
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
    unmount() {
      instance.unmount();
      instance.cleanup();
      keys.detach();
    },
  };
}
