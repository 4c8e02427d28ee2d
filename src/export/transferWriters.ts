// CSV and JSON writers for transfers, shared by the `transfers` command and the console's export.
// To a file or a pipe the data goes exactly as sent, except that CSV cells a spreadsheet would run are
// neutralised and JSON escapes control and bidi characters as \u sequences; for a terminal (the command's
// stdout when it is one) every text is also sanitised as a table cell is (docs/design.md, the sanitiser).
// A page goes out in blocks (fewer system calls): its rows' text gathered and written once per page, or once per
// BLOCK_CHARS of it, each write awaiting the destination (back-pressure), not one write(2) per row.
import type { Transfer } from '../api/types';
import { csvRecord, neutraliseCsvCell } from '../format/csv';
import { sanitize, sanitizeDeep, toJson } from '../terminal/sanitize';

/** Where text goes; resolves when the destination can take more (backpressure). */
export type TextSink = (text: string) => Promise<void>;

/** Text gathered before it is written: 64 Ki characters (at least 64 KiB of UTF-8). */
export const BLOCK_CHARS = 64 * 1024;

export interface RowWriter {
  /** Writes a page of rows: one write for the page, or one per BLOCK_CHARS of its text, each awaited. */
  rows(batch: readonly Transfer[]): Promise<void>;
  /** Writes one row at once (one write). The same bytes as `rows` gives. */
  row(t: Transfer): Promise<void>;
  /** Closes the document (the JSON array, or the CSV header when no row came). */
  end(): Promise<void>;
}

/**
 * Writes the text of each item in blocks: gathered until BLOCK_CHARS, then written and awaited; what is
 * left goes out at the end of the batch. `text` returns an item's text (it may keep state: the JSON comma).
 */
export async function writeInBlocks<T>(write: TextSink, items: readonly T[], text: (item: T) => string, first = ''): Promise<void> {
  let block = first;
  for (const item of items) {
    block += text(item);
    if (block.length >= BLOCK_CHARS) {
      await write(block);
      block = '';
    }
  }
  if (block !== '') await write(block);
}

/** CSV columns: every field of the domain record, in its order; amounts exactly as the service sent them. */
export const CSV_FIELDS = [
  'tranId',
  'fromAccount',
  'toAccount',
  'clientTranId',
  'asset',
  'amount',
  'fromAccountType',
  'toAccountType',
  'fromSymbol',
  'toSymbol',
  'status',
  'timestamp',
] as const satisfies readonly (keyof Transfer)[];

interface WriterOptions {
  /** The text goes to a terminal: sanitise every value (visible marks for controls, long fields cut). */
  terminal?: boolean;
}

/** The CSV cells of one transfer: formula-like cells neutralised (amounts that are plain decimals kept). */
export function csvCells(t: Transfer, options: WriterOptions = {}): string[] {
  return CSV_FIELDS.map((f) => {
    const cell = neutraliseCsvCell(String(t[f]), f === 'amount' || f === 'timestamp');
    return options.terminal ? sanitize(cell) : cell;
  });
}

/** What makes a CSV field need quotes (csvField), and what a formula cell starts with (neutraliseCsvCell). */
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const isFormulaStart = (code: number): boolean => code === 61 || code === 43 || code === 45 || code === 64 || code === 9 || code === 13; // = + - @ tab CR

/** A text cell: a formula start gets a leading quote; quoted when it holds a quote, comma, CR or LF. */
function textCell(value: string): string {
  const cell = isFormulaStart(value.charCodeAt(0)) ? `'${value}` : value;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(QUOTES, '""')}"` : cell;
}

/** A numeric cell (amount, timestamp): a plain decimal is kept as it is, even with a sign. */
function numberCell(value: string): string {
  const cell = isFormulaStart(value.charCodeAt(0)) && !PLAIN_DECIMAL.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(QUOTES, '""')}"` : cell;
}

/**
 * csvRecord(csvCells(t)) for a file or a pipe, in CSV_FIELDS order, without the arrays and closures: the
 * same bytes (a property test holds them equal) at less cost, since an export formats every row (docs/performance.md).
 */
export function csvLine(t: Transfer): string {
  return (
    `${textCell(String(t.tranId))},${textCell(String(t.fromAccount))},${textCell(String(t.toAccount))},` +
    `${textCell(String(t.clientTranId))},${textCell(String(t.asset))},${numberCell(String(t.amount))},` +
    `${textCell(String(t.fromAccountType))},${textCell(String(t.toAccountType))},${textCell(String(t.fromSymbol))},` +
    `${textCell(String(t.toSymbol))},${textCell(String(t.status))},${numberCell(String(t.timestamp))}\r\n`
  );
}

export function csvWriter(write: TextSink, options: WriterOptions = {}): RowWriter {
  let started = false;
  const header = (): string => {
    if (started) return '';
    started = true;
    return csvRecord(CSV_FIELDS);
  };
  const line = options.terminal ? (t: Transfer): string => csvRecord(csvCells(t, options)) : csvLine;
  return {
    rows: (batch) => writeInBlocks(write, batch, line, batch.length > 0 ? header() : ''),
    row: (t) => write(header() + line(t)),
    async end() {
      const text = header();
      if (text !== '') await write(text);
    },
  };
}

/** One valid JSON array, written incrementally. */
export function jsonWriter(write: TextSink, options: WriterOptions = {}): RowWriter {
  let count = 0;
  const item = (t: Transfer): string => {
    const text = `${count === 0 ? '[\n' : ',\n'}${toJson(options.terminal ? sanitizeDeep(t) : t)}`;
    count += 1;
    return text;
  };
  return {
    rows: (batch) => writeInBlocks(write, batch, item),
    row: (t) => write(item(t)),
    async end() {
      await write(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}
