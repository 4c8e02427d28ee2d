// Tests render thousands of frames (Ink's debug mode renders every commit in full), and most lines repeat
// from one frame to the next. Ink's Output memoises a line's styled characters and display widths, but per
// frame: here its caches are shared across frames, so a repeated line is tokenised once. The functions
// cached are pure (a string in, its characters or width out), so every frame is byte for byte the one Ink
// would write without the sharing; only the CPU differs (about a fifth of a UI test's).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface OutputCaches {
  styledChars: Map<string, unknown>;
  widths: Map<string, number>;
  blockWidths: Map<string, number>;
}
interface OutputInstance {
  caches?: OutputCaches;
}
interface OutputClass {
  new (options: { width: number; height: number }): OutputInstance;
  prototype: { get: (this: OutputInstance) => unknown; sharedCaches?: true };
}

/** Distinct lines kept before the caches start afresh (a bound on memory across a long test file). */
const MAX_LINES = 20_000;

export async function shareInkOutputCaches(): Promise<void> {
  // Ink exports only its entry; its Output class is loaded by file, the same module instance Ink uses.
  const entry = createRequire(import.meta.url).resolve('ink');
  const module = (await import(pathToFileURL(join(dirname(entry), 'output.js')).href)) as { default?: OutputClass };
  const Output = module.default;
  const shared = Output ? new Output({ width: 0, height: 0 }).caches : undefined;
  // Another Ink version without these caches: nothing to share, frames render as they are.
  if (!Output || !shared || !(shared.styledChars instanceof Map) || !(shared.widths instanceof Map) || !(shared.blockWidths instanceof Map)) return;
  if (Output.prototype.sharedCaches) return;
  Output.prototype.sharedCaches = true;
  const get = Output.prototype.get;
  Output.prototype.get = function (this: OutputInstance) {
    if (shared.styledChars.size + shared.widths.size > MAX_LINES) {
      shared.styledChars.clear();
      shared.widths.clear();
      shared.blockWidths.clear();
    }
    this.caches = shared;
    return get.call(this);
  };
}
