// When a process started, where the system says (Linux's /proc): a process id is reused once its process has
// ended, so a pid written down earlier names that process only if it started before the writing.
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

let bootSeconds: number | undefined | null = null;

function bootTime(): number | undefined {
  if (bootSeconds === null) {
    try {
      const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      bootSeconds = line ? Number(line[1]) : undefined;
    } catch {
      bootSeconds = undefined;
    }
  }
  return bootSeconds;
}

/** When process `pid` started (ms since the epoch, to a second), or undefined where the system does not say. */
export function processStartedAt(pid: number): number | undefined {
  const boot = bootTime();
  if (boot === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The name in parentheses may hold spaces and parentheses: the fields after its last ')' are counted.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // starttime is field 22; the fields here start at field 3 (state).
  const ticks = Number(fields[19]);
  return Number.isFinite(ticks) ? (boot + ticks / TICKS_PER_SECOND) * 1000 : undefined;
}
