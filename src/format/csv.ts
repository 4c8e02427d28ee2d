// CSV cells and records (RFC 4180), shared by the commands and the export: exact data for a file or a pipe,
// cells a spreadsheet would run neutralised, and every cell sanitised for a terminal.
import { sanitize } from '../terminal/sanitize';

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, and quotes inside are doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One CSV record, CRLF-terminated as RFC 4180 says. */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A decimal number as the service writes amounts (the same rule the answer's schema applies). */
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function isPlainDecimal(value: string): boolean {
  return PLAIN_DECIMAL.test(value);
}

/** What a spreadsheet would read as a formula (or a DDE command): =, +, -, @, tab or CR first. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell a spreadsheet cannot run (OWASP "CSV injection"): a value starting with =, +, -, @, tab or CR
 * gets a leading single quote, so it is shown as text. A number is left alone when `numeric` says the
 * column holds numbers and the value is a plain decimal (an amount of -12.5 stays -12.5; "-1+1" does not).
 */
export function neutraliseCsvCell(value: string, numeric = false): string {
  if (numeric && isPlainDecimal(value)) return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * A whole CSV document (RFC 4180, CRLF): the header, then one record per row. Cells a spreadsheet would run
 * are neutralised (columns listed in `numeric` keep plain decimals as they are); for a terminal every cell
 * is also sanitised, as a table cell is.
 */
export function csvDocument(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: { terminal?: boolean; numeric?: readonly string[] } = {},
): string {
  const numeric = new Set(options.numeric ?? []);
  const cell = (value: string, i: number): string => {
    const safe = neutraliseCsvCell(value, numeric.has(header[i] ?? ''));
    return options.terminal ? sanitize(safe) : safe;
  };
  return [csvRecord(header), ...rows.map((row) => csvRecord(row.map(cell)))].join('');
}

/** RFC 4180 with quotes always: a value that must reach its reader exactly as it is (a created secret). */
export function csvQuoted(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}
