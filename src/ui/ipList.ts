// A key's linked IPs in the room a table cell or a detail gives them: whole addresses, and when some do not fit,
// how many are hidden (`203.0.113.7, 198.51.100.20 +2`); only a room too small for one beside the count cuts it.
import { displayWidth, fit, sanitize } from '../terminal/text';
import { NO_IP } from '../format/noIp';

/**
 * The IPs in at most `maxLines` lines of `width` cells, `separator` between them (a line that goes on ends with
 * its trimmed form). When they do not all fit, the last line ends with ` +N`, N the addresses left out.
 */
export function ipLines(ips: readonly string[], width: number, maxLines = 1, separator = ', '): string[] {
  if (ips.length === 0) return [fit(NO_IP, width).trimEnd()];
  const shown = ips.map((ip) => sanitize(ip, 64));
  const joint = separator.trimEnd();
  const lines: string[][] = [[]];
  let taken = 0;
  for (const ip of shown) {
    // A line that goes on needs room for the joint after its last address.
    const joined = (items: string[]) => displayWidth(items.join(separator)) + (taken + 1 < shown.length ? displayWidth(joint) : 0);
    const line = lines.at(-1)!;
    if (joined([...line, ip]) <= width) {
      line.push(ip);
    } else if (line.length > 0 && lines.length < maxLines && joined([ip]) <= width) {
      lines.push([ip]);
    } else {
      break;
    }
    taken += 1;
  }
  const render = (items: string[], i: number, suffix = '') => `${items.join(separator)}${i < lines.length - 1 ? joint : ''}${suffix}`;
  if (taken === shown.length) return lines.map((items, i) => render(items, i));
  // Some are hidden: the last line gives up addresses until ` +N` fits after it.
  const last = lines.at(-1)!;
  let hidden = shown.length - taken;
  while (last.length > 0 && displayWidth(`${last.join(separator)} +${hidden}`) > width) {
    last.pop();
    hidden += 1;
  }
  if (last.length === 0) {
    // Not one whole address fits beside the count: the first hidden one, cut, then the count.
    const count = ` +${hidden - 1}`;
    const first = shown[shown.length - hidden]!;
    const text =
      hidden - 1 > 0 && width - displayWidth(count) >= 4 ? `${fit(first, width - displayWidth(count)).trimEnd()}${count}` : fit(first, width).trimEnd();
    return [...lines.slice(0, -1).map((items, i) => render(items, i)), text];
  }
  return lines.map((items, i) => (i === lines.length - 1 ? `${items.join(separator)} +${hidden}` : render(items, i)));
}

/** The IPs in one line of `width` cells (a table cell): whole addresses and ` +N` for the rest. */
export function ipCell(ips: readonly string[], width: number, separator = ','): string {
  return ipLines(ips, width, 1, separator)[0] ?? '';
}

/**
 * The addresses one to a line, each followed by `separator` but the last: every one whole where it fits
 * `width`; one longer goes on over the next line, broken after a `:`, each piece after the first starting with
 * `…`, so no piece of it reads as an address of its own.
 */
export function ipPerLine(ips: readonly string[], width: number, separator = ','): string[] {
  return ips.flatMap((raw, i) => {
    let rest = `${sanitize(raw, 64)}${i < ips.length - 1 ? separator : ''}`;
    const lines: string[] = [];
    while (displayWidth(rest) > Math.max(2, width)) {
      // After a single `:` (a piece ending in `::` would read as an address of its own).
      let cut = rest.lastIndexOf(':', width - 1);
      while (cut > 0 && (rest[cut - 1] === ':' || rest[cut + 1] === ':')) cut = rest.lastIndexOf(':', cut - 1);
      // No such `:` to break after: cut at the width.
      const at = cut > 1 ? cut + 1 : Math.max(2, width);
      lines.push(rest.slice(0, at));
      rest = `…${rest.slice(at)}`;
    }
    return [...lines, rest];
  });
}
