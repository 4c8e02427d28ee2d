// Which process a pid names, where the system says (Linux's /proc): a pid is reused once its process has ended,
// so a pid written down names that process only while the process with it started when that one did.
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** When process `pid` started, in clock ticks since the machine booted (exact, whatever the wall clock does). */
function startTicks(pid: number): number | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The name in parentheses may hold spaces and parentheses: the fields after its last ')' are counted; starttime
  // is field 22, and these start at field 3 (state).
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}

let bootId: string | undefined | null = null;

/** This boot's id (it changes at every boot), read once. */
function thisBoot(): string | undefined {
  if (bootId === null) bootId = readText('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
  return bootId;
}

/**
 * Process `pid` as the system names it, `<boot id>/<start ticks>`: the same text only for the same process (a
 * reboot changes the boot id, a reused pid the start). Undefined where the system does not say.
 */
export function processIdentity(pid: number): string | undefined {
  const boot = thisBoot();
  const ticks = startTicks(pid);
  return boot === undefined || ticks === undefined ? undefined : `${boot}/${ticks}`;
}

/** Seconds since this machine booted (a clock no one sets), or undefined where the system does not say. */
export function uptimeSeconds(): number | undefined {
  const seconds = Number(readText('/proc/uptime')?.split(' ')[0]);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** When process `pid` started (ms since the epoch, to a second, by the wall clock now), or undefined where the system does not say. */
export function processStartedAt(pid: number): number | undefined {
  const boot = /^btime (\d+)$/m.exec(readText('/proc/stat') ?? '')?.[1];
  const ticks = startTicks(pid);
  return boot === undefined || ticks === undefined ? undefined : (Number(boot) + ticks / TICKS_PER_SECOND) * 1000;
}
