// Talks to a running sandbox over a real socket, signing the way the client does (src/api/signing.ts).
import { request } from 'undici';
import { type PostSignatureRule, signQuery, type QueryParams } from '../../src/api/signing';
import type { TestContext } from 'vitest';
import type { WireTransfer } from '../../src/sandbox/model';
import { startSandbox } from '../../src/sandbox/server';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types';
import { ownLoopbackHost } from '../loopbackHost';

export const KEYS_PATH = '/api/v3/broker/sub-account/apiKey';
export const TRANSFERS_PATH = '/api/v3/broker/sub-account/universalTransfer';

export interface CallInput {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: QueryParams;
  /** JSON-encoded when an object. */
  body?: Record<string, unknown> | string;
  apiKey?: string | null;
  secret?: string;
  timestamp?: number;
  recvWindow?: number;
  /** What the signature covers (default the query alone, as the default sandbox checks). */
  rule?: PostSignatureRule;
  /** Last chance to change the signed query (to test tampering). */
  tamperQuery?: (query: string) => string;
  /** Sent instead of the signed body (to test tampering). */
  sendBody?: string;
  headers?: Record<string, string>;
  /** Sends a body with no Content-Type at all (else application/json unless `headers` names one). */
  noContentType?: boolean;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

export async function call(sandbox: RunningSandbox, input: CallInput): Promise<CallResult> {
  const body = input.body === undefined ? '' : typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
  let query = signQuery({
    params: input.params ?? [],
    recvWindow: input.recvWindow ?? 5000,
    timestamp: input.timestamp ?? Date.now(),
    body,
    secret: input.secret ?? sandbox.secretKey,
    rule: input.rule ?? 'query',
  });
  if (input.tamperQuery) query = input.tamperQuery(query);
  const headers: Record<string, string> = { ...input.headers };
  if (input.apiKey !== null) headers[sandbox.apiKeyHeader] = input.apiKey ?? sandbox.apiKey;
  const sent = input.sendBody ?? body;
  if (sent !== '' && input.noContentType !== true) headers['content-type'] ??= 'application/json';
  const res = await request(`${sandbox.baseUrl}${input.path}?${query}`, {
    method: input.method ?? 'GET',
    headers,
    body: sent === '' ? undefined : sent,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

export function listKeys(sandbox: RunningSandbox, subAccount: string, extra: Partial<CallInput> = {}): Promise<CallResult> {
  return call(sandbox, { path: KEYS_PATH, params: [['subAccount', subAccount]], ...extra });
}

export function createKey(sandbox: RunningSandbox, body: Record<string, unknown>, extra: Partial<CallInput> = {}): Promise<CallResult> {
  return call(sandbox, { method: 'POST', path: KEYS_PATH, body, ...extra });
}

export function listTransfers(sandbox: RunningSandbox, params: QueryParams, extra: Partial<CallInput> = {}): Promise<CallResult> {
  return call(sandbox, { path: TRANSFERS_PATH, params, ...extra });
}

/** A transfer as the sandbox sends it. */
export type WireTransferRow = WireTransfer;

export function rows(result: CallResult): WireTransferRow[] {
  if (!Array.isArray(result.json)) throw new Error(`expected an array, got ${result.text.slice(0, 200)}`);
  return result.json as WireTransferRow[];
}

export function errorCode(result: CallResult): number | undefined {
  const json = result.json as { code?: unknown } | undefined;
  return typeof json?.code === 'number' ? json.code : undefined;
}

/** A test's own cleanup (the test context's onTestFinished): with tests running at the same time, a shared variable would be closed by another's end. */
export type OnFinished = TestContext['onTestFinished'];

/**
 * The sandbox every test starts: on a loopback host of its own, so what the client keeps per base URL for the
 * process (a pace a 429 slowed, a Retry-After wait, a ban) never reaches a later server on a port this one had.
 */
export function ownSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ host: ownLoopbackHost(), ...options });
}

/** A sandbox of the test's own (tests that count its requests or queue faults on it, running at the same time), closed as the test ends. */
export async function sandboxFor(onTestFinished: OnFinished, options: SandboxOptions = {}): Promise<RunningSandbox> {
  const own = await ownSandbox(options);
  onTestFinished(() => own.close());
  return own;
}
