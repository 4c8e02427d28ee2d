// The console's export: this page or every page, to a CSV or JSON file in a folder, streamed, cancellable.
// "Every page" is fetched at the largest page size (500), whatever the screen shows, paced and one page
// ahead (transferPages.ts), and written a page at a time in blocks. It always ends: a short page, a page
// repeating an earlier one, or the page bound.
// The file is whole or plainly partial at every instant: it is written as `…-incomplete.ext`, each block
// written together with the document's closing (a JSON array's `]`, whole CSV rows), so a crash or a kill
// leaves a valid document whose name says it is partial; only a complete export is renamed to `….ext`. When
// paging is stopped, or the service fails part way, the rows so far stay under the `-incomplete` name and the
// error says where; a cancel, or a failure with no row written yet or of the file itself, removes the file.
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrokerApi } from '../api/contract';
import { BrokerError } from '../api/errors';
import { timeOrder } from '../api/serviceTime';
import { MAX_PAGE_SIZE, type Transfer } from '../api/types';
import { csvRecord } from '../format/csv';
import { grouped, plural } from '../terminal/sanitize';
import { systemErrorWords } from '../terminal/systemError';
import { RequestTally } from './requestTally';
import { PagingStopped, forEachTransferPage } from './transferPages';
import { CSV_FIELDS, csvWriter, jsonWriter } from './transferWriters';
import { type ExportFormat, type ExportProgress, type ExportRequest, type ExportResult, PartialExport, type TransferExporter } from './types';
import { fsPromises } from '../lazyBuiltins';

/** What the name of a file still being written (or left partial) ends with, before the extension. */
const INCOMPLETE = '-incomplete';

export function fileExporter(api: BrokerApi, folder: string, now: () => number = Date.now): TransferExporter {
  return {
    async run(request: ExportRequest, onProgress: (progress: ExportProgress) => void, signal: AbortSignal): Promise<ExportResult> {
      const stamp = new Date(now())
        .toISOString()
        .replace(/[:.]/g, '-')
        .replace(/-\d{3}Z$/, 'Z');
      const base = `transfers-${stamp}${request.scope === 'all' ? '-all' : `-page${request.query.page ?? 1}`}`;
      let document: ClosedDocument;
      try {
        document = await ClosedDocument.create(folder, base, request.format);
      } catch (error) {
        const words = systemErrorWords(error);
        throw words === undefined ? error : new Error(`the export file could not be created in ${folder} (${words}): nothing was written`, { cause: error });
      }
      const write = (text: string): Promise<void> => document.append(text);
      const writer = request.format === 'csv' ? csvWriter(write) : jsonWriter(write);
      // What is in the file, each page whole (the document is closed after every write).
      const done = { pages: 0, rows: 0 };
      try {
        let result: { pages: number; rows: number };
        if (request.scope === 'page') {
          const rows = request.rows ?? (await api.listUniversalTransfers(request.query, { signal }));
          if (signal.aborted) throw new Error('export cancelled');
          await writer.rows(rows);
          result = { pages: 1, rows: rows.length };
          onProgress({ ...result, fraction: 1 });
        } else {
          // The page size of the screen does not matter to a file: the fewest requests fetch it.
          const query = { ...request.query, page: 1, limit: MAX_PAGE_SIZE };
          let written = 0;
          let told: ExportProgress = { pages: 0, rows: 0 };
          const tell = (progress: ExportProgress): void => {
            told = progress;
            onProgress(progress);
          };
          // A wait for the service's budget is said, so the count standing still does not look stuck.
          const tally = new RequestTally({ onWait: (ms) => onProgress({ ...told, waitingMs: ms }) });
          result = await forEachTransferPage(
            api,
            query,
            async ({ page, rows, last }) => {
              if (signal.aborted) throw new Error('export cancelled');
              await writer.rows(rows);
              written += rows.length;
              done.pages = page;
              done.rows = written;
              tell({ pages: page, rows: written, fraction: last ? 1 : timeFraction(query.startTime, query.endTime ?? now(), rows) });
            },
            { signal, maxPages: request.maxPages, tally },
          );
        }
        if (signal.aborted) throw new Error('export cancelled');
        // The file already ends closed: the writer's own closing would repeat it.
        const path = await document.complete();
        return { path, ...result };
      } catch (error) {
        if (error instanceof PagingStopped && !signal.aborted) throw await keepIncomplete(error, document);
        // The service failed after some pages were written: they stay, as a stop would leave them.
        if (error instanceof BrokerError && !signal.aborted && done.rows > 0) {
          const kept = await document.keepPartial().catch(() => undefined);
          if (kept !== undefined) throw new PartialExport(error, kept, done.pages, done.rows);
        }
        await document.discard();
        throw fileFailure(error, done) ?? error;
      }
    },
  };
}

/** A file that could not be written (a full disk…), said in words with how far it got; undefined for any other error. */
function fileFailure(error: unknown, done: { pages: number; rows: number }): Error | undefined {
  const words = error instanceof BrokerError ? undefined : systemErrorWords(error);
  if (words === undefined) return undefined;
  const far = done.pages > 0 ? ` after ${plural(done.pages, 'page')} (${grouped(done.rows)} rows)` : '';
  return new Error(`the export file could not be written (${words})${far}: the partial file was removed`, { cause: error });
}

/**
 * Paging stopped: the rows so far are already a valid document under the `-incomplete` name. Returns the
 * error to throw: the stop's reason, then what was kept and where.
 */
async function keepIncomplete(stop: PagingStopped, document: ClosedDocument): Promise<Error> {
  const reason = stop.message.replace(/; stopped$/, '');
  const rows = `${plural(stop.rows, 'row')} of ${plural(stop.pages, 'page')}`;
  try {
    const kept = await document.keepPartial();
    return new PagingStopped(stop.reason, `${reason}; the ${rows} so far are in ${kept} (incomplete)`, stop.pages, stop.rows, stop.maxPages);
  } catch {
    await document.discard();
    return new PagingStopped(stop.reason, `${reason}; nothing was saved`, stop.pages, stop.rows, stop.maxPages);
  }
}

/** The closing a document needs after `written` bytes of body: the empty array or a `]`; the CSV header alone. */
function closingOf(format: ExportFormat, written: number): string {
  if (format === 'json') return written === 0 ? '[]\n' : '\n]\n';
  return written === 0 ? csvRecord(CSV_FIELDS) : '';
}

/**
 * A document file that is valid after every write: each append goes out as one positioned write of the new
 * text and the closing, over the previous closing. Writes are chained, so closing or removing the file
 * waits for the one under way (nothing is written to a closed file).
 */
class ClosedDocument {
  private written = 0;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
    private readonly finalPath: string,
    private readonly format: ExportFormat,
  ) {}

  /** A new `base-incomplete.ext` (or base-2-incomplete.ext, …) whose complete name is free too; never overwrites. */
  static async create(folder: string, base: string, format: ExportFormat): Promise<ClosedDocument> {
    for (let n = 1; ; n++) {
      const stem = join(folder, `${base}${n === 1 ? '' : `-${n}`}`);
      const finalPath = `${stem}.${format}`;
      if (await exists(finalPath)) continue;
      const path = `${stem}${INCOMPLETE}.${format}`;
      try {
        const handle = await fsPromises().open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
        const document = new ClosedDocument(handle, path, finalPath, format);
        // A first write that fails (a full disk) leaves no empty file behind.
        await document.append('').catch(async (error: unknown) => {
          await document.discard();
          throw error;
        });
        return document;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error;
      }
    }
  }

  append(text: string): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.closed) throw new Error('the export file is closed');
      const body = Buffer.from(text, 'utf8');
      const closing = closingOf(this.format, this.written + body.length);
      const bytes = closing === '' ? body : Buffer.concat([body, Buffer.from(closing, 'utf8')]);
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, this.written + done);
        done += bytesWritten;
      }
      this.written += body.length;
    };
    const next = this.chain.then(run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Flushed to disk, then given its complete name (never over another file). Returns that name. */
  async complete(): Promise<string> {
    await this.close(true);
    let linked: string;
    try {
      linked = await linkNoClobber(this.path, this.finalPath);
    } catch (error) {
      if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      // Renamed: the -incomplete name is gone already, and may be another export's by now.
      return renameToFree(this.path, this.finalPath);
    }
    await fsPromises()
      .unlink(this.path)
      .catch(() => undefined);
    return linked;
  }

  /** Closed under its `-incomplete` name, which it keeps. */
  async keepPartial(): Promise<string> {
    await this.close(true);
    return this.path;
  }

  /** Closed (after the write under way) and removed. */
  async discard(): Promise<void> {
    await this.close(false).catch(() => undefined);
    await fsPromises().rm(this.path, { force: true });
  }

  private async close(sync: boolean): Promise<void> {
    await this.chain;
    if (this.closed) return;
    this.closed = true;
    try {
      if (sync) await this.handle.sync();
    } finally {
      await this.handle.close();
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await fsPromises().lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** What link(2) answers on a file system without hard links (exFAT, FAT, many network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

const nthName = (to: string, n: number): string => (n === 1 ? to : to.replace(/(\.[a-z]+)$/, `-${n}$1`));

/** Links `from` as `to` (or to-2, to-3, …) without replacing a file; returns the name it got. */
async function linkNoClobber(from: string, to: string): Promise<string> {
  for (let n = 1; ; n++) {
    const target = nthName(to, n);
    try {
      await fsPromises().link(from, target);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error;
    }
  }
}

/**
 * Where there are no hard links: renamed to the first of `to`, to-2, … that is free now. A file another process
 * makes under that name between the look and the rename would be replaced; link(2) is what rules that out.
 */
async function renameToFree(from: string, to: string): Promise<string> {
  for (let n = 1; n <= 100; n++) {
    const target = nthName(to, n);
    if (await exists(target)) continue;
    await fsPromises().rename(from, target);
    return target;
  }
  throw new Error(`no free name for ${to}`);
}

/** Newest first: how much of [start, end] the pages so far have covered, when a start bounds it. */
export function timeFraction(start: number | undefined, end: number, rows: readonly Transfer[]): number | undefined {
  const last = rows[rows.length - 1];
  const oldest = last === undefined ? undefined : timeOrder(last.timestamp);
  if (start === undefined || oldest === undefined || end <= start) return undefined;
  return Math.min(0.99, Math.max(0, (end - oldest) / (end - start)));
}
