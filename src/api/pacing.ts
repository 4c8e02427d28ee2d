// Pacing and bans, shared by every client in the process (docs/limits.md has the service's numbers and their
// sources). The service limits requests in a period (its docs disagree on whether each endpoint has its own
// budget or all share one, so all share one here), refuses more with 429 + Retry-After, and bans the IP (418 +
// Retry-After) of a client that keeps sending after 429s. So every request waits for the service's budget before
// it goes, from the first request on: a budget a little under the limit it keeps to, kept in any span of its
// period (a sliding log of send times), tightened by what a 429 teaches (another client on the same key, a lower
// limit). A 418 stops every request to that base URL until the ban ends.
//
// Learning from a 429: the sends the service accepted in the stretch before it, over the time they took plus the
// Retry-After it asked for (1 s when it gives none; whole seconds when the wait is, see windowEstimate), a
// little under. A lesson never loosens the budget: a slower rate is taken, else the budget in force is tightened.

/** A limit as the service states it: at most `requests` in any span of `periodMs`. */
interface PacerBudget {
  requests: number;
  periodMs: number;
}

/**
 * The limit kept to when nothing tighter is known: 20 requests in any second, far under the documented 500 per
 * 10 s; it is the pace the widely used clients keep, one of them on the service's support's word (docs/limits.md).
 */
export const SERVICE_LIMIT: PacerBudget = { requests: 20, periodMs: 1000 };
/** The share of a known limit the client sends at: the rest absorbs clock jitter and a request arriving early. */
export const PACING_SHARE = 0.95;
/** Send times remembered: the largest budget kept as a burst (a larger one is scaled down, same rate). */
const PACER_LOG_SIZE = 4096;
/** Assumed when a 429 says no Retry-After (the common limits are per second). */
export const DEFAULT_RETRY_AFTER_MS = 1000;
/** Added to a learned period: a send's arrival may come a little earlier or later than its sending. */
export const PACER_SLACK_MS = 25;
/** Assumed when a 418 says no Retry-After: the shortest ban the service documents. */
export const DEFAULT_BAN_MS = 120_000;
/** Fewer requests than this accepted before a 429 measure nothing (a window mostly used by someone else). */
const MIN_LESSON = 4;

/** The budget the client keeps to under a known limit: PACING_SHARE of its requests, in the same period. */
export function pacedBudget(limit: PacerBudget): PacerBudget {
  return { requests: Math.max(1, Math.floor(limit.requests * PACING_SHARE)), periodMs: limit.periodMs };
}

/** A slot taken in the pacer's log: its place, its number, and how long to wait for it. */
interface PacerTicket {
  waitMs: number;
  index: number;
  seq: number;
}

interface ServicePacerStats {
  /** Sends reserved (every try, the client's own retries included). */
  requests: number;
  /** Answers 429 seen. */
  rateLimited: number;
  /** The budget in force. */
  budget: PacerBudget;
  /** Whether a 429 changed the budget. */
  learned: boolean;
}

/** The budget of requests to one service: the send log, the budget in force, and the pause a 429 asked for. */
export class ServicePacer {
  private readonly now: () => number;
  private sent: Float64Array;
  /** Which slot (by its number) each place of the log holds. */
  private readonly seqs = new Float64Array(PACER_LOG_SIZE);
  private taken = 0;
  private head = 0;
  private stored = 0;
  private budget: PacerBudget;
  private learned = false;
  /** No send before this (a 429's Retry-After). */
  private pausedUntil = 0;
  /** The stretch the next lesson is drawn from: its first send, and how many sends it holds. */
  private stretchStart: number | undefined;
  private stretchSends = 0;
  /** Sends before this moment were made under an older budget: their 429s teach nothing new. */
  private lessonAt = Number.NEGATIVE_INFINITY;
  private readonly counts = { requests: 0, rateLimited: 0 };

  constructor(limit: PacerBudget = pacedBudget(SERVICE_LIMIT), now: () => number = wallClock) {
    this.now = now;
    this.budget = fitToLog(limit);
    this.sent = new Float64Array(PACER_LOG_SIZE);
  }

  /** The pacer's clock (send times and lessons are on it). */
  time(): number {
    return this.now();
  }

  get stats(): ServicePacerStats {
    return { ...this.counts, budget: { ...this.budget }, learned: this.learned };
  }

  /** How long requests are still held back by a 429's Retry-After, ms (0 when they are not). */
  pausedFor(at: number = this.now()): number {
    return Math.max(0, Math.ceil(this.pausedUntil - at));
  }

  /** How long a send now would wait for the budget, ms. */
  delay(at: number = this.now()): number {
    return Math.max(0, this.slot(at) - at);
  }

  /**
   * Takes the next free slot for one send and returns how long to wait for it, ms. Slots are handed out in
   * order, so callers waiting together go one budget's worth at a time, never all at once.
   */
  reserve(at: number = this.now()): number {
    return this.take(at).waitMs;
  }

  /** As reserve(), with the slot's place in the log, for due() and mark(). */
  take(at: number = this.now()): PacerTicket {
    const slot = this.slot(at);
    const index = this.head;
    const seq = this.taken;
    this.taken += 1;
    this.seqs[index] = seq;
    this.sent[this.head] = slot;
    this.head = (this.head + 1) % PACER_LOG_SIZE;
    this.stored = Math.min(PACER_LOG_SIZE, this.stored + 1);
    this.stretchStart ??= slot;
    this.stretchSends += 1;
    this.counts.requests += 1;
    return { waitMs: Math.max(0, Math.ceil(slot - at)), index, seq };
  }

  /**
   * How much longer a taken slot must wait, ms: the send `requests` back may since have been marked later
   * (its answer came late), and the budget may have tightened.
   */
  due(ticket: PacerTicket, at: number = this.now()): number {
    const { requests, periodMs } = this.budget;
    if (ticket.seq < requests || this.taken - ticket.seq > PACER_LOG_SIZE - requests) return 0;
    const earlier = this.sent[(ticket.index - requests + PACER_LOG_SIZE) % PACER_LOG_SIZE] as number;
    return Math.max(0, Math.ceil(earlier + periodMs - at), Math.ceil(this.pausedUntil - at));
  }

  /**
   * Moves a taken slot's send later in the log, to `at`: when it really went (a timer fires late on a busy
   * machine) and then when its answer came. The service received it before its answer came, so the sends a
   * period after that answer can never share a window with it, whatever the network's delays.
   */
  mark(ticket: PacerTicket, at: number = this.now()): void {
    if (this.seqs[ticket.index] !== ticket.seq) return;
    if (at > (this.sent[ticket.index] as number)) this.sent[ticket.index] = at;
  }

  /** A send made at `sentAt` was answered 429 (asking to wait `retryAfterMs`, when it said). */
  refused(sentAt: number, retryAfterMs: number | undefined, at: number = this.now()): void {
    this.counts.rateLimited += 1;
    const wait = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : DEFAULT_RETRY_AFTER_MS;
    this.pausedUntil = Math.max(this.pausedUntil, at + wait);
    // Sent before the last lesson (requests already in flight when it came): nothing new to learn.
    if (sentAt < this.lessonAt) return;
    let accepted = this.stretchSends - 1;
    let start = this.stretchStart ?? sentAt;
    if (sentAt - start > this.budget.periodMs) {
      // Paced for longer than a period: only the last period's sends say how much the service took.
      ({ accepted, start } = this.sendsBefore(sentAt, this.budget.periodMs));
    }
    this.stretchStart = undefined;
    this.stretchSends = 0;
    this.lessonAt = at;
    const current = this.budget;
    if (accepted < MIN_LESSON) {
      // Refused (almost) at once: the budget was used by someone else, or is smaller. Too little to measure.
      this.budget = tighten(current, wait);
      this.learned = true;
      return;
    }
    let requests = Math.max(1, accepted - Math.max(1, Math.ceil(accepted * 0.02)));
    let periodMs = windowEstimate(Math.max(0, sentAt - start), wait) + PACER_SLACK_MS;
    if (requests > PACER_LOG_SIZE) {
      periodMs = (periodMs * PACER_LOG_SIZE) / requests;
      requests = PACER_LOG_SIZE;
    }
    this.learned = true;
    if (requests / periodMs < current.requests / current.periodMs) {
      const burst = Math.min(requests, current.requests);
      this.budget = { requests: burst, periodMs: (periodMs * burst) / requests };
    } else {
      this.budget = tighten(current, wait);
    }
  }

  /** The sends in the `spanMs` before `at` (not the one at `at`), and the earliest of them. */
  private sendsBefore(at: number, spanMs: number): { accepted: number; start: number } {
    let accepted = 0;
    let start = at;
    for (let i = 1; i <= this.stored; i += 1) {
      const time = this.sent[(this.head - i + PACER_LOG_SIZE) % PACER_LOG_SIZE] as number;
      if (time >= at) continue;
      if (time <= at - spanMs) break;
      accepted += 1;
      start = time;
    }
    return { accepted, start };
  }

  /** The earliest moment from `at` on when one more send keeps to the budget. */
  private slot(at: number): number {
    const { requests, periodMs } = this.budget;
    let slot = Math.max(at, this.pausedUntil);
    if (this.stored > 0) slot = Math.max(slot, this.sent[(this.head - 1 + PACER_LOG_SIZE) % PACER_LOG_SIZE] as number);
    if (this.stored >= requests) {
      // The send `requests` back must be a whole period old before another may go.
      const index = (this.head - requests + PACER_LOG_SIZE) % PACER_LOG_SIZE;
      slot = Math.max(slot, (this.sent[index] as number) + periodMs);
    }
    return slot;
  }
}

function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

function fitToLog(budget: PacerBudget): PacerBudget {
  const requests = Math.max(1, Math.floor(budget.requests));
  const periodMs = Math.max(1, budget.periodMs);
  return requests > PACER_LOG_SIZE ? { requests: PACER_LOG_SIZE, periodMs: (periodMs * PACER_LOG_SIZE) / requests } : { requests, periodMs };
}

/**
 * The limit's window, from a stretch that took `elapsedMs` and the wait asked for at its end. The window
 * cannot be longer than both together. A Retry-After in whole seconds (as HTTP gives it) is rounded up, so
 * the window may be up to a second shorter: when the wait is whole seconds the window is taken to be whole
 * seconds too (1 s, 10 s, 60 s: how limits are stated), the one whole number of seconds in that last second.
 */
export function windowEstimate(elapsedMs: number, waitMs: number): number {
  const longest = elapsedMs + Math.max(waitMs, 1);
  if (waitMs < 1000 || waitMs % 1000 !== 0) return longest;
  return Math.floor(longest / 1000) * 1000;
}

/** A fifth fewer requests, and a period at least as long as the wait just asked for. */
function tighten(budget: PacerBudget, waitMs: number): PacerBudget {
  return { requests: Math.max(1, Math.floor(budget.requests * 0.8)), periodMs: Math.max(budget.periodMs, waitMs + PACER_SLACK_MS) };
}

// ---------------------------------------------------------------------------------------------------------
// Process-wide: one pacer and one ban per base URL, whatever the endpoint or API key (the limit may be per IP).

const pacers = new Map<string, ServicePacer>();
const bans = new Map<string, number>();

/** The pacer every client of this process shares for this base URL: every endpoint, every API key. */
export function servicePacer(baseUrl: string, limit: PacerBudget = SERVICE_LIMIT): ServicePacer {
  let pacer = pacers.get(baseUrl);
  if (!pacer) {
    pacer = new ServicePacer(pacedBudget(limit));
    pacers.set(baseUrl, pacer);
  }
  return pacer;
}

/** Records a ban of this base URL ending at `endsAt` (Unix ms); a later end wins over an earlier one. */
export function noteBan(baseUrl: string, endsAt: number): void {
  if (!Number.isFinite(endsAt)) return;
  bans.set(baseUrl, Math.max(bans.get(baseUrl) ?? 0, endsAt));
}

/** When the ban on this base URL ends (Unix ms), or undefined when none is in force at `now`. */
export function banEnd(baseUrl: string, now: number = Date.now()): number | undefined {
  const endsAt = bans.get(baseUrl);
  if (endsAt === undefined) return undefined;
  if (endsAt <= now) {
    bans.delete(baseUrl);
    return undefined;
  }
  return endsAt;
}
