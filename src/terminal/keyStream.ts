// What Ink reads instead of the terminal: the same stream, but one key per read(), so a chunk of
// `j j`, `Tab Tab` or `name` + Enter does exactly what the same keys do one by one. A bracketed paste
// is emitted as a 'paste' event in its place among the keys, never as keys.
import { EventEmitter } from 'node:events';
import { KeySplitter, type InputEvent } from './keys';
import { ESCAPE_WAIT_MS } from './escapeWait';

/** How long an unfinished paste waits for its end marker before what came is pasted as it is. */
const PASTE_WAIT_MS = 500;

type Source = NodeJS.ReadableStream & {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
  ref?: () => unknown;
  unref?: () => unknown;
  setEncoding?: (encoding: BufferEncoding) => unknown;
};

/**
 * Resolves once the work scheduled by what just ran has rendered: React schedules a render from a
 * microtask onto its scheduler (setImmediate in Node), and Ink flushes a held Escape with setImmediate;
 * two turns after a microtask come after both.
 */
export function afterRender(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(() => setImmediate(() => setImmediate(resolve))));
}

export class KeyStream extends EventEmitter {
  readonly isTTY: boolean;
  readonly isRaw: boolean = false;
  private readonly splitter = new KeySplitter();
  /** Keys and pastes not yet read, each with the number of the chunk (one read from the terminal) it came in. */
  private readonly queue: Array<{ event: InputEvent; chunk: number }> = [];
  private chunks = 0;
  private lastChunk = 0;
  private waitTimer: NodeJS.Timeout | undefined;
  /** After a key: the next one waits until this one's effect has rendered. */
  private holding = false;
  private attached = false;

  constructor(private readonly source: Source) {
    super();
    this.isTTY = source.isTTY === true;
    this.on('newListener', (event: string) => {
      if (event === 'readable' && !this.attached) this.attach();
    });
    // Ink removes its listener when it is done with the terminal: stop reading, so the process can end.
    this.on('removeListener', (event: string) => {
      if (event === 'readable' && this.listenerCount('readable') === 0) this.detach();
    });
  }

  setRawMode(mode: boolean): this {
    this.source.setRawMode?.(mode);
    (this as { isRaw: boolean }).isRaw = mode;
    return this;
  }

  /** The keys are already text; the source is decoded as UTF-8 so no character is split between chunks. */
  setEncoding(): this {
    return this;
  }

  ref(): this {
    this.source.ref?.();
    return this;
  }

  unref(): this {
    this.source.unref?.();
    return this;
  }

  /**
   * The next key, or null. One key per turn: React renders a key's effect in a task of its own (its
   * scheduler's), so the next key waits for that task, and meets the screen and the handlers that key
   * left. Pastes due before a key are emitted on the way ('paste' events).
   */
  read(): string | null {
    for (;;) {
      if (this.holding) return null;
      const queued = this.queue.shift();
      if (queued === undefined) return null;
      const next = queued.event;
      this.lastChunk = queued.chunk;
      if (next.kind === 'paste') {
        this.emit('paste', next.text);
        this.holdUntilRendered();
        return null;
      }
      this.holdUntilRendered();
      // DEL is what the backspace key sends: read it as backspace, so Delete (ESC [3~) can delete forward.
      if (next.sequence === '\u007f') return '\b';
      if (next.sequence === '\u001b\u007f') return '\u001b\b';
      // A lone ESC is already known to be the Escape key here: handed to Ink as the kitty keyboard protocol's
      // Escape, a whole sequence, so Ink does not hold it back to see whether a sequence follows.
      if (next.sequence === '\u001b') return '\u001b[27u';
      return next.sequence;
    }
  }

  /** Holds the next key until the work this one started has rendered (see afterRender). */
  private holdUntilRendered(): void {
    this.holding = true;
    void afterRender().then(() => {
      this.holding = false;
      if (this.queue.length > 0) this.emit('readable');
    });
  }

  /**
   * The chunk the key read last came in: keys of one chunk came together (typed ahead, a paste, or a chord such as
   * alt+y, which is ESC then y), never one as an answer to what the other showed.
   */
  chunkOfLastKey(): number {
    return this.lastChunk;
  }

  /** Keys and pastes received but not yet read, counting input held back (an ESC that may start a sequence). */
  backlog(): number {
    return this.queue.length + (this.splitter.hasPendingEscape() || this.splitter.inPaste() || this.holding ? 1 : 0);
  }

  /** Feeds input as if it came from the terminal (the source's data events call this). */
  feed(chunk: string): void {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    const number = ++this.chunks;
    this.enqueue(this.splitter.push(chunk), number);
    if (this.splitter.hasPendingEscape() || this.splitter.inPaste()) {
      this.waitTimer = setTimeout(
        () => {
          this.waitTimer = undefined;
          this.enqueue(this.splitter.flush(), number);
        },
        this.splitter.inPaste() ? PASTE_WAIT_MS : ESCAPE_WAIT_MS,
      );
    }
  }

  /** Stops reading the source (the console is done with it). */
  detach(): void {
    if (!this.attached) return;
    this.attached = false;
    this.source.off('data', this.onData);
    this.source.pause();
    if (this.waitTimer) clearTimeout(this.waitTimer);
  }

  private enqueue(events: InputEvent[], chunk: number): void {
    if (events.length === 0) return;
    this.queue.push(...events.map((event) => ({ event, chunk })));
    if (!this.holding) this.emit('readable');
  }

  private readonly onData = (chunk: string | Buffer) => this.feed(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));

  private attach(): void {
    this.attached = true;
    this.source.setEncoding?.('utf8');
    this.source.on('data', this.onData);
    this.source.resume();
  }
}
