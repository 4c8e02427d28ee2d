// Drives a program in a real terminal: tmux runs it, send-keys types, capture-pane reads the screen.
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TmuxControl } from './tmuxControl';

/** One compile cache for every console the e2e tests start (an operator's starts after the first are warm too). */
const SHARED_CACHE = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'node_modules', '.cache', 'broker-console-e2e-cache');
/** A capture even when no output came, this often: a screen tmux changed on its own is still seen. */
const CAPTURE_AT_LEAST_EVERY_MS = 400;

export function tmuxAvailable(): string | undefined {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'tmux is not installed (apt-get install tmux)';
}

export class TmuxSession {
  /** Keys and the waits' captures go through it (test/e2e/tmuxControl.ts); the other calls are a tmux client each. */
  private control: TmuxControl | undefined;
  /** When the next input may go: inputs keep their gap, but a wait for the screen in between counts towards it. */
  private nextInputAt = 0;

  private constructor(
    readonly name: string,
    private readonly socket: string,
    /** Everything the program wrote, appended by pipe-pane: waits capture the screen only after it grew. */
    private readonly output: string,
  ) {}

  /** Starts `command` in a detached session of the given size, with CI removed from its environment. */
  static start(command: string, opts: { columns: number; rows: number; cwd: string; env?: Record<string, string> }): TmuxSession {
    const name = `bc${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const socket = `bc-e2e-${name}`;
    const env = Object.entries(opts.env ?? {})
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' ');
    // Ink renders only the last frame and ignores resize when CI is set (Ink's own rule): the console runs without it.
    const wrapped = `env -u CI ${env} ${command}`;
    execFileSync('tmux', ['-L', socket, 'new-session', '-d', '-s', name, '-x', String(opts.columns), '-y', String(opts.rows), '-c', opts.cwd, wrapped], {
      env: { ...process.env, TMUX: '' },
    });
    const output = join(tmpdir(), `${socket}.out`);
    execFileSync('tmux', ['-L', socket, 'pipe-pane', '-o', '-t', name, `cat >> ${shellQuote(output)}`]);
    return new TmuxSession(name, socket, output);
  }

  /** The console's usual pane: `command` run in `folder`, its config in `folder/<home>` (default config), xterm-256color, 80x24 unless told. */
  static console(command: string, folder: string, opts: { columns?: number; rows?: number; home?: string; env?: Record<string, string> } = {}): TmuxSession {
    return TmuxSession.start(command, {
      columns: opts.columns ?? 80,
      rows: opts.rows ?? 24,
      cwd: folder,
      env: { BROKER_CONSOLE_HOME: join(folder, opts.home ?? 'config'), BROKER_CONSOLE_CACHE: SHARED_CACHE, TERM: 'xterm-256color', ...opts.env },
    });
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The command through the control client: done (keys written, screen read) when it resolves. */
  private command(...args: string[]): Promise<string> {
    this.control ??= new TmuxControl(this.socket, this.name);
    return this.control.run(args);
  }

  /** Sends one input through the control client once the gap after the one before has passed; `gapMs` is the gap after it. */
  private async input(gapMs: number, ...args: string[]): Promise<void> {
    const wait = this.nextInputAt - Date.now();
    if (wait > 0) await sleep(wait);
    await this.command(...args);
    this.nextInputAt = Date.now() + gapMs;
  }

  /** Sends tmux key names (Enter, Escape, Tab, Down, C-c, …), one key per call, 25 ms apart, so none coalesce. */
  async keys(...keys: string[]): Promise<void> {
    for (const key of keys) await this.input(25, 'send-keys', '-t', this.name, key);
  }

  /** Types literal text (the next input 40 ms later). */
  async type(text: string): Promise<void> {
    await this.input(40, 'send-keys', '-t', this.name, '-l', text);
  }

  /**
   * Writes these exact bytes to the program in ONE write (send-keys -H: tmux queues them in one buffer and
   * the pty reads them as one chunk), as fast typing, a held key over SSH or a script delivers them.
   */
  async write(text: string): Promise<void> {
    const hex = [...Buffer.from(text, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
    await this.input(25, 'send-keys', '-t', this.name, '-H', ...hex);
  }

  /**
   * Pastes `text` as the terminal would: tmux wraps it in ESC[200~ … ESC[201~ when (and only when) the
   * program turned bracketed paste on (ESC[?2004h). Line feeds become CR, as a terminal sends them, unless
   * `keepLineFeeds`.
   */
  async paste(text: string, opts: { keepLineFeeds?: boolean } = {}): Promise<void> {
    const buffer = `${this.name}-paste`;
    execFileSync('tmux', ['-L', this.socket, 'load-buffer', '-b', buffer, '-'], { input: text });
    await this.input(25, 'paste-buffer', '-p', '-d', ...(opts.keepLineFeeds ? ['-r'] : []), '-b', buffer, '-t', this.name);
  }

  /** Resizes the window (and so the pane) to columns x rows; the program gets SIGWINCH. */
  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', this.name, '-x', String(columns), '-y', String(rows));
  }

  /** The pane's size as tmux sees it, "columnsxrows". */
  size(): string {
    return this.tmux('display-message', '-p', '-t', this.name, '#{pane_width}x#{pane_height}').trim();
  }

  /** The pane title (what OSC 0/2 set). */
  title(): string {
    return this.tmux('display-message', '-p', '-t', this.name, '#{pane_title}').replace(/\n$/, '');
  }

  /** The server's paste buffers, one line each (OSC 52 writes land here when set-clipboard is on). */
  buffers(): string[] {
    return this.tmux('list-buffers', '-F', '#{buffer_name}: #{buffer_size} bytes: #{buffer_sample}')
      .split('\n')
      .filter((l) => l !== '');
  }

  deleteBuffers(): void {
    for (const line of this.buffers()) this.tmux('delete-buffer', '-b', line.slice(0, line.indexOf(':')));
  }

  /** A global server option (set-option -g). */
  setOption(name: string, value: string): void {
    this.tmux('set-option', '-g', name, value);
  }

  /** The screen with its attributes as escape sequences (capture-pane -e): ESC[7m is reverse video. */
  screenWithAttributes(): string {
    return this.tmux('capture-pane', '-e', '-p', '-t', this.name);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.name);
  }

  /** The whole history of the pane, scrollback included. */
  history(): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', this.name);
  }

  async waitFor(predicate: string | RegExp | ((screen: string) => boolean), timeoutMs = 8000): Promise<string> {
    const test = typeof predicate === 'function' ? predicate : (s: string) => (typeof predicate === 'string' ? s.includes(predicate) : predicate.test(s));
    const deadline = Date.now() + timeoutMs;
    let last = '';
    // A capture costs a tmux client and a screen dump: taken when the program wrote since the last one, and
    // has written nothing more for a poll (a frame tmux has read only part of would be half drawn).
    let seen = -1;
    let previous = -2;
    let capturedAt = 0;
    while (Date.now() < deadline) {
      const written = this.written();
      const settled = written === previous;
      previous = written;
      if (written === -1 || (written !== seen && settled) || Date.now() - capturedAt >= CAPTURE_AT_LEAST_EVERY_MS) {
        seen = written;
        capturedAt = Date.now();
        last = await this.command('capture-pane', '-p', '-t', this.name);
        // A match counts only on a screen nothing was written to since the poll before and during the capture: a
        // capture taken as tmux was still reading a frame (a busy machine can pause a writer mid-frame) is taken again.
        if (test(last)) {
          if (written === -1 || (settled && this.written() === written)) return last;
          seen = -2;
        }
      }
      await sleep(25);
    }
    throw new Error(`timed out waiting for ${String(predicate)}; screen was:\n${last}`);
  }

  /** Bytes the program has written so far; -1 before the pipe has any. */
  private written(): number {
    try {
      return statSync(this.output).size;
    } catch {
      return -1;
    }
  }

  kill(): void {
    let socketPath = '';
    try {
      socketPath = this.tmux('display-message', '-p', '#{socket_path}').trim();
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    this.control?.close();
    // tmux may leave its socket file behind: one per test session adds up.
    if (socketPath.includes('bc-e2e-')) rmSync(socketPath, { force: true });
    rmSync(this.output, { force: true });
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** From a sub-account's key list: n, the first permission, a note, review, send; resolves to the secret screen. */
export async function createKeyFromList(s: TmuxSession, subAccount: string, note: string): Promise<string> {
  await s.keys('n');
  await s.waitFor(`New API key for ${subAccount}`);
  await s.keys('Space', 'Tab', 'Tab', 'Tab');
  await s.waitFor('› Note');
  await s.type(note);
  await s.keys('Enter');
  await s.waitFor('exactly what will be sent');
  await s.keys('Enter');
  return s.waitFor('Store the secret key now');
}
