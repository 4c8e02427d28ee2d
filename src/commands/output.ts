// Output helpers for the scriptable commands: text tables, local times, the --format choice, and a writer that
// respects backpressure and notices a closed pipe (EPIPE) instead of crashing.
// Tables are text for a terminal: every cell is sanitised (docs/design.md, the sanitiser) and aligned by display width.
import { systemErrorWords } from '../terminal/systemError';
import { ownOutputErrors, releaseOutputErrors } from '../terminal/outputOwner';
import { sanitize } from '../terminal/sanitize';

type Align = 'left' | 'right';

export interface Column {
  header: string;
  /** Fixed width for streamed tables; computed from the rows by formatTable when absent. */
  width?: number;
  align?: Align;
  /** Its cells may be cut (ending …) so the table fits a terminal's width. */
  shrink?: boolean;
}

/** Terminal cells a text takes. */
type Measure = (text: string) => number;

// Printable ASCII: one cell a character.
const PLAIN = /^[\x20-\x7e]*$/;
const byLength: Measure = (text) => text.length;

/**
 * How these texts are measured: printable ASCII by its length, anything else (CJK and emoji take two cells,
 * combining marks none) by string-width, imported only then: its module builds an ICU segmenter as it loads.
 */
export async function measureFor(texts: Iterable<string>): Promise<Measure> {
  for (const text of texts) if (!PLAIN.test(text)) return (await import('../terminal/text')).displayWidth;
  return byLength;
}

function padBy(measure: Measure, text: string, width: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, width - measure(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Padded with spaces to `width` terminal cells (CJK and emoji count two); never cut. */
export async function pad(text: string, width: number, align: Align = 'left'): Promise<string> {
  return padBy(await measureFor([text]), text, width, align);
}

/** Cells already sanitised, padded to their widths, two spaces apart, no trailing spaces. */
function joinCells(measure: Measure, columns: readonly Column[], cells: readonly string[], widths: readonly number[]): string {
  return columns
    .map((column, i) => padBy(measure, cells[i] ?? '', widths[i] ?? 0, column.align ?? 'left'))
    .join('  ')
    .trimEnd();
}

/**
 * One table line: each cell sanitised (a control, an escape sequence or a line break in it becomes a visible
 * mark, so the line stays one line), padded to its width in terminal cells, two spaces apart.
 */
export async function tableLine(columns: readonly Column[], cells: readonly string[], widths: readonly number[]): Promise<string> {
  const safe = cells.map((c) => sanitize(c));
  return joinCells(await measureFor(safe), columns, safe, widths);
}

/**
 * Column widths that fit `max` cells, the two-space gaps included: the widest column that may shrink gives up a
 * cell at a time, none below its header or 6 cells. Wider than `max` still when nothing more may shrink.
 */
function fittedWidths(columns: readonly Column[], widths: readonly number[], headerWidths: readonly number[], max: number): number[] {
  const fitted = [...widths];
  let total = fitted.reduce((sum, w) => sum + w, 0) + 2 * (fitted.length - 1);
  while (total > max) {
    let widest = -1;
    for (let i = 0; i < fitted.length; i += 1) {
      const floor = Math.max(headerWidths[i] ?? 0, 6);
      if (columns[i]?.shrink === true && (fitted[i] ?? 0) > floor && (widest < 0 || (fitted[i] ?? 0) > (fitted[widest] ?? 0))) widest = i;
    }
    if (widest < 0) break;
    fitted[widest] = (fitted[widest] ?? 0) - 1;
    total -= 1;
  }
  return fitted;
}

/**
 * A whole table (header + rows), each column as wide as its widest cell, cells sanitised. Lines end with \n.
 * With `maxWidth` (a terminal's), the columns that may shrink are cut (ending …) until the table fits.
 */
export async function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[], maxWidth?: number): Promise<string> {
  const safe = rows.map((row) => columns.map((_, i) => sanitize(row[i] ?? '')));
  const headers = columns.map((c) => c.header);
  const measure = await measureFor([...headers, ...safe.flat()]);
  const natural = columns.map((column, i) => Math.max(measure(column.header), ...safe.map((row) => measure(row[i] ?? ''))));
  const widths = maxWidth === undefined ? natural : fittedWidths(columns, natural, headers.map(measure), maxWidth);
  const cutRow = widths.some((w, i) => w < (natural[i] ?? 0)) ? await cutter() : undefined;
  const cells = cutRow === undefined ? safe : safe.map((row) => row.map((cell, i) => (measure(cell) > (widths[i] ?? 0) ? cutRow(cell, widths[i] ?? 0) : cell)));
  const lines = [joinCells(measure, columns, headers, widths)];
  for (const row of cells) lines.push(joinCells(measure, columns, row, widths));
  return `${lines.join('\n')}\n`;
}

/** Cuts a cell to a width in terminal cells, ending … (text.ts, loaded only when a table is cut). */
async function cutter(): Promise<(cell: string, width: number) => string> {
  const { fit } = await import('../terminal/text');
  return (cell, width) => fit(cell, width).trimEnd();
}

/** The width a table may take on stdout: the terminal's columns, none off a terminal (a file or a pipe keeps every cell whole). */
export function tableWidth(stdout: NodeJS.WritableStream, isTerminal: boolean): number | undefined {
  const columns = (stdout as { columns?: unknown }).columns;
  return isTerminal && typeof columns === 'number' && columns > 0 ? columns : undefined;
}

/** What every command that prints data can print: `--format table|json|csv`, `--json` short for json. */
export const OUTPUT_FORMATS = ['table', 'json', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The format asked for: --format (any case, default table), or --json as its short form. An unknown name,
 * or --json with another --format, is a usage error (the message names the flags).
 */
export function chooseFormat(options: { format?: string; json?: boolean }): { ok: true; format: OutputFormat } | { ok: false; message: string } {
  const raw = options.format;
  const named = raw === undefined ? undefined : raw.trim().toLowerCase();
  if (named !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(named)) {
    return { ok: false, message: `--format: must be table, json or csv (got '${sanitize(raw ?? '', 40)}')` };
  }
  if (options.json === true && named !== undefined && named !== 'json') {
    return { ok: false, message: `--json is short for --format json: it cannot go with --format ${named}` };
  }
  return { ok: true, format: options.json === true ? 'json' : ((named as OutputFormat | undefined) ?? 'table') };
}

/** Which of these devices the stream is, if any (compared by device number). */
function deviceOf(stream: object, devices: readonly string[]): string | undefined {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return undefined;
  try {
    const fs = process.getBuiltinModule('node:fs');
    const own = fs.fstatSync(fd);
    if (!own.isCharacterDevice()) return undefined;
    return devices.find((device) => {
      try {
        return fs.statSync(device).rdev === own.rdev;
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}

/**
 * Whether the stream is a device that takes every write and keeps nothing: /dev/null (stdout closed at start,
 * `>&-`, is reopened there by Node) or /dev/zero. Whatever is written there is gone without an error.
 */
export function discardsOutput(stream: object): boolean {
  return deviceOf(stream, ['/dev/null', '/dev/zero']) !== undefined;
}

/**
 * Why nothing written to the stream can ever be read back, known before writing: a device that keeps nothing,
 * or /dev/full, where every write fails.
 */
export function losesEveryWrite(stream: object): string | undefined {
  const device = deviceOf(stream, ['/dev/null', '/dev/zero', '/dev/full']);
  if (device === undefined) return undefined;
  return device === '/dev/full' ? 'stdout is /dev/full, where every write fails' : `stdout is closed or ${device}, which keeps nothing`;
}

/** The line for a write to stdout that failed (a full disk, an I/O error): it names stdout and says why in words. */
export function outputFailureLine(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const words = systemErrorWords(error) ?? error.message.split('\n')[0];
  return `error: could not write the output to stdout: ${sanitize(words || (typeof code === 'string' ? code : 'unknown error'), 200)}`;
}

/** Thrown by OutputSink.write once the reader has gone away (EPIPE) or the stream failed. */
export class OutputClosedError extends Error {
  readonly code: string | undefined;
  constructor(cause: Error) {
    super(`output closed: ${cause.message}`, { cause });
    this.name = 'OutputClosedError';
    const code = (cause as { code?: unknown }).code;
    this.code = typeof code === 'string' ? code : undefined;
  }

  /** The reader went away (e.g. `| head`): stop quietly, it is not a failure. */
  get readerGone(): boolean {
    return this.code === 'EPIPE' || this.code === 'ERR_STREAM_DESTROYED';
  }
}

/**
 * The descriptor of a stream Node writes to a file or a device (not a pipe, socket or terminal), or undefined.
 * Node writes to those with one write(2) and drops what a short write left (a nearly full disk): the caller
 * then writes them itself, to the last byte or an error.
 */
function fileDescriptorOf(stream: object): number | undefined {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return undefined;
  try {
    const fs = process.getBuiltinModule('node:fs');
    const tty = process.getBuiltinModule('node:tty');
    const stat = fs.fstatSync(fd);
    return (stat.isFile() || stat.isCharacterDevice() || stat.isBlockDevice()) && !tty.isatty(fd) ? fd : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes all of `text` to `fd`, a short write followed by the rest; throws what write(2) failed with (ENOSPC…).
 * A regular file is cut back to where this write began when it fails: what it holds is whole writes only (a
 * created key's secret is either all there or not at all, as stderr then says).
 */
function writeWhole(fd: number, text: string, sync: boolean): void {
  const fs = process.getBuiltinModule('node:fs');
  const bytes = Buffer.from(text, 'utf8');
  const stat = fs.fstatSync(fd);
  const began = stat.isFile() ? stat.size : undefined;
  try {
    for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at);
    // On the disk, not only in the page cache, before it is said delivered; some file systems report a full
    // disk only here.
    if (sync && began !== undefined) fs.fsyncSync(fd);
  } catch (error) {
    if (began !== undefined) {
      try {
        fs.ftruncateSync(fd, began);
      } catch {
        // the write's failure is what is said; a file that cannot be cut back keeps what got in
      }
    }
    throw error;
  }
}

/**
 * Writes text to a stream one chunk at a time, awaiting 'drain' when the stream asks to wait, so the
 * producer never runs ahead of the reader and memory stays flat however much is written. To a file or a
 * device, every byte is written or the write fails (Node's own stream would lose the end of a short write).
 */
export class OutputSink {
  private failure: Error | undefined;
  private readonly onError = (error: Error): void => {
    this.failure ??= error;
  };
  private readonly fd: number | undefined;

  /** `ownErrors`: this command handles a failed write itself (the process-wide handler must not exit first). */
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly options: { ownErrors?: boolean } = {},
  ) {
    stream.on('error', this.onError);
    if (options.ownErrors) ownOutputErrors(stream);
    this.fd = fileDescriptorOf(stream);
  }

  /** To a file or a device: written whole here, synchronously, as Node's stream would (true), else false. */
  private writtenWhole(text: string, sync = false): boolean {
    if (this.fd === undefined) return false;
    try {
      writeWhole(this.fd, text, sync);
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
    return true;
  }

  get closed(): boolean {
    return this.failure !== undefined;
  }

  async write(text: string): Promise<void> {
    if (this.failure) throw new OutputClosedError(this.failure);
    if (this.writtenWhole(text)) {
      if (this.failure) throw new OutputClosedError(this.failure);
      return;
    }
    let flushed: boolean;
    try {
      flushed = this.stream.write(text);
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
      throw new OutputClosedError(this.failure);
    }
    if (!flushed && !this.failure) await this.waitForDrain();
    if (this.failure) throw new OutputClosedError(this.failure);
  }

  /**
   * Writes and resolves once the stream has handed the text on (to the pipe or reader; a file's on its disk);
   * rejects when it could not.
   */
  async writeFlushed(text: string): Promise<void> {
    if (this.failure) throw new OutputClosedError(this.failure);
    if (this.writtenWhole(text, true)) {
      if (this.failure) throw new OutputClosedError(this.failure);
      return;
    }
    await new Promise<void>((resolve) => {
      try {
        this.stream.write(text, (error?: Error | null) => {
          if (error) this.failure ??= error;
          resolve();
        });
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
        resolve();
      }
    });
    if (this.failure) throw new OutputClosedError(this.failure);
  }

  private waitForDrain(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    });
  }

  /** Stops listening; a late EPIPE after this is the process-level handler's business. */
  release(): void {
    this.stream.off('error', this.onError);
    if (this.options.ownErrors) releaseOutputErrors(this.stream);
  }
}
