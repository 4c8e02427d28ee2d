// One error type for every failure of a request, with a one-line text an operator can act on.

export type BrokerErrorKind =
  | 'service' // the service answered with an error (HTTP status and, when given, its code and message)
  | 'network' // the connection failed or was reset before an answer
  | 'timeout' // no answer within the per-request timeout
  | 'aborted' // cancelled by the caller (screen left, Ctrl-C)
  | 'malformed' // an answer came but is not what the operation returns
  | 'outcome-unknown'; // a POST was sent and its answer never came: it may or may not have taken effect

export interface BrokerErrorDetails {
  kind: BrokerErrorKind;
  operation: string;
  status?: number;
  code?: number | string;
  serviceMessage?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

export class BrokerError extends Error {
  readonly kind: BrokerErrorKind;
  readonly operation: string;
  readonly status?: number;
  readonly code?: number | string;
  readonly serviceMessage?: string;
  readonly retryAfterMs?: number;

  constructor(details: BrokerErrorDetails) {
    super(describe(details), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'BrokerError';
    this.kind = details.kind;
    this.operation = details.operation;
    this.status = details.status;
    this.code = details.code;
    this.serviceMessage = details.serviceMessage;
    this.retryAfterMs = details.retryAfterMs;
  }

  /** The one line shown in the status bar or on stderr. */
  toLine(): string {
    return this.message;
  }
}

const HINTS: Record<string, string> = {
  '700002': 'check the API secret (and the profile signing option)',
  '700003': 'check the computer clock, or raise --recv-window',
  '700005': 'recvWindow must be at most 60000 ms',
  '700007': 'the master key lacks the permission for this operation',
  '10072': 'check the API key',
  '429': 'rate limited: wait and try again',
};

function describe(d: BrokerErrorDetails): string {
  switch (d.kind) {
    case 'service': {
      const codePart = d.code !== undefined && d.code !== '' ? ` code ${d.code}` : '';
      const msgPart = d.serviceMessage ? `: ${oneLine(d.serviceMessage)}` : '';
      const retryIn = d.retryAfterMs !== undefined && d.retryAfterMs > 0 ? `rate limited: try again in ${Math.ceil(d.retryAfterMs / 1000)} s` : undefined;
      const hint = (d.status === 429 ? retryIn : undefined) ?? HINTS[String(d.code)] ?? (d.status === 429 ? HINTS['429'] : undefined);
      return `${d.operation} failed (HTTP ${d.status ?? '?'}${codePart})${msgPart}${hint ? ` — ${hint}` : ''}`;
    }
    case 'network':
      return `${d.operation} failed: could not reach the service (${oneLine(causeText(d.cause))}) — check the base URL and the network`;
    case 'timeout':
      return `${d.operation} timed out — the service did not answer in time; try again or raise --timeout`;
    case 'aborted':
      return `${d.operation} was cancelled`;
    case 'malformed':
      return `${d.operation} got an unexpected answer from the service${d.serviceMessage ? ` (${oneLine(d.serviceMessage)})` : ''}`;
    case 'outcome-unknown':
      return `${d.operation}: the request was sent but no answer came — it may have taken effect; check before sending it again`;
  }
}

function causeText(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? code : cause.message;
  }
  return 'unknown error';
}

/** Keeps error text to one short line: service messages and HTML pages can be long. */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
