// Which fields of a form are shown when they do not all fit: the focused one, and as many around it as fit.

/**
 * The fields shown in `room` lines (`lines`: each field's, its error included): all when they fit, else the
 * focused one and as many around it as fit, after it first.
 */
export function fieldWindow(lines: readonly number[], room: number, focus: number): [number, number] {
  if (lines.reduce((a, b) => a + b, 0) <= room) return [0, lines.length];
  let from = Math.min(Math.max(0, focus), lines.length - 1);
  let to = from + 1;
  let used = lines[from] ?? 1;
  for (let grew = true; grew;) {
    grew = false;
    if (to < lines.length && used + lines[to]! <= room) {
      used += lines[to]!;
      to += 1;
      grew = true;
    }
    if (from > 0 && used + lines[from - 1]! <= room) {
      from -= 1;
      used += lines[from]!;
      grew = true;
    }
  }
  return [from, to];
}
