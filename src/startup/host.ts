// What the program tells the bin's compile cache: once the console's first frame is drawn, what it compiled is
// written soon after (a command's cache is written as it exits).
import module from 'node:module';

/** How long after the console's first frame the compile cache is written (so the frame is not delayed). */
const FLUSH_AFTER_DRAWN_MS = 250;

let flushed = false;

/** The console's first frame is drawn. */
export function firstFrameDrawn(): void {
  if (flushed) return;
  flushed = true;
  setTimeout(() => module.flushCompileCache?.(), FLUSH_AFTER_DRAWN_MS).unref();
}
