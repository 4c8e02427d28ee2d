// The contract between api/ and its callers (commands, ui). Implemented by createBrokerApi in operations.ts.
import type { PostSignature, PostSignatureRule } from './signing';
import type { ProxyChoice } from './proxy';
import type { BrokerError } from './errors';
import type { CreatedKey, NewKeyRequest, SubAccountKey, Transfer, TransferQuery } from './types';

export interface ClientConfig {
  baseUrl: string;
  apiKey: string;
  /** Held only in memory by the client; never logged, never in an error. */
  secretKey: string;
  /** Header carrying the API key; default X-MEXC-APIKEY. */
  apiKeyHeader?: string;
  /** Default 5000 ms, at most 60000. */
  recvWindow?: number;
  /** Per-request timeout; default 10000 ms. */
  timeoutMs?: number;
  /**
   * What a create's signature covers (signing.ts): 'auto' (default) sends the remembered rule or the query
   * alone first and, on a 700002, resends once by the other rule; 'query' or 'body' pins one rule.
   */
  postSignature?: PostSignature;
  /** Under 'auto': the rule last accepted at this base URL (config/postSignatures.ts), tried first. */
  rememberedPostSignature?: PostSignatureRule;
  /** Under 'auto': told the rule of each create whose answer got past the signature check, to keep for the next run. */
  onPostSignature?: (rule: PostSignatureRule) => void;
  /** Tries in all for a GET, first included; default 3. POSTs are never retried. */
  maxTries?: number;
  /** First backoff delay; doubles each retry (jittered), capped. Default 250 ms. */
  retryBaseDelayMs?: number;
  /**
   * The longest Retry-After a GET waits out on its own before trying again; a longer one fails at once,
   * saying when to try again. Default RETRY_AFTER_CAP_MS (10 s); tests set it lower.
   */
  retryAfterCapMs?: number;
  /**
   * Server-minus-local clock offset to start with (ms), e.g. the one measured by the last run against this
   * base URL (config/clockOffsets.ts). Default 0. The client re-measures it from the service's answers.
   */
  initialClockOffsetMs?: number;
  /** Called after every HTTP exchange (each try), for the status bar and logs. Never sees secrets. */
  onExchange?: (exchange: ExchangeInfo) => void;
  /**
   * Told when a request waits before it goes (the next try after a Retry-After or a backoff, or the service's
   * budget): the operation and when it goes (Unix ms), for the status bar.
   */
  onWaiting?: (wait: { operation: string; untilMs: number }) => void;
  /** The proxy to go through (chooseProxy in proxy.ts: --proxy, the profile, the environment); direct without it. */
  proxy?: ProxyChoice;
  /**
   * The limit the requests to this base URL keep to, all endpoints and API keys together (the client sends at
   * PACING_SHARE of it, from the first request); default SERVICE_LIMIT, 20 a second. Benchmarks and tests set their own.
   */
  serviceLimit?: { requests: number; periodMs: number };
  /** The end (Unix ms) of a ban of this base URL remembered from an earlier run (config/bans.ts). */
  banEndsAt?: number;
  /** Told when the service bans this IP (HTTP 418), with the ban's end (Unix ms): to keep it for the next run. */
  onBan?: (endsAt: number) => void;
  /** Local clock; tests may replace it. */
  now?: () => number;
}

export interface ExchangeInfo {
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  /** HTTP status, or undefined when no answer came. */
  status?: number;
  ok: boolean;
  /** The caller gave up on it (an export cancelled, a screen left): not a failure of the service. */
  cancelled?: boolean;
  latencyMs: number;
  attempt: number;
  /** The wait the answer asked for (its Retry-After header, e.g. on a 429), when it gave a readable one. */
  retryAfterMs?: number;
  /** A POST: what its signature covered (the query alone, or query + body). */
  postSignature?: PostSignatureRule;
  /** The proxy it went through, without its password; undefined when direct. */
  proxy?: string;
  /** How long this try waited for the service's budget before it went, ms (when it waited). */
  pacedMs?: number;
  /** A ban of this IP is in force until then (Unix ms): set on the 418 that began it and on a request held back by it. */
  banEndsAt?: number;
  /** Held back by a ban: nothing was sent. */
  notSent?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Called after each HTTP exchange of this call (every try, the client's own retries included), after the
   * client's onExchange: what a caller pacing its requests (an export's page loop) learns from. Never sees secrets.
   */
  onExchange?: (exchange: ExchangeInfo) => void;
  /** Told, before it waits, how long this call's request waits for the service's budget, ms. */
  onWait?: (ms: number) => void;
  /** Told as a try's first bytes go out (undici's sendHeaders): from then on the service may have the request. */
  onSending?: () => void;
}

export interface BrokerApi {
  listSubAccountKeys(subAccount: string, options?: CallOptions): Promise<SubAccountKey[]>;
  createSubAccountKey(request: NewKeyRequest, options?: CallOptions): Promise<CreatedKey>;
  listUniversalTransfers(query: TransferQuery, options?: CallOptions): Promise<Transfer[]>;
  /** Current estimated server-minus-local clock offset in ms (0 until measured beyond 1 s). */
  clockOffsetMs(): number;
  /**
   * Reports, through onExchange, each request that has left and has no answer yet as cut short (cancelled), once:
   * a process about to end on a signal still logs what it sent.
   */
  reportCutShort(): void;
  /**
   * Why a request of this operation would not be sent now (the service banned this IP, or asked for a wait longer
   * than a request waits), said as the error it would fail with; undefined when it would go.
   */
  heldBack(operation: 'listSubAccountKeys' | 'createSubAccountKey' | 'listUniversalTransfers'): BrokerError | undefined;
  close(): Promise<void>;
}
