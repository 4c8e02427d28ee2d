// The embedded sandbox: routing, lifecycle and the order of checks; data, auth and faults live beside it.
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_API_KEY_HEADER } from '../api/signing';
import { OPERATION_PERMISSIONS } from '../api/types';
import { checkApiKey, checkPermission, verifySignedRequest, type AuthConfig } from './auth';
import { ERR, type ErrorSpec, SandboxHttpError, envelope } from './errors';
import { createFaultPlan, faultReply } from './faults';
import { demoKey } from './demoClock';
import { createKey, listKeys, randomKey, type KeyMaker } from './handlers/keys';
import { listTransfers } from './handlers/transfers';
import { createRateLimiter, DEFAULT_RATE_LIMIT } from './rateLimit';
import { errorReply, rawJsonReply, type Reply } from './reply';
import { createRequestLog } from './requestLog';
import { route, type OperationName } from './routes';
import { MAX_SEEDED_TRANSFERS, SEEDED_TRANSFER_COUNT } from './seedTransfers';
import { createState, type SandboxState } from './state';
import type { RunningSandbox, SandboxOptions } from './types';

const MAX_BODY_BYTES = 64 * 1024;
/** A request body must have arrived this long after the headers, or the answer is 408 and the socket closes. */
export const BODY_DEADLINE_MS = 2000;
/** Headers must be complete this long after the request began (Node's headersTimeout). */
const HEADERS_DEADLINE_MS = 2000;
/** Node's own bound on a whole request, a backstop behind BODY_DEADLINE_MS (checked every 250 ms). */
const REQUEST_DEADLINE_MS = 3000;
/** A timestamp may lead the server clock by at most this much (docs/design.md, signing). */
const MAX_AHEAD_MS = 1000;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? 1;
  const clockOffsetMs = options.clockOffsetMs ?? 0;
  const now = (): number => Date.now() + clockOffsetMs;
  // A bad count fails here, before anything listens (the history itself is laid out on first use).
  const transfers = options.transfers ?? SEEDED_TRANSFER_COUNT;
  if (!Number.isSafeInteger(transfers) || transfers < 0 || transfers > MAX_SEEDED_TRANSFERS) {
    throw new RangeError(`transfers: must be a whole number from 0 to ${MAX_SEEDED_TRANSFERS} (got ${transfers})`);
  }
  // The pinned demo (demoClock.ts): data, created keys' times and their keys follow the pin; the checks of
  // request timestamps, the Date header and the rate limits keep the real clock (the one clients sign with).
  const pinned = options.demoClockMs;
  const state = createState(seed, options.dataAnchorMs ?? pinned ?? now(), transfers);
  let created = 0;
  const makeKey: KeyMaker = pinned === undefined ? randomKey : () => demoKey(++created);
  const keyTime = (): number => pinned ?? now();
  const auth: AuthConfig = {
    apiKey: options.apiKey ?? state.master.apiKey,
    secretKey: options.secretKey ?? state.master.secretKey,
    apiKeyHeader: options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER,
    postSignature: options.postSignature ?? 'query',
    maxAheadMs: MAX_AHEAD_MS,
  };
  let permissions: ReadonlySet<string> = new Set(options.permissions ?? Object.values(OPERATION_PERMISSIONS));
  const limiter = createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, options.ban ?? {});
  const faults = createFaultPlan(seed, options.faults);
  const log = createRequestLog();
  const sleepers = new Set<() => void>();
  let closed = false;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  // Requests held by a `hold` fault: answered when the test releases them (or the sandbox closes).
  const held = new Set<() => void>();
  const hold = (): Promise<void> =>
    new Promise((resolve) => {
      const release = (): void => {
        held.delete(release);
        resolve();
      };
      held.add(release);
    });

  /** Runs the checks in the service's order and the operation; every failure becomes the envelope. */
  const handle = async (req: IncomingMessage, path: string, rawQuery: string, body: Promise<string>): Promise<Reply> => {
    try {
      // A ban is of the client's address: it answers everything, before any other check.
      const address = req.socket.remoteAddress ?? '';
      limiter.checkBan(address, Date.now());
      const match = route(req.method ?? 'GET', path);
      if (match.kind === 'not-found') throw new SandboxHttpError(ERR.notFound, `(${path})`);
      if (match.kind === 'wrong-method') {
        throw new SandboxHttpError(ERR.methodNotAllowed, `(${req.method ?? ''})`, { Allow: match.allow.join(', ') });
      }
      // The service refuses a POST not marked as JSON (docs/live-service.md, where parameters go).
      if (req.method === 'POST' && !isJson(req.headers['content-type'])) throw new SandboxHttpError(ERR.invalidContentType);
      const apiKey = checkApiKey(req.headers, auth);
      limiter.hit(apiKey, address, Date.now());
      const rawBody = await body;
      const params = verifySignedRequest(rawQuery, rawBody, now(), auth);
      checkPermission(permissions, OPERATION_PERMISSIONS[match.operation]);
      return runOperation(match.operation, state, params, rawBody, keyTime(), makeKey);
    } catch (error) {
      if (error instanceof SandboxHttpError) return errorReply(error);
      return rawJsonReply(500, JSON.stringify({ code: 500, msg: 'Internal error in the sandbox' }));
    }
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const entry = log.start(req.method ?? '', path, rawQuery);
    // The body is read from arrival on, with its deadline, whatever the faults and checks do before using it.
    const body = readBody(req, BODY_DEADLINE_MS);
    body.catch(() => undefined);
    const { fault, latencyMs } = faults.next();
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (latencyMs > 0) await sleep(latencyMs);
    if (fault?.kind === 'delay') await sleep(fault.ms);
    if (fault?.kind === 'hold') await hold();
    const canned = fault ? faultReply(fault, path) : undefined;
    let reply = canned ?? (await handle(req, path, rawQuery, body));
    if (fault?.kind === 'reordered') reply = reordered(reply);
    if (closed || res.destroyed) return;
    if (fault?.kind === 'reset-after-handling') {
      req.socket.destroy();
      return;
    }
    entry.status = reply.status;
    // Answered before the whole request came (an early refusal of the key, a 404 or a 429, or the body's deadline): the connection
    // cannot be reused, so it closes after this answer instead of waiting for the rest.
    const close: Record<string, string> = req.complete ? {} : { Connection: 'close' };
    res.writeHead(reply.status, { ...reply.headers, ...close, Date: new Date(now()).toUTCString() });
    res.end(reply.body);
  };

  const server = createServer({ headersTimeout: HEADERS_DEADLINE_MS, requestTimeout: REQUEST_DEADLINE_MS, connectionsCheckingInterval: 250 }, (req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
  // What Node's parser refuses (garbage, a bad method, Content-Length with Transfer-Encoding, a 1 MB request
  // line) and requests that never finish arriving get the service's envelope too, then the socket closes.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, now()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    baseUrl: `http://${host}:${address.port}`,
    apiKey: auth.apiKey,
    secretKey: auth.secretKey,
    apiKeyHeader: auth.apiKeyHeader,
    subAccounts: [...state.subAccounts.keys()],
    frozenSubAccounts: [...state.frozenSubAccounts],
    masterAccount: state.master.name,
    requests: () => log.snapshot(),
    queueFaults: (...queued) => faults.queue(queued),
    held: () => held.size,
    releaseHeld: () => {
      const releases = [...held];
      for (const release of releases) release();
      return releases.length;
    },
    setFaultRates: (rates) => faults.setRates(rates),
    setPermissions: (next) => {
      permissions = new Set(next);
    },
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      for (const wake of [...sleepers, ...held]) wake();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function runOperation(operation: OperationName, state: SandboxState, params: URLSearchParams, rawBody: string, now: number, makeKey: KeyMaker): Reply {
  switch (operation) {
    case 'listSubAccountKeys':
      return listKeys(state, params);
    case 'createSubAccountKey':
      return createKey(state, rawBody, now, makeKey);
    case 'listUniversalTransfers':
      return listTransfers(state, params);
  }
}

/** The raw body as text: 413 past MAX_BODY_BYTES, 408 when it has not all come within `deadlineMs`. */
function readBody(req: IncomingMessage, deadlineMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: Error): void => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      req.resume();
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(new SandboxHttpError(ERR.requestTimeout, `(the body did not arrive within ${deadlineMs / 1000} s)`, { Connection: 'close' }));
    }, deadlineMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        fail(new SandboxHttpError(ERR.bodyTooLarge));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', fail);
    // A socket gone before the end: no 'end' will come (a rejection after a resolve changes nothing).
    req.on('close', () => fail(new Error('the request was closed before its body ended')));
  });
}

/** Parser-level errors, in the envelope as a raw HTTP/1.1 answer (there is no response object), then close. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, now: number): void {
  const code = error.code ?? '';
  const response = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (code === 'ECONNRESET' || code === 'EPIPE' || !socket.writable || response?.headersSent === true) {
    socket.destroy();
    return;
  }
  const spec: ErrorSpec = code === 'HPE_HEADER_OVERFLOW' ? ERR.headersTooLarge : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? ERR.requestTimeout : ERR.badRequest;
  const body = envelope(spec.code, code === '' ? spec.msg : `${spec.msg} (${code})`);
  const head = [
    `HTTP/1.1 ${spec.status} ${STATUS_CODES[spec.status] ?? 'Error'}`,
    'Content-Type: application/json;charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Date: ${new Date(now).toUTCString()}`,
    'Connection: close',
  ].join('\r\n');
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.end(`${head}\r\n\r\n${body}`, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

/** A successful list answer (a JSON array) with its records in reverse order; anything else as it was. */
function reordered(reply: Reply): Reply {
  if (reply.status !== 200) return reply;
  try {
    const value: unknown = JSON.parse(reply.body);
    return Array.isArray(value) ? { ...reply, body: JSON.stringify(value.reverse()) } : reply;
  } catch {
    return reply;
  }
}

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
