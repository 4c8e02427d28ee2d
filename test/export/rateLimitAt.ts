// A 429 at a chosen request, whatever the machine's speed: a loaded machine may never reach a rate limit on its own.
import type { SandboxFault } from '../../src/sandbox/types';

/** Faults to queue: requests answered as usual, then one 429 (Retry-After 1 s) for the nth. */
export function rateLimitAt(nth: number): SandboxFault[] {
  return [...Array.from({ length: nth - 1 }, () => ({ kind: 'delay' as const, ms: 0 })), { kind: 'rate-limit', retryAfterSec: 1 }];
}
