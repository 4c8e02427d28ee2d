// Exporting transfers to a file: the console asks, src/export does the file work.
import type { Transfer, TransferQuery } from '../api/types';

export type ExportFormat = 'csv' | 'json';
export type ExportScope = 'page' | 'all';

export interface ExportRequest {
  query: TransferQuery;
  scope: ExportScope;
  format: ExportFormat;
  /** The page already on screen, exported as is for scope "page". */
  rows?: readonly Transfer[];
  /** Scope "all" (fetched in pages of 500, whatever query.limit says): the most pages fetched; default
   *  defaultMaxPages(500), 2,000 (transferPages.ts). */
  maxPages?: number;
}

export interface ExportProgress {
  pages: number;
  rows: number;
  /** 0..1 when it can be known (a start time bounds the range), else undefined. */
  fraction?: number;
  /** Set when the next request waits for the service's budget: how long, from when this progress was told, ms. */
  waitingMs?: number;
}

export interface ExportResult {
  path: string;
  rows: number;
  pages: number;
}

export interface TransferExporter {
  run(request: ExportRequest, onProgress: (progress: ExportProgress) => void, signal: AbortSignal): Promise<ExportResult>;
}

/**
 * An "all pages" export whose service failed part way: the rows written so far stay, a valid document under the
 * `-incomplete` name. `failure` is what failed (its retry advice stands); `kept` where the rows are.
 */
export class PartialExport extends Error {
  constructor(
    readonly failure: Error,
    readonly kept: string,
    readonly pages: number,
    readonly rows: number,
  ) {
    super(failure.message);
    this.name = 'PartialExport';
  }
}
