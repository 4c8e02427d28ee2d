// Fitting text into fixed-width cells, for one-line rows that never wrap.
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const chars = Array.from(text);
  if (chars.length > width) return width === 1 ? '…' : `${chars.slice(0, width - 1).join('')}…`;
  const pad = ' '.repeat(width - chars.length);
  return align === 'right' ? pad + text : text + pad;
}

// One way to shorten a key and to show a local time, for the console, the commands and the log file alike.
export { shortenApiKey as shortKey } from '../config/logFile';
export { formatLocalTime as localTime } from '../api/timeInput';
