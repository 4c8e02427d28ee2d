// The embedded sandbox: routing, lifecycle and the order of checks; data, auth and faults live beside it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_API_KEY_HEADER } from '../api/signing';
import { OPERATION_PERMISSIONS } from '../api/types';
import { checkApiKey, checkPermission, verifySignedRequest, type AuthConfig } from './auth';
import { ERR, SandboxHttpError } from './errors';
import { createFaultPlan, faultReply } from './faults';
import { createKey, listKeys } from './handlers/keys';
import { listTransfers } from './handlers/transfers';
import { createRateLimiter, DEFAULT_RATE_LIMIT } from './rateLimit';
import { errorReply, rawJsonReply, type Reply } from './reply';
import { createRequestLog } from './requestLog';
import { route, type OperationName } from './routes';
import { createState, type SandboxState } from './state';
import type { RunningSandbox, SandboxOptions } from './types';

const MAX_BODY_BYTES = 64 * 1024;
/** A timestamp may lead the server clock by at most this much (DESIGN §4). */
const MAX_AHEAD_MS = 1000;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? 1;
  const clockOffsetMs = options.clockOffsetMs ?? 0;
  const now = (): number => Date.now() + clockOffsetMs;
  const state = createState(seed, options.dataAnchorMs ?? now());
  const auth: AuthConfig = {
    apiKey: options.apiKey ?? state.master.apiKey,
    secretKey: options.secretKey ?? state.master.secretKey,
    apiKeyHeader: options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER,
    signBody: options.signBody ?? true,
    maxAheadMs: MAX_AHEAD_MS,
  };
  let permissions: ReadonlySet<string> = new Set(options.permissions ?? Object.values(OPERATION_PERMISSIONS));
  const limiter = createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
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

  /** Runs the checks in the service's order and the operation; every failure becomes the envelope. */
  const handle = async (req: IncomingMessage, path: string, rawQuery: string): Promise<Reply> => {
    try {
      const match = route(req.method ?? 'GET', path);
      if (match.kind === 'not-found') throw new SandboxHttpError(ERR.notFound, `(${path})`);
      if (match.kind === 'wrong-method') {
        throw new SandboxHttpError(ERR.methodNotAllowed, `(${req.method ?? ''})`, { Allow: match.allow.join(', ') });
      }
      const apiKey = checkApiKey(req.headers, auth);
      limiter.hit(apiKey, Date.now());
      const rawBody = await readBody(req);
      const params = verifySignedRequest(rawQuery, rawBody, now(), auth);
      checkPermission(permissions, OPERATION_PERMISSIONS[match.operation]);
      return runOperation(match.operation, state, params, rawBody, req.headers['content-type'], now());
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
    const { fault, latencyMs } = faults.next();
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (latencyMs > 0) await sleep(latencyMs);
    if (fault?.kind === 'delay') await sleep(fault.ms);
    const canned = fault ? faultReply(fault, path) : undefined;
    const reply = canned ?? (await handle(req, path, rawQuery));
    if (closed || res.destroyed) return;
    if (fault?.kind === 'reset-after-handling') {
      req.socket.destroy();
      return;
    }
    entry.status = reply.status;
    res.writeHead(reply.status, { ...reply.headers, Date: new Date(now()).toUTCString() });
    res.end(reply.body);
  };

  const server = createServer((req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
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
    masterAccount: state.master.name,
    requests: () => log.snapshot(),
    queueFaults: (...queued) => faults.queue(queued),
    setFaultRates: (rates) => faults.setRates(rates),
    setPermissions: (next) => {
      permissions = new Set(next);
    },
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      for (const wake of [...sleepers]) wake();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function runOperation(
  operation: OperationName,
  state: SandboxState,
  params: URLSearchParams,
  rawBody: string,
  contentType: string | undefined,
  now: number,
): Reply {
  switch (operation) {
    case 'listSubAccountKeys':
      return listKeys(state, params);
    case 'createSubAccountKey':
      return createKey(state, rawBody, contentType, now);
    case 'listUniversalTransfers':
      return listTransfers(state, params);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new SandboxHttpError(ERR.bodyTooLarge));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
