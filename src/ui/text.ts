// Fitting text into fixed-width cells, for one-line rows that never wrap.
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const chars = Array.from(text);
  if (chars.length > width) return width === 1 ? '…' : `${chars.slice(0, width - 1).join('')}…`;
  const pad = ' '.repeat(width - chars.length);
  return align === 'right' ? pad + text : text + pad;
}

/** Shortens an API key for tables and logs: mx0v…a1b2. */
export function shortKey(apiKey: string): string {
  return apiKey.length <= 12 ? apiKey : `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}

/** Local time as YYYY-MM-DD HH:MM (or with seconds). */
export function localTime(ms: number, seconds = false): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const base = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
  return seconds ? `${base}:${two(d.getSeconds())}` : base;
}
