// The console draws on the alternate screen and leaves the terminal exactly as it found it, on every way out:
// quit, Ctrl-C, a signal, or a crash. Leaving is idempotent and synchronous (it also runs in 'exit').
import { writeSync } from 'node:fs';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from '../terminal/keys';
import { signalExitCode } from '../terminal/signals';

// Alternate screen, and bracketed paste so a paste arrives as one piece of text, never as keys.
const ENTER = `\u001b[?1049h\u001b[H${BRACKETED_PASTE_ON}`;
const LEAVE = `${BRACKETED_PASTE_OFF}\u001b[?25h\u001b[?1049l`;

interface TerminalSession {
  leave(): void;
  /** What a signal runs first, on the alternate screen still: the console's last frame belongs there. */
  beforeSignalLeave(stop: () => void): void;
}

export function enterAlternateScreen(stdout: NodeJS.WriteStream, onSignal: (code: number) => void): TerminalSession {
  let active = true;
  const fd = (stdout as NodeJS.WriteStream & { fd?: number }).fd ?? 1;
  const leave = () => {
    if (!active) return;
    active = false;
    try {
      if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false);
    } catch {
      // stdin already gone
    }
    try {
      writeSync(fd, LEAVE);
    } catch {
      // the terminal is gone: nothing to restore
    }
    process.off('exit', leave);
    if (!signalled) for (const [signal] of SIGNALS) process.off(signal, handlers[signal]!);
  };
  let signalled = false;
  let stopDrawing: (() => void) | undefined;
  const handlers: Partial<Record<NodeJS.Signals, () => void>> = {};
  for (const [signal, code] of SIGNALS) {
    handlers[signal] = () => {
      // Kept until this signal's other listeners ran: Ink's signal-exit re-raises a signal no one else listens
      // to, which would end the process before an export or a config write is closed.
      signalled = true;
      try {
        stopDrawing?.();
      } catch {
        // leaving matters more than a last frame
      }
      leave();
      setImmediate(() => {
        for (const [name] of SIGNALS) process.off(name, handlers[name]!);
      });
      onSignal(code);
    };
    process.on(signal, handlers[signal]!);
  }
  process.on('exit', leave);
  writeSync(fd, ENTER);
  return {
    leave,
    beforeSignalLeave(stop) {
      stopDrawing = stop;
    },
  };
}

// SIGQUIT too: left to its default it would dump core (a secret on screen in it) and leave the terminal raw.
const SIGNALS: Array<[NodeJS.Signals, number]> = (['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const).map((signal) => [signal, signalExitCode(signal)]);
