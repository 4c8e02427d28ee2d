// The console's export: this page or every page, to a CSV or JSON file in a folder, streamed, cancellable.
// "Every page" is fetched at the largest page size (500), whatever the screen shows, paced and one page
// ahead (transferPages.ts), and written a page at a time in blocks. It always ends: a short page, a page
// repeating an earlier one, or the page bound. When paging is stopped, the rows written so far (unique, pages 1..n in order) are kept in a
// complete document renamed "-incomplete", and the error says where; a cancel or any other failure
// removes the partial file.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { BrokerApi } from '../api/contract';
import { timeOrder } from '../api/serviceTime';
import { MAX_PAGE_SIZE, type Transfer } from '../api/types';
import { RequestPacer } from './pacer';
import { PagingStopped, forEachTransferPage } from './transferPages';
import { csvWriter, jsonWriter } from './transferWriters';
import type { ExportProgress, ExportRequest, ExportResult, TransferExporter } from './types';
import { fsPromises } from '../lazyBuiltins';

export function fileExporter(api: BrokerApi, folder: string, now: () => number = Date.now): TransferExporter {
  return {
    async run(request: ExportRequest, onProgress: (progress: ExportProgress) => void, signal: AbortSignal): Promise<ExportResult> {
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z');
      const base = `transfers-${stamp}${request.scope === 'all' ? '-all' : `-page${request.query.page ?? 1}`}`;
      const { path, file } = await createNewFile(folder, base, request.format);
      const write = async (text: string): Promise<void> => {
        if (!file.write(text)) await once(file, 'drain');
      };
      const writer = request.format === 'csv' ? csvWriter(write) : jsonWriter(write);
      try {
        let result: { pages: number; rows: number };
        if (request.scope === 'page') {
          const rows = request.rows ?? (await api.listUniversalTransfers(request.query, { signal }));
          await writer.rows(rows);
          result = { pages: 1, rows: rows.length };
          onProgress({ ...result, fraction: 1 });
        } else {
          // The page size of the screen does not matter to a file: the fewest requests fetch it.
          const query = { ...request.query, page: 1, limit: MAX_PAGE_SIZE };
          let written = 0;
          result = await forEachTransferPage(
            api,
            query,
            async ({ page, rows, last }) => {
              if (signal.aborted) throw new Error('export cancelled');
              await writer.rows(rows);
              written += rows.length;
              onProgress({ pages: page, rows: written, fraction: last ? 1 : timeFraction(query.startTime, query.endTime ?? now(), rows) });
            },
            { signal, maxPages: request.maxPages, pacer: new RequestPacer() },
          );
        }
        await writer.end();
        file.end();
        await once(file, 'finish');
        return { path, ...result };
      } catch (error) {
        if (error instanceof PagingStopped && !signal.aborted) throw await keepIncomplete(error, path, file, writer.end);
        file.destroy();
        await fsPromises().rm(path, { force: true });
        throw error;
      }
    },
  };
}

/**
 * Paging stopped: the rows so far are closed into a valid document and renamed `…-incomplete.ext` (never
 * over another file). Returns the error to throw: the stop's reason, then what was kept and where.
 */
async function keepIncomplete(stop: PagingStopped, path: string, file: WriteStream, end: () => Promise<void>): Promise<Error> {
  const reason = stop.message.replace(/; stopped$/, '');
  const rows = `${stop.rows} row${stop.rows === 1 ? '' : 's'} of ${stop.pages} page${stop.pages === 1 ? '' : 's'}`;
  try {
    await end();
    file.end();
    await once(file, 'finish');
    const kept = await renameNoClobber(path, path.replace(/(\.[a-z]+)$/, '-incomplete$1'));
    return new PagingStopped(stop.reason, `${reason}; the ${rows} so far are in ${kept} (incomplete)`, stop.pages, stop.rows, stop.maxPages);
  } catch {
    file.destroy();
    await fsPromises().rm(path, { force: true });
    return new PagingStopped(stop.reason, `${reason}; nothing was saved`, stop.pages, stop.rows, stop.maxPages);
  }
}

/** Renames `from` to `to` (or to-2, to-3, …) without replacing a file; the old name when linking fails. */
async function renameNoClobber(from: string, to: string): Promise<string> {
  for (let n = 1; n <= 100; n++) {
    const target = n === 1 ? to : to.replace(/(\.[a-z]+)$/, `-${n}$1`);
    try {
      await fsPromises().link(from, target);
      await fsPromises().unlink(from);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return from;
    }
  }
  return from;
}

/** A file that did not exist before (never overwrites): base.ext, else base-2.ext, base-3.ext, … */
async function createNewFile(folder: string, base: string, extension: string): Promise<{ path: string; file: WriteStream }> {
  for (let n = 1; ; n++) {
    const path = join(folder, `${base}${n === 1 ? '' : `-${n}`}.${extension}`);
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    try {
      await once(file, 'open');
      return { path, file };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error;
    }
  }
}

/** Newest first: how much of [start, end] the pages so far have covered, when a start bounds it. */
export function timeFraction(start: number | undefined, end: number, rows: readonly Transfer[]): number | undefined {
  const last = rows[rows.length - 1];
  const oldest = last === undefined ? undefined : timeOrder(last.timestamp);
  if (start === undefined || oldest === undefined || end <= start) return undefined;
  return Math.min(0.99, Math.max(0, (end - oldest) / (end - start)));
}
