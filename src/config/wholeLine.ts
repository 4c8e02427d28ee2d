// Appending one line to a log-like file so that it is whole or absent: written in one call at the end, synced,
// and cut back when the file system took only part of it. A line never glues onto a damaged one before it.
import type { FileHandle } from 'node:fs/promises';

/** The file system took only part of a line (a nearly full disk): it was cut back, nothing of it stays. */
class ShortWriteError extends Error {
  readonly code = 'ESHORTWRITE';
  constructor(written: number, length: number) {
    super(`only ${written} of ${length} bytes could be written`);
    this.name = 'ShortWriteError';
  }
}

/**
 * Appends `line` (ending with \n) to a file opened for appending: one write, then a data sync. A short or failed
 * write is truncated back to where the line began (unless another process appended since) and rejects; a file whose last line lacks its \n gets one
 * first, so a line damaged earlier stays one damaged line.
 */
export async function appendWholeLine(handle: FileHandle, line: string): Promise<void> {
  const { size } = await handle.stat();
  let text = line;
  if (size > 0) {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] !== 0x0a) text = `\n${line}`;
  }
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    ({ bytesWritten: written } = await handle.write(bytes, 0, bytes.length));
    if (written !== bytes.length) throw new ShortWriteError(written, bytes.length);
    await handle.datasync();
  } catch (error) {
    // Nothing of a partial line may stay: the next line would be glued onto it and both read as damaged. Cut only
    // when the file is still what it was plus this part: a line another process appended meanwhile stays, and the
    // part is left as one damaged line (the next append starts on a line of its own).
    if (written > 0) {
      const now = await handle.stat().catch(() => undefined);
      if (now?.size === size + written) await handle.truncate(size).catch(() => undefined);
    }
    throw error;
  }
}
