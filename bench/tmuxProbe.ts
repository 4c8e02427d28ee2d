// Times what a terminal sees: a tmux server in control mode (-C) reports every byte a pane writes as it
// arrives (%output), so "the frame is on the screen" is measured to the chunk, not to a capture-pane poll.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';

export function tmuxMissing(): string | undefined {
  return spawnSync('tmux', ['-V']).status === 0 ? undefined : 'tmux is not installed';
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

// Colours, cursor moves, erase: whatever a frame wraps its text in.
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-B]|[=>78DEHMc])/g;

/** Control mode escapes bytes below 32 and the backslash as \ooo; the text was read as latin1, one char a byte. */
function decodeOutput(escaped: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped.charCodeAt(i);
    if (c === 0x5c && /^[0-7]{3}$/.test(escaped.slice(i + 1, i + 4))) {
      bytes.push(parseInt(escaped.slice(i + 1, i + 4), 8));
      i += 3;
    } else bytes.push(c);
  }
  return Buffer.from(bytes);
}

interface Pending {
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
  lines: string[];
}

/** One tmux server, one control client, windows of a fixed size; each window runs one program. */
export class TmuxProbe {
  private readonly child: ChildProcessWithoutNullStreams;
  private partial = '';
  private readonly pending: Pending[] = [];
  private inBlock: Pending | undefined | null = null;
  /** Text (ANSI stripped) each pane wrote since its mark, and when it last grew. */
  private readonly text = new Map<string, { raw: Buffer[]; at: number }>();
  private readonly watchers = new Set<() => void>();
  private readonly commands = new Map<string, string>();

  private constructor(
    readonly socket: string,
    columns: number,
    rows: number,
    cwd: string,
  ) {
    this.child = spawn(
      'tmux',
      ['-L', socket, '-f', '/dev/null', '-C', 'new-session', '-s', 'probe', '-x', String(columns), '-y', String(rows), '-c', cwd, 'exec sleep 100000'],
      {
        env: { ...process.env, TMUX: '' },
        stdio: 'pipe',
      },
    );
    this.child.stdout.setEncoding('latin1');
    this.child.stdout.on('data', (chunk: string) => this.onData(chunk));
  }

  static async open(opts: { columns: number; rows: number; cwd: string }): Promise<TmuxProbe> {
    const probe = new TmuxProbe(`bc-bench-${process.pid}-${Math.floor(Math.random() * 1e6)}`, opts.columns, opts.rows, opts.cwd);
    // Windows keep their size whatever the (control) client says; a program that ends leaves its window.
    await probe.command(`set-option -g remain-on-exit on`);
    await probe.command(`refresh-client -C ${opts.columns}x${opts.rows}`);
    return probe;
  }

  private onData(chunk: string): void {
    // latin1 keeps bytes as they came; a %output line is decoded to UTF-8 after unescaping.
    this.partial += chunk;
    let at: number;
    while ((at = this.partial.indexOf('\n')) >= 0) {
      const line = this.partial.slice(0, at);
      this.partial = this.partial.slice(at + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    if (this.inBlock !== null) {
      if (line.startsWith('%end ') || line.startsWith('%error ')) {
        const block = this.inBlock;
        this.inBlock = null;
        if (block) {
          if (line.startsWith('%error ')) block.reject(new Error(`tmux: ${block.lines.join(' ')}`));
          else block.resolve(block.lines);
        }
      } else this.inBlock?.lines.push(line);
      return;
    }
    if (line.startsWith('%begin ')) {
      // Flag 1: a command this client sent; the others (the session's own start) are not waited on.
      this.inBlock = line.split(' ')[3] === '1' ? this.pending.shift() : undefined;
      return;
    }
    if (line.startsWith('%output ')) {
      const space = line.indexOf(' ', 8);
      const pane = line.slice(8, space);
      const seen = this.text.get(pane);
      if (seen) {
        seen.raw.push(decodeOutput(line.slice(space + 1)));
        seen.at = now();
        for (const watcher of this.watchers) watcher();
      }
    }
  }

  command(text: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject, lines: [] });
      this.child.stdin.write(`${text}\n`);
    });
  }

  /** Starts `command` in a new window; returns its pane id and the time the command was handed to tmux. */
  async start(command: string): Promise<{ pane: string; startedAt: number }> {
    const [pane] = await this.command(`new-window -d -P -F '#{pane_id}' ${quote('exec sleep 100000')}`);
    this.mark(pane!);
    this.commands.set(pane!, command);
    const startedAt = now();
    await this.command(`respawn-pane -k -t ${pane} ${quote(command)}`);
    return { pane: pane!, startedAt };
  }

  /** Forgets what the pane wrote so far: the next wait looks at new output only. */
  mark(pane: string): void {
    this.text.set(pane, { raw: [], at: now() });
  }

  screenText(pane: string): string {
    const seen = this.text.get(pane);
    return seen ? Buffer.concat(seen.raw).toString('utf8').replace(ANSI, '') : '';
  }

  /** Resolves with the time the pane's output (since its mark, ANSI stripped) first matched. */
  waitFor(pane: string, test: (text: string) => boolean, timeoutMs = 10_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!test(this.screenText(pane))) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve(this.text.get(pane)!.at);
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms: ${this.commands.get(pane) ?? pane} wrote:\n${this.screenText(pane).slice(-2000)}`));
      }, timeoutMs);
      this.watchers.add(check);
      check();
    });
  }

  /** Sends tmux key names to a pane; returns the time they were handed to tmux. */
  async keys(pane: string, ...keys: string[]): Promise<number> {
    this.mark(pane);
    const at = now();
    await this.command(`send-keys -t ${pane} ${keys.map(quote).join(' ')}`);
    return at;
  }

  async pid(pane: string): Promise<number> {
    const [line] = await this.command(`display-message -p -t ${pane} '#{pane_pid}'`);
    return Number(line);
  }

  async kill(pane: string): Promise<void> {
    await this.command(`kill-pane -t ${pane}`).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.child.stdin.write('kill-server\n');
    await new Promise((resolve) => this.child.once('exit', resolve));
    const dir = `/tmp/tmux-${process.getuid?.() ?? 0}`;
    rmSync(`${dir}/${this.socket}`, { force: true });
  }
}

/** CPU time (ms) of a process, all its threads, from the scheduler's nanosecond counters. */
export function cpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns / 1e6;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
