// Fixed-window request counting per API key; the 101st request in a window gets 429 + Retry-After.
import { ERR, SandboxHttpError } from './errors';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { max: 100, windowMs: 1000 };

export interface RateLimiter {
  /** Counts one request for `key`; throws 429 when the window is full. */
  hit(key: string, now: number): void;
}

export function createRateLimiter(config: RateLimitConfig): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, now) {
      let window = windows.get(key);
      if (!window || now - window.start >= config.windowMs) {
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > config.max) {
        const retryAfterSec = Math.max(1, Math.ceil((window.start + config.windowMs - now) / 1000));
        throw new SandboxHttpError(ERR.rateLimited, `(limit ${config.max} per ${config.windowMs} ms)`, {
          'Retry-After': String(retryAfterSec),
        });
      }
    },
  };
}
