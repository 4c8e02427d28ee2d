// Drives a program in a real terminal: tmux runs it, send-keys types, capture-pane reads the screen.
import { execFileSync, spawnSync } from 'node:child_process';

export function tmuxAvailable(): string | undefined {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'tmux is not installed (apt-get install tmux)';
}

export class TmuxSession {
  private constructor(readonly name: string, private readonly socket: string) {}

  /** Starts `command` in a detached session of the given size, with CI removed from its environment. */
  static start(command: string, opts: { columns: number; rows: number; cwd: string; env?: Record<string, string> }): TmuxSession {
    const name = `bc${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const socket = `bc-e2e-${name}`;
    const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    // Ink renders only the last frame and ignores resize when CI is set (STYLE.md): the console runs without it.
    const wrapped = `env -u CI ${env} ${command}`;
    execFileSync('tmux', ['-L', socket, 'new-session', '-d', '-s', name, '-x', String(opts.columns), '-y', String(opts.rows), '-c', opts.cwd, wrapped], {
      env: { ...process.env, TMUX: '' },
    });
    return new TmuxSession(name, socket);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Sends tmux key names (Enter, Escape, Tab, Down, C-c, …), one key per call so none coalesce. */
  async keys(...keys: string[]): Promise<void> {
    for (const key of keys) {
      this.tmux('send-keys', '-t', this.name, key);
      await sleep(60);
    }
  }

  /** Types literal text. */
  async type(text: string): Promise<void> {
    this.tmux('send-keys', '-t', this.name, '-l', text);
    await sleep(120);
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
    while (Date.now() < deadline) {
      last = this.screen();
      if (test(last)) return last;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${String(predicate)}; screen was:\n${last}`);
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
