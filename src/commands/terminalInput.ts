// Reading the master API key and secret for `profile add`: without echo on a terminal (raw mode, our own
// small line editor), or the first two lines of stdin when it is not a terminal. Nothing read is echoed,
// logged or kept beyond the caller.
import { StringDecoder } from 'node:string_decoder';
import { ESCAPE_WAIT_MS } from '../terminal/escapeWait';
import { endBySignal, otherSignalListeners } from '../terminal/signals';

export interface TerminalIn extends NodeJS.ReadableStream {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** The line typed; or interrupted (Ctrl-C), or ended (Ctrl-D on an empty line, or the input ended). */
type HiddenAnswer = { ok: true; value: string } | { ok: false; reason: 'interrupted' | 'ended' };

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const ESC = '\u001b';

/** Signals whose default action ends the process without an 'exit' event (ctrl+c is a byte in raw mode; kill -INT is not). */
const FATAL_SIGNALS: readonly NodeJS.Signals[] = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM'];

/**
 * Asks on `output` and reads one line from the terminal `input` in raw mode, echoing nothing. Backspace
 * deletes the last character, Ctrl-U the whole line, escape sequences (arrow keys…) are ignored, Enter
 * ends the line, Ctrl-C aborts. The terminal's mode is restored however this ends.
 */
export function readHiddenLine(input: TerminalIn, output: NodeJS.WritableStream, prompt: string): Promise<HiddenAnswer> {
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    const wasRaw = input.isRaw === true;
    let chars: string[] = [];
    let escape: '' | 'esc' | 'csi' | 'ss3' = '';
    let done = false;
    // An Esc that ends a read: the rest of its sequence may come in the next one (ssh, tmux), else it was the key alone.
    let lone: NodeJS.Timeout | undefined;

    const restore = (): void => {
      clearTimeout(lone);
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      process.removeListener('exit', onExit);
      for (const signal of FATAL_SIGNALS) process.removeListener(signal, onSignal);
      try {
        input.setRawMode?.(wasRaw);
      } catch {
        // the terminal is gone
      }
      input.pause();
    };
    const finish = (answer: HiddenAnswer): void => {
      if (done) return;
      done = true;
      restore();
      output.write('\n');
      chars = [];
      resolve(answer);
    };
    const onExit = (): void => {
      try {
        input.setRawMode?.(wasRaw);
      } catch {
        // nothing left to restore
      }
    };
    // A signal that would end the process at once (no 'exit' event): the terminal's modes first, then the
    // signal as it would have acted, unless the program handles it itself.
    const onSignal = (signal: NodeJS.Signals): void => {
      finish({ ok: false, reason: 'interrupted' });
      if (otherSignalListeners(signal) === 0) endBySignal(signal);
    };
    const onEnd = (): void => finish({ ok: false, reason: 'ended' });
    const onData = (chunk: Buffer | string): void => {
      clearTimeout(lone);
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (const ch of text) {
        if (done) return;
        if (escape === 'esc') {
          escape = ch === '[' ? 'csi' : ch === 'O' ? 'ss3' : '';
          continue;
        }
        if (escape === 'csi') {
          // parameters until the final byte (@ to ~)
          if (/[@-~]/.test(ch)) escape = '';
          continue;
        }
        if (escape === 'ss3') {
          escape = '';
          continue;
        }
        if (ch === CTRL_C) return finish({ ok: false, reason: 'interrupted' });
        if (ch === '\r' || ch === '\n') return finish({ ok: true, value: chars.join('') });
        if (ch === CTRL_D) {
          if (chars.length === 0) return finish({ ok: false, reason: 'ended' });
          continue;
        }
        if (ch === '\u007f' || ch === '\b') {
          chars.pop();
          continue;
        }
        if (ch === CTRL_U) {
          chars = [];
          continue;
        }
        if (ch === ESC) {
          escape = 'esc';
          continue;
        }
        if (/\p{Cc}/u.test(ch)) continue;
        chars.push(ch);
      }
      // Esc and a character in one read are Alt and that key (not text); an Esc with nothing after it for a moment is
      // the Esc key alone, and what is typed after it is text.
      if (escape === 'esc') {
        lone = setTimeout(() => {
          if (escape === 'esc') escape = '';
        }, ESCAPE_WAIT_MS);
        lone.unref();
      }
    };

    output.write(prompt);
    process.once('exit', onExit);
    for (const signal of FATAL_SIGNALS) process.once(signal, onSignal);
    input.setRawMode?.(true);
    input.on('data', onData);
    input.once('end', onEnd);
    input.resume();
  });
}

/**
 * The first `count` lines of a non-terminal input (a pipe or file), without their line endings. Stops
 * reading as soon as they are in; fewer lines when the input ends first.
 */
export function readLines(input: NodeJS.ReadableStream, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let buffer = '';
    let settled = false;
    const settle = (lines: string[]): void => {
      if (settled) return;
      settled = true;
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onError);
      input.pause();
      buffer = '';
      resolve(lines.map((line) => line.replace(/\r$/, '')));
    };
    const take = (final: boolean): void => {
      const parts = buffer.split('\n');
      const complete = final ? parts : parts.slice(0, -1);
      if (complete.length >= count || final) settle(complete.slice(0, count));
    };
    const onData = (chunk: Buffer | string): void => {
      buffer += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      take(false);
    };
    const onEnd = (): void => {
      buffer += decoder.end();
      take(true);
    };
    const onError = (error: Error): void => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
    input.resume();
  });
}
