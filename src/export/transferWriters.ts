// CSV and JSON writers for transfers, row by row, shared by the `transfers` command and the console's export.
import type { Transfer } from '../api/types';
import { csvRecord } from '../commands/output';

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

export function csvWriter(write: TextSink): RowWriter {
  let started = false;
  const header = async (): Promise<void> => {
    if (!started) await write(csvRecord(CSV_FIELDS));
    started = true;
  };
  return {
    async row(t) {
      await header();
      await write(csvRecord(CSV_FIELDS.map((f) => String(t[f]))));
    },
    end: header,
  };
}

/** One valid JSON array, written incrementally. */
export function jsonWriter(write: TextSink): RowWriter {
  let count = 0;
  return {
    async row(t) {
      await write(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(t)}`);
      count += 1;
    },
    async end() {
      await write(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}
