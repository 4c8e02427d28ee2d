// Server clock estimation from the HTTP Date header: timestamps are corrected by the measured offset (docs/signing.md).
import { formatDuration } from './errors';
import { MAX_RECV_WINDOW } from './signing';

/** The Date header has 1 s resolution: the server's true time lies in [Date, Date + 1000), so take the middle. */
const DATE_HEADER_HALF_RESOLUTION_MS = 500;
/** Below this the measurement is noise (Date resolution plus latency); timestamps stay uncorrected. */
export const CLOCK_SKEW_THRESHOLD_MS = 1000;

/**
 * Server-minus-local clock skew estimated from one exchange: the Date header's time (plus half its resolution)
 * against the moment the answer arrived. The service read its clock before that moment, so the estimate is never
 * ahead of the true skew by more than half the header's resolution (a timestamp it corrects stays inside the
 * second ahead of its clock that the service accepts); a slow exchange (a request held on the way) makes it lag instead, which recvWindow absorbs.
 * Undefined when the header is missing or unreadable.
 */
export function skewFromDateHeader(dateHeader: string | undefined, receivedAtMs: number, sentAtMs?: number): number | undefined {
  if (dateHeader === undefined) return undefined;
  const serverMs = Date.parse(dateHeader);
  if (Number.isNaN(serverMs)) return undefined;
  // The service stamped its answer between our sending and the answer's arrival: when agreeing clocks could
  // explain the stamp (a slow exchange), nothing was measured, and a slow answer teaches no offset.
  if (sentAtMs !== undefined && agreeingClocksExplain(serverMs, sentAtMs, receivedAtMs)) return 0;
  return Math.round(serverMs + DATE_HEADER_HALF_RESOLUTION_MS - receivedAtMs);
}

/** Whether clocks that agree could have stamped `serverMs` (a Date, to its second) between sending and arrival. */
export function agreeingClocksExplain(serverMs: number, sentAtMs: number, receivedAtMs: number): boolean {
  return serverMs - receivedAtMs <= 0 && serverMs + 2 * DATE_HEADER_HALF_RESOLUTION_MS - sentAtMs >= 0;
}

/** The offset to apply for a measured skew: the skew itself when it is beyond the threshold, else 0. */
export function offsetFromSkew(skewMs: number, thresholdMs = CLOCK_SKEW_THRESHOLD_MS): number {
  return Math.abs(skewMs) > thresholdMs ? skewMs : 0;
}

/** "this computer's clock is 30 s behind the service's", or undefined when within the threshold or unknown. */
export function describeSkew(skewMs: number | undefined, thresholdMs = CLOCK_SKEW_THRESHOLD_MS): string | undefined {
  if (skewMs === undefined || Math.abs(skewMs) <= thresholdMs) return undefined;
  return `this computer's clock is ${formatDuration(skewMs)} ${skewMs > 0 ? 'behind' : 'ahead of'} the service's`;
}

/**
 * What to do about a 700003 (timestamp outside recvWindow), from the skew (server minus local) measured
 * on that answer: which way the clock is off and by how much. A clock that is ahead cannot be helped by a
 * larger recvWindow (the service refuses timestamps from its future); one behind can, up to 60 s.
 */
export function clockHint(skewMs: number | undefined, recvWindowMs: number, maxRecvWindowMs = MAX_RECV_WINDOW): string {
  if (skewMs === undefined) {
    return 'the service refused the timestamp and did not say its time (no Date header): check the computer clock, or raise --recv-window';
  }
  const off = describeSkew(skewMs);
  if (off === undefined) {
    return `the clocks agree within 1 s, so the request took longer than recvWindow (${recvWindowMs} ms) to arrive: raise --recv-window (at most ${maxRecvWindowMs})`;
  }
  if (skewMs < 0) return `${off}: set it right (e.g. turn on network time sync); a larger --recv-window cannot help a clock that is ahead`;
  const needed = Math.ceil((skewMs + 1000) / 1000) * 1000;
  return needed <= maxRecvWindowMs
    ? `${off}: set it right (e.g. turn on network time sync), or raise --recv-window to ${needed} or more`
    : `${off}: set it right (e.g. turn on network time sync); that is more than --recv-window can cover (at most ${maxRecvWindowMs})`;
}
