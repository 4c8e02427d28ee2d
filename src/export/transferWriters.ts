// CSV and JSON writers for transfers, row by row, shared by the `transfers` command and the console's export.
// To a file or a pipe the data goes exactly as sent, except that CSV cells a spreadsheet would run are
// neutralised and JSON escapes control and bidi characters as \u sequences; for a terminal (the command's
// stdout when it is one) every text is also sanitised as a table cell is (DESIGN §5b).
import type { Transfer } from '../api/types';
import { csvRecord, neutraliseCsvCell } from '../commands/output';
import { sanitize, sanitizeDeep, toJson } from '../terminal/text';

/** Where text goes; resolves when the destination can take more (backpressure). */
export type TextSink = (text: string) => Promise<void>;

export interface RowWriter {
  row(t: Transfer): Promise<void>;
  /** Closes the document (the JSON array, or the CSV header when no row came). */
  end(): Promise<void>;
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

export interface WriterOptions {
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

export function csvWriter(write: TextSink, options: WriterOptions = {}): RowWriter {
  let started = false;
  const header = async (): Promise<void> => {
    if (!started) await write(csvRecord(CSV_FIELDS));
    started = true;
  };
  return {
    async row(t) {
      await header();
      await write(csvRecord(csvCells(t, options)));
    },
    end: header,
  };
}

/** One valid JSON array, written incrementally. */
export function jsonWriter(write: TextSink, options: WriterOptions = {}): RowWriter {
  let count = 0;
  return {
    async row(t) {
      await write(`${count === 0 ? '[\n' : ',\n'}${toJson(options.terminal ? sanitizeDeep(t) : t)}`);
      count += 1;
    },
    async end() {
      await write(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}
