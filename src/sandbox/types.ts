// The contract of the embedded sandbox: tests, the demo and the `sandbox` command all start it this way.

export type SandboxFault =
  | { kind: 'status'; status: number; code?: number; msg?: string } // JSON error envelope with that status
  | { kind: 'html'; status: number } // a non-JSON error page (as a proxy would send)
  | { kind: 'envelope'; status: number } // the other envelope: {"code":"0","message":"",...}
  | { kind: 'reset' } // destroy the socket before handling: nothing happened
  | { kind: 'reset-after-handling' } // handle the request (e.g. create the key), then destroy the socket
  | { kind: 'malformed' } // 200 with a body that is not valid JSON
  | { kind: 'wrong-shape' } // 200 with valid JSON of the wrong shape
  | { kind: 'rate-limit'; retryAfterSec: number } // 429 with Retry-After
  | { kind: 'delay'; ms: number } // answer normally after a delay
  | { kind: 'hold' } // answer normally once released (releaseHeld): a request in flight for as long as a test needs
  | { kind: 'reordered' }; // answer normally, a list's records in reverse order (a page served in another order than before)

export interface SandboxFaultRates {
  /** Added to every answer. */
  latencyMs?: number;
  /** Probability 0..1 of a 5xx answer. */
  errorRate?: number;
  /** Probability 0..1 of a connection reset. */
  resetRate?: number;
  /** Probability 0..1 of a malformed 200 body. */
  malformedRate?: number;
}

/** What the sandbox's signature check covers: 'query' (what the live service accepts), 'body' (query + body), or either. */
export type SandboxPostSignature = 'query' | 'body' | 'either';
export const SANDBOX_POST_SIGNATURES: readonly SandboxPostSignature[] = ['query', 'body', 'either'];

export interface SandboxOptions {
  host?: string; // default 127.0.0.1
  port?: number; // default 0 (any free port)
  seed?: number; // default 1
  apiKey?: string; // default derived from the seed
  secretKey?: string; // default derived from the seed
  apiKeyHeader?: string; // default X-MEXC-APIKEY
  /** Permissions of the master key; default all three operations' permissions. */
  permissions?: string[];
  /** What a signature must cover (a GET has no body, so any rule accepts it); default 'query'. */
  postSignature?: SandboxPostSignature;
  /** Transfers in the seeded history, 0 to MAX_SEEDED_TRANSFERS (4,000,000); default 24,000. */
  transfers?: number;
  /**
   * Requests per window for each API key, every endpoint together, before 429 + Retry-After; default the documented 500 per
   * 10,000 ms; false: no limit (benchmarks' baselines).
   */
  rateLimit?: { max: number; windowMs: number } | false;
  /**
   * The ban (418 + Retry-After) of a client that keeps sending while refused (rateLimit.ts); default: past
   * max(limit, 10) refusals of one key and endpoint in one window, for 120,000 ms. false: never.
   */
  ban?: { afterRefusals?: number; durationMs?: number } | false;
  /** Server clock minus real clock, ms (to test clock-offset handling). Default 0. */
  clockOffsetMs?: number;
  faults?: SandboxFaultRates;
  /** Moment (server-clock ms) the seeded history is laid out back from; default the demo clock when pinned,
   *  else the server clock at start. Fix it to get byte-identical data across runs. */
  dataAnchorMs?: number;
  /**
   * The pinned demo's clock, Unix ms (`--demo-clock`): the seeded data is laid out back from it (unless
   * dataAnchorMs), created keys are made at it and get counted, plainly fake keys and secrets
   * (`mx0vdemo…0001`, `demo…0001`; demoClock.ts). Request timestamps are still checked against the server
   * clock, so a client signing with its own clock is accepted as usual.
   */
  demoClockMs?: number;
}

export interface SandboxRequestRecord {
  method: string;
  /** The path as received, cut to 256 characters. */
  path: string;
  /** Raw query string, signature included, cut to 1024 characters (a signed query is under 400). */
  query: string;
  /** HTTP status answered; 0 while unanswered or when no answer was sent (a reset). */
  status: number;
  /** Arrival time, ms (real clock). */
  at: number;
  /** The path or query was longer than what is kept. */
  truncated?: true;
}

export interface RunningSandbox {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  apiKeyHeader: string;
  subAccounts: string[];
  /** Sub-accounts that exist but are forbidden: every operation on one answers 140002 (not in subAccounts). */
  frozenSubAccounts?: string[];
  /** Name the master account has in transfer records (fromAccount/toAccount). */
  masterAccount?: string;
  /** The requests received, in order: the most recent 10,000 that fit in 4 MiB (requestLog.ts). Requests
   *  Node's parser refuses (answered 400/408/431 in the envelope) never reach it. */
  requests(): readonly SandboxRequestRecord[];
  /** Faults applied to the next requests, one each, in order. */
  queueFaults(...faults: SandboxFault[]): void;
  /** Requests held by a `hold` fault and not yet released. */
  held(): number;
  /** Lets every held request be answered; returns how many were held. */
  releaseHeld(): number;
  setFaultRates(rates: SandboxFaultRates): void;
  setPermissions(permissions: string[]): void;
  close(): Promise<void>;
}
