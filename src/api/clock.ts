// Server clock estimation from the HTTP Date header (DESIGN §4: timestamps are corrected by the measured offset).

/** The Date header has 1 s resolution: the server's true time lies in [Date, Date + 1000), so take the middle. */
export const DATE_HEADER_HALF_RESOLUTION_MS = 500;
/** Below this the measurement is noise (Date resolution plus latency); timestamps stay uncorrected. */
export const CLOCK_SKEW_THRESHOLD_MS = 1000;

/**
 * Server-minus-local clock skew estimated from one exchange: the Date header's time (plus half its resolution)
 * against the local midpoint of send and receive. Undefined when the header is missing or unreadable.
 */
export function skewFromDateHeader(dateHeader: string | undefined, sentAtMs: number, receivedAtMs: number): number | undefined {
  if (dateHeader === undefined) return undefined;
  const serverMs = Date.parse(dateHeader);
  if (Number.isNaN(serverMs)) return undefined;
  const localMidpoint = (sentAtMs + receivedAtMs) / 2;
  return Math.round(serverMs + DATE_HEADER_HALF_RESOLUTION_MS - localMidpoint);
}

/** The offset to apply for a measured skew: the skew itself when it is beyond the threshold, else 0. */
export function offsetFromSkew(skewMs: number, thresholdMs = CLOCK_SKEW_THRESHOLD_MS): number {
  return Math.abs(skewMs) > thresholdMs ? skewMs : 0;
}
