// The bin (dist/broker-console.js): answers --version itself, and runs the program (dist/chunks/app-<hash>.js)
// through V8's code cache, so a start does not parse or compile what an earlier start compiled. A cache that
// is missing, stale, corrupt or unwritable costs a compile, never a failure (src/startup/scriptCache.ts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { version } from '../../package.json';
import { cacheFolder } from '../config/paths';
import type { StartupHost } from './host';
import { kindOfStart } from './kindOfStart';
import { type CachedScript, cacheFileFor, runCachedScript } from './scriptCache';

/** The scripts' file names beside the bin, set by scripts/build.mjs. */
declare const __BC_APP_SCRIPT__: string;
declare const __BC_UNDICI_SCRIPT__: string;

type ScriptFunction = (require: NodeJS.Require, host: StartupHost, importMetaUrl: string) => Promise<void>;

/** How long after the console's first frame a missing cache is written (so the frame is not delayed). */
const SAVE_AFTER_DRAWN_MS = 250;
/** The console's first frame does not wait for undici: it is loaded once the frame is drawn, or after this long. */
const UNDICI_WAIT_MS = 200;
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  // What commander prints for --version, without loading the program.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.stderr.write(`error: ${error.message}\n`);
    process.exit(error.code === 'EPIPE' ? 0 : 1);
  });
  process.stdout.write(`${version}\n`);
} else {
  start();
}

function start(): void {
  // WebAssembly stays on V8's baseline compiler (Liftoff), set before any is compiled: otherwise undici's HTTP
  // parser is tiered up to TurboFan during the first answer and a command waits on that compile before it can
  // exit (docs/performance.md has the figures, Yoga's layout included). Set here,
  // not on the command line: the bin is started by its #! line, which takes no flags portably.
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  const binUrl = pathToFileURL(__filename).href;
  const folder = cacheFolder(process.env);
  // One cache per kind of start: each holds the code its kind runs.
  const variant = kindOfStart(args);
  const pending: CachedScript[] = [];
  let drawn = false;
  let frameDrawn = (): void => undefined;
  const firstFrame = new Promise<void>((resolve) => (frameDrawn = resolve));
  const saveAll = (): void => {
    for (const script of pending.splice(0)) script.save();
  };
  // A command's cache is written as it exits; the console's once it has drawn (an early error is not worth caching).
  process.once('exit', () => {
    if (variant !== 'console' || drawn) saveAll();
  });

  const run = (name: string, exports: Record<string, unknown>): Promise<void> => {
    const file = join(__dirname, name);
    const script = runCachedScript(file, folder === undefined ? undefined : cacheFileFor(file, folder, variant));
    if (script.status === 'miss' || script.status === 'rejected') pending.push(script);
    const host: StartupHost = {
      exports,
      // The only imports a script leaves to the bin (scripts/build.mjs checks): keytar, a native addon outside the
      // bundle, imported from node_modules as before; undici, a cached script of its own.
      import: (specifier) => (specifier === 'undici' ? loadUndici() : specifier === '@github/keytar' ? import('@github/keytar') : Promise.reject(new Error(`no import ${specifier}`))),
      drawn() {
        if (drawn) return;
        drawn = true;
        frameDrawn();
        if (pending.length > 0) setTimeout(saveAll, SAVE_AFTER_DRAWN_MS).unref();
      },
    };
    return (script.value as ScriptFunction)(require, host, binUrl);
  };

  let undici: Promise<unknown> | undefined;
  const loadUndici = (): Promise<unknown> => {
    undici ??= (async () => {
      if (variant === 'console') {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([firstFrame, new Promise((resolve) => (timer = setTimeout(resolve, UNDICI_WAIT_MS)))]);
        clearTimeout(timer);
      }
      const exports: Record<string, unknown> = {};
      await run(__BC_UNDICI_SCRIPT__, exports);
      return exports;
    })();
    return undici;
  };

  void run(__BC_APP_SCRIPT__, {});
}
