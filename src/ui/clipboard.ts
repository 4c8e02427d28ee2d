// Copy, and say what was done. Locally (not over SSH) with a system clipboard at hand (pbcopy, wl-copy, xsel,
// clip.exe), the text goes there: the tool is run with the text on its stdin (written nowhere else) and a
// minimal environment, so no credential of the console's environment (BROKER_API_SECRET) reaches it. Over SSH, or with no system clipboard, it goes to the
// terminal with OSC 52 (inside tmux also wrapped for tmux's passthrough); whether a terminal took an OSC 52
// cannot be known from here, so the words say so. Never "Copied" for something that cannot be known.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { codePointName, firstMarked, sanitize } from '../terminal/sanitize';

/**
 * Copies the text; resolves to what was done, in words the screens show after "Secret key …". Never rejects.
 * Once `signal` aborts (the screen that asked was left), nothing more is copied: a tool still running is ended.
 */
export type CopyToClipboard = (text: string, signal?: AbortSignal) => Promise<string>;

export const COPY_CANCELLED = 'not copied: the screen was left before the copy finished';

export const OSC52_SENT = 'sent to the terminal clipboard; paste to check';

/** What a local copy through the system clipboard says (the tool named). */
export function systemCopySaid(tool: string): string {
  return `sent to the system clipboard (${tool}); paste to check`;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The OSC 52 bytes for the text. Inside tmux (TMUX set) the plain sequence is followed by the same sequence
 * in tmux's DCS passthrough (ESC P tmux; …ESC \, every ESC inside doubled): tmux itself takes the plain one
 * when `set-clipboard` is on, and passes the wrapped one to the outer terminal when `allow-passthrough` is
 * on (tmux 3.3 and later; always before).
 */
export function osc52Sequences(text: string, env: Env = process.env): string {
  const osc = `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
  if (env.TMUX === undefined || env.TMUX === '') return osc;
  return `${osc}\u001bPtmux;${osc.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`;
}

/** Copy through the terminal only (OSC 52). */
export function osc52Clipboard(out: NodeJS.WritableStream, env: Env = process.env): CopyToClipboard {
  return async (text) => {
    out.write(osc52Sequences(text, env));
    return OSC52_SENT;
  };
}

/** Over SSH a local clipboard tool would copy on the remote machine: the terminal's clipboard is the one. */
function overSsh(env: Env): boolean {
  return Boolean(env.SSH_CONNECTION || env.SSH_TTY || env.SSH_CLIENT);
}

function onPath(name: string, env: Env): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/**
 * The system clipboard tool a local copy would use (macOS pbcopy, Windows
 * PowerShell, WSL clip.exe, Wayland wl-copy, X11 xsel), or undefined: over SSH, with no display, or with
 * the tool not installed.
 */
export function systemClipboardTool(env: Env = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  if (overSsh(env)) return undefined;
  if (platform === 'darwin') return 'pbcopy';
  if (platform === 'win32') return 'PowerShell';
  if (platform !== 'linux') return undefined;
  if (env.WSL_DISTRO_NAME || env.WSL_INTEROP) return onPath('clip.exe', env) ? 'clip.exe' : undefined;
  const wayland = Boolean(env.WAYLAND_DISPLAY) || env.XDG_SESSION_TYPE === 'wayland';
  if (wayland && env.WAYLAND_DISPLAY && onPath('wl-copy', env)) return 'wl-copy';
  if (env.DISPLAY && onPath('xsel', env)) return 'xsel';
  return undefined;
}

interface ClipboardLibrary {
  write(text: string, signal?: AbortSignal): Promise<void>;
}

/** What a clipboard tool needs to find the display and its session: nothing else of the environment. */
const TOOL_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'DISPLAY',
  'XAUTHORITY',
  'WAYLAND_DISPLAY',
  'XDG_RUNTIME_DIR',
  'XDG_SESSION_TYPE',
  'DBUS_SESSION_BUS_ADDRESS',
  'WSL_DISTRO_NAME',
  'WSL_INTEROP',
  'SystemRoot',
  'SYSTEMROOT',
  'WINDIR',
  'USERPROFILE',
  'TEMP',
  'TMP',
];

function toolEnvironment(env: Env): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of TOOL_ENV) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** How each tool systemClipboardTool names is run (the arguments clipboardy 5 gives them). */
const TOOL_COMMANDS: Record<string, [string, string[]]> = {
  pbcopy: ['pbcopy', []],
  'wl-copy': ['wl-copy', ['--type', 'text/plain']],
  xsel: ['xsel', ['--clipboard', '--input']],
  'clip.exe': ['clip.exe', []],
  PowerShell: [
    'powershell.exe',
    ['-NoProfile', '-NonInteractive', '-Command', '[Console]::InputEncoding=[Text.Encoding]::UTF8; Set-Clipboard -Value ([Console]::In.ReadToEnd())'],
  ],
};

/** Runs the tool with the text on its stdin and a minimal environment; rejects when it fails or takes over 5 s. */
function toolClipboard(tool: string, env: Env): ClipboardLibrary {
  return {
    write: (text, signal) =>
      new Promise<void>((done, fail) => {
        const command = TOOL_COMMANDS[tool];
        if (!command) {
          fail(new Error(`no way to run ${tool}`));
          return;
        }
        const { spawn } = process.getBuiltinModule('node:child_process');
        const child = spawn(command[0], command[1], {
          env: toolEnvironment(env),
          stdio: ['pipe', 'ignore', 'ignore'],
          timeout: 5000,
          ...(signal ? { signal } : {}),
        });
        child.on('error', fail);
        child.on('close', (code, signal) => (code === 0 ? done() : fail(new Error(`${tool} ended with ${signal ?? `exit ${code}`}`))));
        child.stdin.on('error', () => undefined);
        child.stdin.end(text, 'utf8');
      }),
  };
}

interface SystemClipboardOptions {
  env?: Env;
  platform?: NodeJS.Platform;
  /** The clipboard library, loaded on the first copy (default: the tool run by toolClipboard). */
  load?: () => Promise<ClipboardLibrary>;
  /** Told how a system copy ended (tests; a failed one has gone by OSC 52 instead). */
  onSettled?: (outcome: { tool: string; ok: boolean; error?: unknown }) => void;
}

/** What a system copy that failed says: it went by OSC 52 after all. */
function systemCopyFailedSaid(tool: string): string {
  return `${tool} failed, so ${OSC52_SENT}`;
}

/**
 * The console's clipboard: the system one when the console runs locally and one is at hand, else OSC 52.
 * The words come once the tool has finished: if it failed, the text went by OSC 52 and the words say that.
 */
export function systemClipboard(out: NodeJS.WritableStream, options: SystemClipboardOptions = {}): CopyToClipboard {
  const env = options.env ?? process.env;
  return async (text, signal) => {
    const tool = systemClipboardTool(env, options.platform ?? process.platform);
    const load = options.load ?? (async (): Promise<ClipboardLibrary> => toolClipboard(tool ?? '', env));
    if (signal?.aborted) return COPY_CANCELLED;
    if (tool === undefined) {
      out.write(osc52Sequences(text, env));
      return OSC52_SENT;
    }
    try {
      await (await load()).write(text, signal);
      options.onSettled?.({ tool, ok: true });
      return systemCopySaid(tool);
    } catch (error) {
      // Left while the tool ran: the text goes nowhere else, after its screen is gone.
      if (signal?.aborted) {
        options.onSettled?.({ tool, ok: false, error });
        return COPY_CANCELLED;
      }
      out.write(osc52Sequences(text, env));
      options.onSettled?.({ tool, ok: false, error });
      return systemCopyFailedSaid(tool);
    }
  };
}

/** A failed copy in a few words (its code when it has one), never the text it was copying. */
function copyFailure(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'the copy failed';
}

/** Why a value is not copied, or undefined when it may be: it holds a character the screen shows with a mark. */
export function notCopiedReason(what: string, value: string): string | undefined {
  const marked = firstMarked(value);
  if (marked === undefined) return undefined;
  return `✗ The ${what} was not copied: it holds ${codePointName(marked)}, which a terminal cannot show (shown as a mark)`;
}

interface CopyValueOptions {
  /** Aborted when the screen that asked is left: a copy not finished by then copies nothing. */
  signal?: AbortSignal;
  /** The value as the notice names it after what was done (a short key, an id); left out: not named. */
  shown?: string;
  /** Said after a failed copy's reason: where the value still is. */
  ifFailed?: string;
}

/**
 * Every copy the screens make goes through here, one rule for all: a value holding a line break, an escape
 * or a bidi control is not copied (pasted into a shell it could run a command), and the notice says so. The
 * notice says what was done first and names the value last, so a long value cut at the edge cuts only itself.
 * Resolves to the notice; never rejects.
 */
export async function copyValue(copy: CopyToClipboard, what: string, value: string, options: CopyValueOptions = {}): Promise<string> {
  const refused = notCopiedReason(what, value);
  if (refused !== undefined) return refused;
  try {
    const said = await copy(value, options.signal);
    return sanitize(`${what.charAt(0).toUpperCase()}${what.slice(1)} ${said}${options.shown === undefined ? '' : `: ${options.shown}`}`);
  } catch (error) {
    return `✗ The ${what} could not be copied (${copyFailure(error)})${options.ifFailed === undefined ? '' : `: ${options.ifFailed}`}`;
  }
}
