// The service's documented limits, as the sandbox models them (docs/limits.md). The requests of each API key to
// every endpoint count together in fixed windows (the stricter of the docs' two readings); past the limit a
// request gets 429 + Retry-After (the seconds left in the window).
// A client that keeps sending while refused is banned: by default, once the refusals of one key in one window
// pass the limit itself (at least 10), every request from that client's address gets 418
// + Retry-After for 2 minutes (the shortest ban documented). The live thresholds are not published: this rule is
// the sandbox's model, and a well-paced client never comes near it.
import { ERR, SandboxHttpError } from './errors';

interface RateLimitConfig {
  max: number;
  windowMs: number;
}

interface BanConfig {
  /** Refusals of one key in one window past which the client is banned; default max(limit, 10). */
  afterRefusals?: number;
  /** How long a ban lasts, ms; default 120,000. */
  durationMs?: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { max: 500, windowMs: 10_000 };
export const DEFAULT_BAN_MS = 120_000;
/** The fewest refusals in a window that ban a client, whatever the limit. */
export const MIN_BAN_REFUSALS = 10;

interface RateLimiter {
  /** Throws 418 while `address` is banned. */
  checkBan(address: string, now: number): void;
  /** Counts one request of `key` (to any endpoint) from `address`; throws 429 past the limit, 418 when that bans it. */
  hit(key: string, address: string, now: number): void;
}

/** "500/10s", "50/1s", "100/500ms" → the limit; "off" → false; undefined for anything else. */
export function parseRateLimit(text: string): RateLimitConfig | false | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off') return false;
  const match = /^(\d{1,9})\s*\/\s*(\d{1,9}(?:\.\d{1,3})?)?\s*(ms|s|min)$/.exec(trimmed);
  if (!match) return undefined;
  const max = Number(match[1]);
  const count = match[2] === undefined ? 1 : Number(match[2]);
  const unitMs = match[3] === 'ms' ? 1 : match[3] === 's' ? 1000 : 60_000;
  const windowMs = Math.round(count * unitMs);
  if (max < 1 || windowMs < 1 || windowMs > 3_600_000) return undefined;
  return { max, windowMs };
}

function banned(endsAt: number, now: number): SandboxHttpError {
  const retryAfterSec = Math.max(1, Math.ceil((endsAt - now) / 1000));
  return new SandboxHttpError(ERR.ipBanned, `(for ${retryAfterSec} s: requests kept coming after 429s)`, { 'Retry-After': String(retryAfterSec) });
}

export function createRateLimiter(config: RateLimitConfig | false, ban: BanConfig | false = {}): RateLimiter {
  const windows = new Map<string, { start: number; count: number; refused: number }>();
  const bans = new Map<string, number>();
  const afterRefusals = ban === false ? Number.POSITIVE_INFINITY : (ban.afterRefusals ?? Math.max(config === false ? 0 : config.max, MIN_BAN_REFUSALS));
  const banMs = ban === false ? 0 : (ban.durationMs ?? DEFAULT_BAN_MS);
  const limiter: RateLimiter = {
    checkBan(address, now) {
      const endsAt = bans.get(address);
      if (endsAt === undefined) return;
      if (endsAt <= now) {
        bans.delete(address);
        return;
      }
      throw banned(endsAt, now);
    },
    hit(key, address, now) {
      if (config === false) return;
      let window = windows.get(key);
      if (!window || now - window.start >= config.windowMs) {
        window = { start: now, count: 0, refused: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count <= config.max) return;
      window.refused += 1;
      if (window.refused > afterRefusals) {
        bans.set(address, now + banMs);
        throw banned(now + banMs, now);
      }
      const retryAfterSec = Math.max(1, Math.ceil((window.start + config.windowMs - now) / 1000));
      throw new SandboxHttpError(ERR.rateLimited, `(limit ${config.max} per ${config.windowMs} ms for this API key, every endpoint together)`, {
        'Retry-After': String(retryAfterSec),
      });
    },
  };
  return limiter;
}
