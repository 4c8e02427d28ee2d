// A tmux control-mode client (tmux -C): commands go down one pipe and their output comes back between %begin and
// %end, instead of a tmux client process per command: each would be a fork of the (large) test worker, paid
// hundreds of times a run, with the worker blocked meanwhile.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';

interface Waiting {
  resolve(output: string): void;
  reject(error: Error): void;
}

/** A word as tmux's command parser reads it back unchanged: bare when plain, else single-quoted. */
function quote(arg: string): string {
  return /^[A-Za-z0-9_.,:=+/@-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'"'"'`)}'`;
}

/** One line down the pipe cannot carry a line break or another control character. */
const ONE_LINE = /^[^\x00-\x1f\x7f]*$/;

export class TmuxControl {
  private readonly child: ChildProcessWithoutNullStreams;
  /** In the order sent; the first answers the attach itself. */
  private readonly waiting: Waiting[] = [{ resolve: () => undefined, reject: () => undefined }];
  private block: { id: string; lines: string[] } | undefined;
  private partial = '';
  private gone: Error | undefined;

  constructor(
    private readonly socket: string,
    session: string,
  ) {
    // no-output: no %output notification for every byte the program writes; ignore-size: the window keeps its size.
    this.child = spawn('tmux', ['-L', socket, '-C', 'attach-session', '-f', 'no-output,ignore-size', '-t', session], {
      env: { ...process.env, TMUX: '' },
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.read(chunk));
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.resume();
    this.child.on('close', () => {
      this.gone = new Error(`the tmux control client of ${session} exited`);
      for (const waiting of this.waiting.splice(0)) waiting.reject(this.gone);
    });
    this.child.unref();
  }

  /** What the command printed, as a tmux client would have printed it; rejects with tmux's message on an error. */
  run(args: readonly string[]): Promise<string> {
    if (!args.every((arg) => ONE_LINE.test(arg))) return Promise.resolve(execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' }));
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${args.map(quote).join(' ')}\n`);
    });
  }

  close(): void {
    this.child.kill();
  }

  private read(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (this.block === undefined) {
        // Outside a block: a notification (%session-changed, %exit, …), not an answer.
        if (line.startsWith('%begin ')) this.block = { id: line.split(' ').slice(1, 3).join(' '), lines: [] };
        continue;
      }
      const [tag, time, number] = line.split(' ');
      // The block ends at %end or %error with the time and number of its %begin (a screen line may start with %end).
      if ((tag === '%end' || tag === '%error') && `${time} ${number}` === this.block.id) {
        const output = this.block.lines.map((l) => `${l}\n`).join('');
        this.block = undefined;
        const waiting = this.waiting.shift();
        if (tag === '%end') waiting?.resolve(output);
        else waiting?.reject(new Error(`tmux: ${output.trim()}`));
      } else {
        this.block.lines.push(line);
      }
    }
  }
}
