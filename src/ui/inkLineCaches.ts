// Ink builds each frame in a fresh Output whose caches (a line's styled characters, a text's display width)
// live for that frame only; most lines repeat from one frame to the next, so here the caches are shared
// across frames and a repeated line is not tokenised again. The memoised functions are pure (a string in,
// its characters or width out), so every frame is byte for byte what Ink would write (checked by
// test/ui/inkLineCaches.test.tsx); only the CPU per keypress differs.
// Ink exports only its entry: its Output class is imported by file, the module Ink itself uses (the bundle
// and vitest both resolve it to the same file).
import Output from '../../node_modules/ink/build/output.js';

interface OutputCaches {
  styledChars: Map<string, unknown>;
  widths: Map<string, number>;
  blockWidths: Map<string, number>;
}

/** Distinct lines kept before the caches start afresh (bounds memory over a long session). */
const MAX_LINES = 20_000;

let shared = false;
type Get = (this: { caches?: OutputCaches }) => unknown;
const ownGet = (Output.prototype as unknown as { get: Get }).get;

/** A frame made the way Ink makes it, caches for this frame only (what the tests compare against). */
export function frameWithOwnCaches(output: Output): { output: string; height: number } {
  return ownGet.call(output as unknown as { caches?: OutputCaches }) as { output: string; height: number };
}

/** Once per process; a no-op when this Ink's Output has no such caches (another version). */
export function shareInkLineCaches(): void {
  if (shared) return;
  shared = true;
  const proto = Output.prototype as unknown as { get: Get };
  const caches = (new Output({ width: 0, height: 0 }) as unknown as { caches?: OutputCaches }).caches;
  if (!caches || !(caches.styledChars instanceof Map) || !(caches.widths instanceof Map) || !(caches.blockWidths instanceof Map)) return;
  const get = proto.get;
  proto.get = function (this: { caches?: OutputCaches }) {
    if (caches.styledChars.size + caches.widths.size > MAX_LINES) {
      caches.styledChars.clear();
      caches.widths.clear();
      caches.blockWidths.clear();
    }
    this.caches = caches;
    return get.call(this);
  };
}
