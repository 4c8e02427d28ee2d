// The fault matrix: small hostile servers (node:http and node:net on loopback) meet the real commands.
// Each row runs `keys list`, `keys create` or `transfers` in-process with the client's real retry policy
// (3 tries for a GET, one for a POST) and asserts the exit code, the one error line, and how many requests
// of each method the server saw. A short --timeout (400 ms) keeps the deadline rows quick; Retry-After uses
// the real cap (10 s), so 11 and 100000 must give up at once.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, type Server as NetServer, type Socket, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExpectStatic, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysAudit } from '../../src/commands/keysAudit';
import { runKeysList } from '../../src/commands/keysList';
import { runTransfers } from '../../src/commands/transfers';
import { readAuditTrail } from '../../src/config/auditTrail';
import { type TestContext, buildCli, runBuiltCli, testContext } from '../commands/helpers';
import { ownLoopbackHost } from '../loopbackHost';
import { type OnFinished, sandboxFor } from '../sandbox/helpers';
import { type TestCertificates, makeCertificates, silentTcp, testProxy, tlsFront } from './networkServers';

/** 250,000 rows, built before any test: the server must answer at once, not spend the client's deadline building it. */
const HUGE_PAGE = `[${Array.from({ length: 250_000 }, (_, i) => `{"tranId":"${i}","asset":"A","amount":"1","fromAccountType":"SPOT","toAccountType":"FUTURE","status":"SUCCESS","timestamp":1}`).join(',')}]`;
const hugePage = (): string => HUGE_PAGE;

const API_KEY = 'mx0vFAULTMATRIXKEY';
const TIMEOUT_MS = 400;

// ---------------------------------------------------------------------------------------------------------
// Hostile servers

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

interface Hostile {
  baseUrl: string;
  /** Requests seen, by method. */
  seen: { GET: number; POST: number; other: number };
  /** The API-key header of every request seen. */
  keys: (string | undefined)[];
  handler: Handler;
  close(): Promise<void>;
}

async function hostile(onFinished: OnFinished, handler: Handler): Promise<Hostile> {
  const state = { seen: { GET: 0, POST: 0, other: 0 }, keys: [] as (string | undefined)[], handler };
  const server: Server = createServer((req, res) => {
    const method = req.method === 'GET' || req.method === 'POST' ? req.method : 'other';
    state.seen[method] += 1;
    const key = req.headers['x-mexc-apikey'];
    state.keys.push(Array.isArray(key) ? key[0] : key);
    // Writes to a client that left are not this test's concern.
    res.on('error', () => undefined);
    req.socket.on('error', () => undefined);
    req.resume();
    state.handler(req, res, state.seen.GET + state.seen.POST + state.seen.other);
  });
  // A host of its own: a ban (HTTP 418) this server answers with stays in this process, kept for its base URL.
  const host = ownLoopbackHost();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const h: Hostile = Object.assign(state, {
    baseUrl: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  onFinished(() => h.close());
  return h;
}

/** A raw TCP server (for answers node:http would not send): counts connections and what arrived. */
async function rawServer(onSocket: (socket: Socket) => void): Promise<{ baseUrl: string; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
};

/** Writes `chunk` for as long as the client reads, honouring backpressure (an endless body). */
function endless(res: ServerResponse, chunk: Buffer, headers: Record<string, string | number> = {}): void {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  const pump = (): void => {
    while (!res.destroyed && !res.writableEnded && res.write(chunk));
  };
  res.on('drain', pump);
  pump();
}

/** One byte every `everyMs`, forever: a body that dribbles. */
function dribble(res: ServerResponse, everyMs = 50): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => {
    if (res.destroyed) clearInterval(timer);
    else res.write(' ');
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

const never: Handler = () => undefined;
const resetNow: Handler = (req) => req.socket.destroy();

const KEYS = { subAccount: [{ note: 'n', apiKey: 'mx0vlisted', permissions: 'SPOT_ACCOUNT_READ', ip: '', creatTime: 1_763_726_400_000 }] };
const CREATED = {
  subAccount: 'desk',
  note: 'n',
  apiKey: 'mx0vnewkey',
  secretKey: 'THE-NEW-SECRET-abc123',
  permissions: 'SPOT_ACCOUNT_READ',
  createTime: 1_763_726_400_000,
};

function transfer(i: number, amount = '1.5'): Record<string, unknown> {
  return {
    tranId: String(i),
    fromAccount: '',
    toAccount: 'desk',
    clientTranId: '',
    asset: 'USDT',
    amount,
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: 1_763_726_400_000 + i,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Running a command

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** The "error: …" lines on stderr. */
  errors: string[];
  ms: number;
  /** The tries the client made, by method, as its onExchange saw them. */
  tries: { GET: number; POST: number };
  /** The run's config folder (its audit trail). */
  folder: string;
}

let home: string;
let runs = 0;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'bc-fault-matrix-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

function context(
  baseUrl: string,
  env: Record<string, string> = {},
  client: Record<string, unknown> = {},
  timeoutMs = TIMEOUT_MS,
  tries = { GET: 0, POST: 0 },
  folder = join(home, `config-${(runs += 1)}`),
): TestContext {
  return testContext(
    undefined,
    {
      env: { BROKER_BASE_URL: baseUrl, BROKER_API_KEY: API_KEY, BROKER_API_SECRET: 'fault-matrix-secret', ...env },
      // The real retry policy (3 tries for a GET), with a short backoff so the matrix stays quick.
      createApi: (config) =>
        createBrokerApi({
          ...config,
          retryBaseDelayMs: 20,
          ...client,
          onExchange: (exchange) => {
            tries[exchange.method] += 1;
            config.onExchange?.(exchange);
          },
        }),
      // A folder of its own for each run: a clock offset one row remembers never meets another row's server.
      configFolder: folder,
    },
    { timeoutMs },
  );
}

type Command = 'list' | 'create' | 'transfers';

async function run(
  command: Command,
  baseUrl: string,
  env: Record<string, string> = {},
  client: Record<string, unknown> = {},
  timeoutMs = TIMEOUT_MS,
): Promise<Ran> {
  const tries = { GET: 0, POST: 0 };
  const folder = join(home, `config-${(runs += 1)}`);
  const { ctx, out, err } = context(baseUrl, env, client, timeoutMs, tries, folder);
  const started = performance.now();
  const code =
    command === 'list'
      ? await runKeysList({ sub: 'desk' }, ctx)
      : command === 'create'
        ? await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'fault matrix' }, ctx)
        : await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format: 'csv' }, ctx);
  const stderr = err.text();
  return {
    code,
    stdout: out.text(),
    stderr,
    errors: stderr.split('\n').filter((l) => l.startsWith('error: ')),
    ms: performance.now() - started,
    tries,
    folder,
  };
}

/** The port of a server that was started and closed: nothing listens there. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

// ---------------------------------------------------------------------------------------------------------
// The matrix: [case, command, handler, exit code, error line, GETs seen, POSTs seen]

interface Row {
  name: string;
  command: Command;
  handler: Handler;
  code: number;
  line: RegExp;
  gets: number;
  posts: number;
  /** The run must end within this (ms). */
  within?: number;
  /** --timeout for this row (default 400 ms): rows about size get room, so a loaded machine cannot turn them into deadline rows. */
  timeoutMs?: number;
  /** Pushes megabytes through this process: run after the other rows, not beside them (their deadline is 400 ms). */
  alone?: boolean;
}

const MiB = 1024 * 1024;

const ROWS: Row[] = [
  // Connections broken at every point.
  {
    name: 'reset before the answer (GET: retried)',
    command: 'list',
    handler: resetNow,
    code: EXIT.failure,
    line: /^error: list keys failed: the connection closed before an answer came \(.+\) — try again$/,
    gets: 3,
    posts: 0,
  },
  {
    name: 'reset before the answer (POST: unknown)',
    command: 'create',
    handler: resetNow,
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the request was sent but no answer came \(.+\) — it may have taken effect/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'reset right after a whole answer (GET)',
    command: 'list',
    handler: (req, res) => {
      const text = JSON.stringify(KEYS);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text, () => req.socket.destroy());
    },
    code: EXIT.ok,
    line: /^$/,
    gets: 1,
    posts: 0,
  },
  {
    name: 'reset right after a whole answer (POST: the key is shown)',
    command: 'create',
    handler: (req, res) => {
      const text = JSON.stringify(CREATED);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text, () => req.socket.destroy());
    },
    code: EXIT.ok,
    line: /^$/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'reset in the middle of the answer (GET: retried)',
    command: 'list',
    handler: (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 5000 });
      res.write('{"subAccount":[', () => setTimeout(() => req.socket.destroy(), 20));
    },
    code: EXIT.failure,
    line: /^error: list keys failed: the connection broke while the answer was arriving \(.+\) — try again$/,
    gets: 3,
    posts: 0,
  },
  {
    name: 'reset in the middle of the answer (POST: unknown, status said)',
    command: 'create',
    handler: (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 5000 });
      res.write('{"apiKey":"mx0v', () => setTimeout(() => req.socket.destroy(), 20));
    },
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: the connection broke while it was arriving/,
    gets: 0,
    posts: 1,
  },

  // Deadlines: headers late, a body that dribbles.
  {
    name: 'headers later than the timeout (GET: retried)',
    command: 'list',
    handler: never,
    code: EXIT.failure,
    line: /^error: list keys failed: no answer within 0\.4 s, on each of 3 tries — try again or raise --timeout$/,
    gets: 3,
    posts: 0,
    within: 3_000,
  },
  {
    name: 'headers later than the timeout (POST: unknown)',
    command: 'create',
    handler: never,
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the request was sent but no answer came \(no answer within 0\.4 s\)/,
    gets: 0,
    posts: 1,
    within: 1_500,
  },
  {
    name: 'a body that dribbles (GET: retried, each try within its deadline)',
    command: 'list',
    handler: (_req, res) => dribble(res),
    code: EXIT.failure,
    line: /^error: list keys failed: the answer did not finish within 0\.4 s, on each of 3 tries — try again or raise --timeout$/,
    gets: 3,
    posts: 0,
    within: 3_000,
  },
  {
    name: 'a body that dribbles (POST: unknown)',
    command: 'create',
    handler: (_req, res) => dribble(res),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: it did not finish within 0\.4 s/,
    gets: 0,
    posts: 1,
    within: 1_500,
  },

  // Server errors.
  ...[500, 502, 503].map((status): Row => ({
    name: `${status} (GET: retried)`,
    command: 'list',
    handler: (_req, res) => json(res, status, { code: status, msg: 'server trouble' }),
    code: EXIT.failure,
    // The service's own code 500 or 503 says what to do; 502 is not one of its codes.
    line: new RegExp(
      `^error: list keys failed \\(HTTP ${status} code ${status}\\): server trouble${status === 502 ? '' : ' — the service (failed on its side|is busy or down): try again later'}`,
    ),
    gets: 3,
    posts: 0,
  })),
  // A 5xx from the service itself, a 408, or -1006/-1007 at any status: the execution status is unknown (never resent).
  ...[500, 501, 503, 599].map((status): Row => ({
    name: `${status} from the service (POST: unknown, never resent)`,
    command: 'create',
    handler: (_req, res) => json(res, status, { code: status, msg: 'server trouble' }),
    code: EXIT.outcomeUnknown,
    line: new RegExp(
      `^error: create key: the service answered HTTP ${status} code ${status}: server trouble, which does not say whether it was done — it may have taken effect; check before sending it again$`,
    ),
    gets: 0,
    posts: 1,
  })),
  {
    name: '408 (POST: unknown)',
    command: 'create',
    handler: (_req, res) => json(res, 408, { code: 408, msg: 'Request Timeout' }),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the service answered HTTP 408 code 408: Request Timeout, which does not say whether it was done/,
    gets: 0,
    posts: 1,
  },
  {
    name: '503 as an HTML page (POST: unknown)',
    command: 'create',
    handler: (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html><head><title>503 Service Unavailable</title></head></html>');
    },
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the service answered HTTP 503: 503 Service Unavailable, which does not say whether it was done/,
    gets: 0,
    posts: 1,
  },
  ...(
    [
      [-1006, 400],
      [-1007, 400],
      [-1007, 200],
      ['-1006', 200],
    ] as const
  ).map(([code, status]): Row => ({
    name: `code ${code} with HTTP ${status} (POST: unknown)`,
    command: 'create',
    handler: (_req, res) =>
      json(res, status, { code, msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.' }),
    code: EXIT.outcomeUnknown,
    line: new RegExp(
      `^error: create key: the service answered HTTP ${status} code ${code}: Timeout waiting for response from backend server\\. .*, which does not say whether it was done — it may have taken effect`,
    ),
    gets: 0,
    posts: 1,
  })),
  // The service's own internal-error codes in an envelope (its error table: 500, 503, 504, 20002), at any status.
  ...(
    [
      [504, 200, 'Gateway Time-out'],
      [503, 200, 'service not available, please try again'],
      [500, 400, 'Internal error'],
      [20002, 200, 'Internal system error please contact support'],
    ] as const
  ).map(([code, status, msg]): Row => ({
    name: `code ${code} with HTTP ${status} (POST: unknown)`,
    command: 'create',
    handler: (_req, res) => json(res, status, { code, msg }),
    code: EXIT.outcomeUnknown,
    line: new RegExp(
      `^error: create key: the service answered HTTP ${status} code ${code}: ${msg}, which does not say whether it was done — it may have taken effect`,
    ),
    gets: 0,
    posts: 1,
  })),
  {
    name: 'code -1007 to a GET (a refusal, retried only as its status says)',
    command: 'list',
    handler: (_req, res) => json(res, 400, { code: -1007, msg: 'Timeout waiting for response from backend server.' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 400 code -1007\): Timeout waiting for response from backend server\. — the service could not tell whether it was done: try again/,
    gets: 1,
    posts: 0,
  },
  ...[502, 504].map((status): Row => ({
    name: `${status} from a gateway (POST: unknown, the service behind it may have made the key)`,
    command: 'create',
    handler: (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'text/html' });
      res.end(`<html><head><title>${status} Gateway</title></head></html>`);
    },
    code: EXIT.outcomeUnknown,
    line: new RegExp(
      `^error: create key: a gateway answered HTTP ${status} \\(${status} Gateway\\); the service behind it may have done the request — it may have taken effect`,
    ),
    gets: 0,
    posts: 1,
  })),

  // Rate limiting: Retry-After waited out up to 10 s, a longer one fails at once saying when.
  {
    name: '429 Retry-After 0 (backoff still applies)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '0' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: wait and try again$/,
    gets: 3,
    posts: 0,
  },
  {
    name: '429 Retry-After 1 (waited out twice)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '1' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 1 s$/,
    gets: 3,
    posts: 0,
    within: 4_000,
  },
  {
    name: '429 Retry-After 11 (beyond the 10 s cap: at once)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '11' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 11 s$/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  {
    name: '429 Retry-After 100000 (at once)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '100000' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 28 h$/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  {
    name: '429 Retry-After 10.9 (a fraction, read up: beyond the cap, so at once, not three quick tries)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '10.9' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 11 s$/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  {
    name: '429 Retry-After 99999999999999999999 (said as more than a year)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '99999999999999999999' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in more than a year$/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  {
    name: '429 Retry-After as an HTTP date an hour on (at once)',
    command: 'list',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': new Date(Date.now() + 3_600_000).toUTCString() }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 60 min$/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  // A ban (418) stops at once, a GET too; a 403 without the permission code is the service's firewall.
  {
    name: '418 Retry-After 120 (GET: a ban, not retried)',
    command: 'list',
    handler: (_req, res) => json(res, 418, { code: -1003, msg: 'IP banned' }, { 'Retry-After': '120' }),
    code: EXIT.failure,
    line: /^error: list keys failed: the service has banned this IP for 2 min \(HTTP 418\) — nothing more goes to this service until the ban ends$/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  {
    name: '418 without Retry-After (2 min assumed)',
    command: 'transfers',
    handler: (_req, res) => json(res, 418, ''),
    code: EXIT.failure,
    line: /^error: list transfers failed: the service has banned this IP for 2 min \(HTTP 418\)/,
    gets: 1,
    posts: 0,
    within: 1_000,
  },
  {
    name: '418 on a POST (refused: exit 1, not unknown)',
    command: 'create',
    handler: (_req, res) => json(res, 418, { code: -1003, msg: 'IP banned' }, { 'Retry-After': '7200' }),
    code: EXIT.failure,
    line: /^error: create key failed: the service has banned this IP for 2 h \(HTTP 418\)/,
    gets: 0,
    posts: 1,
  },
  {
    name: "403 HTML page (the service's firewall, not retried)",
    command: 'list',
    handler: (_req, res) => {
      res.writeHead(403, { 'Content-Type': 'text/html' });
      res.end('<html><head><title>403 Forbidden</title></head><body>cloudflare</body></html>');
    },
    code: EXIT.failure,
    line: /^error: list keys failed: the service's firewall refused the request \(HTTP 403\) \(403 Forbidden\) — the request was blocked in front of the service: check that this IP/,
    gets: 1,
    posts: 0,
  },
  {
    name: '403 with 700007 (no permission: the code says so, not the firewall)',
    command: 'list',
    handler: (_req, res) => json(res, 403, { code: 700007, msg: 'No permission to access the endpoint.' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 403 code 700007\): No permission to access the endpoint\. — the master key lacks the permission/,
    gets: 1,
    posts: 0,
  },
  {
    name: '429 on a POST (never retried)',
    command: 'create',
    handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '0' }),
    code: EXIT.failure,
    line: /^error: create key failed \(HTTP 429 code 429\)/,
    gets: 0,
    posts: 1,
  },

  // Answers that are not the service's.
  {
    name: 'an HTML error page (502, retried)',
    command: 'list',
    handler: (_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end(`<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(2000)}</body></html>`);
    },
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 502\): 502 Bad Gateway$/,
    gets: 3,
    posts: 0,
  },
  {
    name: 'an HTML error page (404, not retried)',
    command: 'list',
    handler: (_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html><title>404 Not Found</title></html>');
    },
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 404\): 404 Not Found$/,
    gets: 1,
    posts: 0,
  },
  {
    name: 'an error page of 50 MB (only its head is read)',
    command: 'list',
    handler: (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/html', 'Content-Length': 50 * MiB });
      res.write('<html><title>Down for maintenance</title>');
      const chunk = Buffer.alloc(64 * 1024, 32);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    },
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 503\): Down for maintenance$/,
    gets: 3,
    posts: 0,
    within: 3_000,
    alone: true,
  },
  {
    name: 'truncated JSON (whole by its length)',
    command: 'list',
    handler: (_req, res) => json(res, 200, '{"subAccount":[{"note":"a","apiK'),
    code: EXIT.failure,
    line: /^error: list keys got an unexpected answer from the service \(HTTP 200 with a body that is not JSON\)$/,
    gets: 1,
    posts: 0,
  },
  {
    name: 'JSON of the wrong shape',
    command: 'list',
    handler: (_req, res) => json(res, 200, { keys: [] }),
    code: EXIT.failure,
    line: /^error: list keys got an unexpected answer from the service \(subAccount: missing\)$/,
    gets: 1,
    posts: 0,
  },

  // Redirects are never followed (the API key stays with the service); checked against a second server below too.
  {
    name: 'a redirect (GET)',
    command: 'list',
    handler: (_req, res) => json(res, 302, '', { Location: 'http://127.0.0.1:9/elsewhere' }),
    code: EXIT.failure,
    line: /^error: list keys failed \(HTTP 302\): a redirect to another origin, http:\/\/127\.0\.0\.1:9 — redirects are not followed \(the API key is not sent elsewhere\): check the base URL$/,
    gets: 1,
    posts: 0,
  },
  {
    name: 'a redirect (POST)',
    command: 'create',
    handler: (_req, res) => json(res, 307, '', { Location: 'http://127.0.0.1:9/elsewhere' }),
    code: EXIT.failure,
    line: /^error: create key failed \(HTTP 307\): a redirect to another origin/,
    gets: 0,
    posts: 1,
  },

  // Answers without end, or too large.
  {
    name: 'an endless body (GET: stopped at 1 MiB, not retried)',
    command: 'list',
    handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32)),
    code: EXIT.failure,
    line: /^error: list keys failed: the answer \(HTTP 200\) was larger than 1 MiB — reading stopped, not retried$/,
    gets: 1,
    posts: 0,
    within: 2_000,
    timeoutMs: 10_000,
    alone: true,
  },
  {
    name: 'an endless body (transfers: 4 MiB)',
    command: 'transfers',
    handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32)),
    code: EXIT.failure,
    line: /^error: list transfers failed: the answer \(HTTP 200\) was larger than 4 MiB — reading stopped, not retried$/,
    gets: 1,
    posts: 0,
    within: 2_000,
    timeoutMs: 10_000,
    alone: true,
  },
  {
    name: 'an endless body (POST: unknown)',
    command: 'create',
    handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32)),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: it was larger than 64 KiB — it may have taken effect/,
    gets: 0,
    posts: 1,
    within: 2_000,
    timeoutMs: 10_000,
    alone: true,
  },
  {
    name: 'a 50 MB body with its Content-Length (refused before reading)',
    command: 'list',
    handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32), { 'Content-Length': 50 * MiB }),
    code: EXIT.failure,
    line: /^error: list keys failed: the answer \(HTTP 200\) was larger than 1 MiB/,
    gets: 1,
    posts: 0,
    within: 2_000,
    timeoutMs: 10_000,
    alone: true,
  },
  {
    name: 'a 50 MB body, chunked',
    command: 'transfers',
    handler: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const row = `${JSON.stringify(transfer(1))},`;
      const chunk = Buffer.from(row.repeat(Math.ceil((256 * 1024) / row.length)));
      let sent = 0;
      res.write('[');
      const pump = (): void => {
        while (!res.destroyed && sent < 50 * MiB) {
          sent += chunk.length;
          if (!res.write(chunk)) return;
        }
        if (!res.destroyed) res.end('null]');
      };
      res.on('drain', pump);
      pump();
    },
    code: EXIT.failure,
    line: /^error: list transfers failed: the answer \(HTTP 200\) was larger than 4 MiB/,
    gets: 1,
    posts: 0,
    within: 2_000,
    timeoutMs: 10_000,
    alone: true,
  },
  {
    name: 'a 250,000-row page',
    command: 'transfers',
    handler: (_req, res) => json(res, 200, hugePage()),
    code: EXIT.failure,
    line: /^error: list transfers failed: the answer \(HTTP 200\) was larger than 4 MiB/,
    gets: 1,
    posts: 0,
    timeoutMs: 10_000,
    alone: true,
  },
  {
    name: 'a page of 501 rows for a page size of 500',
    command: 'transfers',
    handler: (_req, res) =>
      json(
        res,
        200,
        Array.from({ length: 501 }, (_, i) => transfer(i)),
      ),
    code: EXIT.failure,
    line: /^error: list transfers got an unexpected answer from the service \(a page of 501 transfers, more than the 500 asked for: the service did not keep to the page size\)$/,
    gets: 1,
    posts: 0,
  },

  // A create whose answer came but cannot be read: the key probably exists.
  {
    name: 'POST answered 200 with an empty body',
    command: 'create',
    handler: (_req, res) => json(res, 200, ''),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: it was empty — it may have taken effect; check before sending it again$/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'POST answered 200 with text that is not JSON',
    command: 'create',
    handler: (_req, res) => json(res, 200, 'OK, created\x1b]0;pwned\x07'),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: it is not JSON; what came: application\/json, 21 bytes, not JSON — it may have taken effect/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'POST answered 200 with the wrong shape',
    command: 'create',
    handler: (_req, res) => json(res, 200, [1, 2, 3]),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: it is not a created key \(.+\); what came: application\/json, 7 bytes, a JSON array —/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'POST answered 200 without secretKey',
    command: 'create',
    handler: (_req, res) => json(res, 200, { apiKey: 'mx0vnosecret', createTime: 1 }),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 200\) could not be read: it is not a created key \(secretKey: missing\); what came: application\/json, \d+ bytes, a JSON object with fields apiKey, createTime —/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'POST answered 201 with a secret but no key id (the secret is not echoed)',
    command: 'create',
    handler: (_req, res) => json(res, 201, { secretKey: 'NEVER-PRINT-THIS-SECRET' }),
    code: EXIT.outcomeUnknown,
    line: /^error: create key: the answer \(HTTP 201\) could not be read: it is not a created key \(apiKey: missing\); what came: application\/json, \d+ bytes, a JSON object with fields secretKey —/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'POST answered 200 with an error envelope (a refusal, not unknown)',
    command: 'create',
    handler: (_req, res) => json(res, 200, { code: 730705, msg: 'too many keys' }),
    code: EXIT.failure,
    line: /^error: create key failed \(HTTP 200 code 730705\): too many keys — the sub-account has 30 keys, the most it can have: delete one first \(the broker API can; this console does not\)$/,
    gets: 0,
    posts: 1,
  },
  // A 700003 is the one resend: refused before anything was done, and the clock is re-measured from it.
  {
    name: '700003 on a POST, with a Date header (re-measured, sent once more: two POSTs)',
    command: 'create',
    handler: (_req, res, n) => {
      if (n > 1) return json(res, 200, CREATED);
      res.sendDate = false;
      json(res, 400, { code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' }, { Date: new Date(Date.now() + 30_000).toUTCString() });
    },
    code: EXIT.ok,
    line: /^$/,
    gets: 0,
    posts: 2,
  },
  {
    name: '700003 on a POST without a Date header (nothing to re-measure: one POST)',
    command: 'create',
    handler: (_req, res) => {
      res.sendDate = false;
      json(res, 400, { code: 700003, msg: 'outside of the recvWindow' });
    },
    code: EXIT.failure,
    line: /^error: create key failed \(HTTP 400 code 700003\): outside of the recvWindow — the service refused the timestamp and did not say its time/,
    gets: 0,
    posts: 1,
  },
  {
    name: 'POST answered 200 with odd fields but key and secret (shown)',
    command: 'create',
    handler: (_req, res) => json(res, 200, { ...CREATED, createTime: 'yesterday', note: 42 }),
    code: EXIT.ok,
    line: /^$/,
    gets: 0,
    posts: 1,
  },
];

/** One row: the command against the row's own server, then what the operator and the server saw. */
async function checkRow(row: Row, onFinished: OnFinished): Promise<void> {
  const server = await hostile(onFinished, row.handler);
  const ran = await run(row.command, server.baseUrl, {}, {}, row.timeoutMs);
  expect(ran.code, ran.stderr).toBe(row.code);
  if (row.code === EXIT.ok) expect(ran.errors).toEqual([]);
  else {
    expect(ran.errors, ran.stderr).toHaveLength(1);
    expect(ran.errors[0]).toMatch(row.line);
  }
  // The tries the client made; the server sees each of them, except that a GET try can meet a socket that
  // closed before its request got through (a full suite once saw 2 of a reset row's 3): never a POST.
  expect(ran.tries).toEqual({ GET: row.gets, POST: row.posts });
  expect(server.seen.POST).toBe(row.posts);
  expect(server.seen.GET).toBeLessThanOrEqual(row.gets);
  expect(server.seen.GET).toBeGreaterThanOrEqual(Math.min(row.gets, 1));
  expect(server.seen.other).toBe(0);
  if (row.within !== undefined) expect(ran.ms).toBeLessThan(row.within);
  // A create whose outcome is unknown says how to find out.
  if (row.code === EXIT.outcomeUnknown)
    expect(ran.stderr).toMatch(/the key may exist: check with `broker-console keys list --base-url http:\/\/127\.[\d.]+:\d+ --sub desk`/);
  // The audit trail says what became of every create: unknown when exit 3, refused when the service said no.
  if (row.command === 'create' && row.code !== EXIT.ok) {
    // Read as the trail is read: an attempt's write-ahead line and its outcome stand as one entry.
    const outcomes = (await readAuditTrail(ran.folder)).entries.map((entry) => entry.outcome);
    expect(outcomes).toEqual([row.code === EXIT.outcomeUnknown ? 'unknown' : 'refused']);
  }
  // Whatever went wrong, no secret reaches the operator's screen but the created one on stdout.
  expect(ran.stderr).not.toContain('NEVER-PRINT-THIS-SECRET');
  expect(ran.stderr).not.toContain('fault-matrix-secret');
}

const named = (rows: Row[]) => rows.map((row) => [row.name, row] as const);

describe('fault matrix: every row runs the real command against a hostile server', () => {
  // The first commands run in this process load undici and the commands' modules, which on a busy machine takes
  // more than a row's 400 ms deadline: each command runs once beforehand, so the rows starting together do not
  // pay for it (otherwise the first row, a retried GET, would absorb it).
  beforeAll(async () => {
    const server = await hostile(
      () => undefined,
      (req, res) => json(res, 200, req.method === 'POST' ? CREATED : (req.url ?? '').includes('universalTransfer') ? [] : KEYS),
    );
    try {
      for (const command of ['list', 'create', 'transfers'] as const) await run(command, server.baseUrl, {}, {}, 10_000);
    } finally {
      await server.close();
    }
  });

  // Most rows wait (deadlines, Retry-After, backoff) and each has its own server: they run together, those with
  // the largest time budget (the longest waits) first, so Retry-After 1's two seconds start at once.
  const together = ROWS.filter((row) => !row.alone).sort((a, b) => (b.within ?? 0) - (a.within ?? 0));
  it.concurrent.for(named(together))('%s', async ([, row], { onTestFinished }) => checkRow(row, onTestFinished));
  // The size rows, after them and one at a time: their megabytes would slow a 400 ms deadline row beside them.
  it.for(named(ROWS.filter((row) => row.alone)))('%s', async ([, row], { onTestFinished }) => checkRow(row, onTestFinished));
});

describe('fault matrix: connections that never start', () => {
  it('a refused connection: GET retried, exit 1, says the service could not be reached', async () => {
    const ran = await run('list', await closedPort());
    expect(ran.code).toBe(EXIT.failure);
    expect(ran.errors).toEqual([
      expect.stringMatching(/^error: list keys failed: could not reach the service \(ECONNREFUSED\) — check the base URL and the network$/),
    ]);
  });

  it('a refused connection on a POST: nothing was sent, so exit 1 (not 3)', async () => {
    const ran = await run('create', await closedPort());
    expect(ran.code).toBe(EXIT.failure);
    expect(ran.errors).toEqual([expect.stringMatching(/^error: create key failed: could not reach the service \(ECONNREFUSED\)/)]);
    expect(ran.stderr).not.toContain('may exist');
  });

  it('a redirect to another origin is not followed: that server sees nothing, the API key never goes there', async ({ onTestFinished }) => {
    const elsewhere = await hostile(onTestFinished, (_req, res) => json(res, 200, KEYS));
    for (const status of [301, 302, 303, 307, 308]) {
      const service = await hostile(onTestFinished, (_req, res) =>
        json(res, status, '', { Location: `${elsewhere.baseUrl}/api/v3/broker/sub-account/apiKey?x=1` }),
      );
      for (const command of ['list', 'create'] as const) {
        const ran = await run(command, service.baseUrl);
        expect(ran.code).toBe(EXIT.failure);
        expect(ran.errors[0]).toContain(`(HTTP ${status}): a redirect to another origin, ${elsewhere.baseUrl}`);
      }
      expect(service.seen).toEqual({ GET: 1, POST: 1, other: 0 });
      expect(service.keys).toEqual([API_KEY, API_KEY]);
    }
    expect(elsewhere.seen).toEqual({ GET: 0, POST: 0, other: 0 });
  });

  it('garbage instead of HTTP (raw TCP): a GET is retried and fails in one line; a POST is unknown', async () => {
    const raw = await rawServer((socket) => {
      socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    });
    try {
      const list = await run('list', raw.baseUrl);
      expect(list.code).toBe(EXIT.failure);
      expect(list.errors).toHaveLength(1);
      expect(list.errors[0]).toMatch(/^error: list keys failed: /);
      expect(raw.connections()).toBe(3);
      const create = await run('create', raw.baseUrl);
      expect(create.code).toBe(EXIT.outcomeUnknown);
      expect(raw.connections()).toBe(4);
    } finally {
      await raw.close();
    }
  });

  it('headers without end (more than 16 KiB of them): stopped, not retried', async () => {
    const raw = await rawServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n');
        const line = `X-Filler: ${'a'.repeat(1000)}\r\n`;
        const pump = (): void => {
          while (!socket.destroyed && socket.write(line));
        };
        socket.on('drain', pump);
        pump();
      });
    });
    try {
      // The deadline is not under test here: one far above 400 ms, so a worker held off the CPU on a busy
      // machine cannot turn the first try into a timeout (and a retry) before the 16 KiB arrive.
      const ran = await run('list', raw.baseUrl, {}, {}, 10_000);
      expect(ran.code).toBe(EXIT.failure);
      expect(ran.errors).toEqual(["error: list keys failed: the answer's headers were larger than 16 KiB — reading stopped"]);
      expect(raw.connections()).toBe(1);
      expect(ran.ms).toBeLessThan(2_000);
    } finally {
      await raw.close();
    }
  });
});

describe('fault matrix: the Retry-After cap is an option (tests set it lower)', () => {
  it('with retryAfterCapMs 500, a Retry-After of 1 s gives up at once', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '1' }));
    const ran = await run('list', server.baseUrl, {}, { retryAfterCapMs: 500 });
    expect(ran.code).toBe(EXIT.failure);
    expect(ran.errors).toEqual(['error: list keys failed (HTTP 429 code 429): slow down — rate limited: try again in 1 s']);
    expect(server.seen.GET).toBe(1);
    expect(ran.ms).toBeLessThan(900);
  });

  it('a 429 then an answer: waited out, then the page', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res, n) =>
      n === 1 ? json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '0' }) : json(res, 200, KEYS),
    );
    const ran = await run('list', server.baseUrl);
    expect(ran.code).toBe(EXIT.ok);
    expect(ran.stdout).toContain('mx0vlisted');
    expect(server.seen.GET).toBe(2);
  });
});

describe('fault matrix: amounts as sent', () => {
  it('every decimal form and what is not a number at all are kept exactly, in CSV and JSON, and never fail the page', async ({ onTestFinished }) => {
    const amounts = ['1e-7', '+3.', '.5', '-0', '1E+5', '0.10000000000000000001', 'N/A', ''];
    const body = `[${amounts.map((a, i) => JSON.stringify(transfer(i, a))).join(',')},${JSON.stringify(transfer(99)).replace('"amount":"1.5"', '"amount":0.10')}]`;
    const server = await hostile(onTestFinished, (_req, res) => json(res, 200, body));
    for (const format of ['csv', 'json'] as const) {
      const { ctx, out } = context(server.baseUrl);
      expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format }, ctx)).toBe(EXIT.ok);
      const text = out.text();
      if (format === 'json') {
        const rows = JSON.parse(text) as { amount: string }[];
        expect(rows.map((r) => r.amount)).toEqual([...amounts, '0.10']);
      } else {
        const cells = text
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((line) => line.split(',')[5]);
        expect(cells).toEqual([...amounts.map((a) => (a === '' ? '' : a)), '0.10']);
      }
    }
  });
});

describe('fault matrix: data as sent', () => {
  /** A transfer with a numeric tranId, written into the JSON as the given digits (JSON.stringify could not). */
  const numericId = (digits: string, i: number): string => JSON.stringify(transfer(i)).replace(`"tranId":"${i}"`, `"tranId":${digits}`);
  // Beyond 2^53 JSON.parse rounds: ...993 and ...992 both read as ...992, ...995 as ...996.
  const PAGES = [['9007199254740993', '9007199254740995'], ['9007199254740992', '9007199254740994'], ['9007199254740997']];

  it('tranIds above 2^53 across pages with --all: no false "page 2 repeats page 1", exact digits in CSV and JSON', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      json(res, 200, `[${(PAGES[page - 1] ?? []).map((id, i) => numericId(id, page * 10 + i)).join(',')}]`);
    });
    const want = PAGES.flat();
    for (const format of ['csv', 'json'] as const) {
      const { ctx, out, err } = context(server.baseUrl);
      expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format, all: true, limit: '2' }, ctx), err.text()).toBe(EXIT.ok);
      expect(err.text()).not.toContain('repeats');
      const text = out.text();
      const ids =
        format === 'json'
          ? (JSON.parse(text) as { tranId: string }[]).map((r) => r.tranId)
          : text
              .trimEnd()
              .split('\r\n')
              .slice(1)
              .map((line) => line.split(',')[0]);
      expect(ids, format).toEqual(want);
    }
  });

  it('a page that truly repeats is still caught, by its exact digits', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res) => json(res, 200, `[${PAGES[0]!.map((id, i) => numericId(id, i)).join(',')}]`));
    const { ctx, err } = context(server.baseUrl);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format: 'csv', all: true, limit: '2' }, ctx)).not.toBe(EXIT.ok);
    expect(err.text()).toContain('page 2 repeats page 1 (transfer 9007199254740993 came on both');
  });

  it('times beyond the Date range, beyond 2^53 or with a fraction: kept exactly in CSV and JSON, shown as they came in the table', async ({
    onTestFinished,
  }) => {
    const times = ['99999999999999999999', '9007199254740993', '1763726400000.5'];
    const body = `[${times.map((t, i) => JSON.stringify(transfer(i)).replace(/"timestamp":\d+/, `"timestamp":${t}`)).join(',')}]`;
    const server = await hostile(onTestFinished, (_req, res) => json(res, 200, body));
    for (const format of ['csv', 'json', 'table'] as const) {
      const { ctx, out, err } = context(server.baseUrl);
      expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format }, ctx), err.text()).toBe(EXIT.ok);
      const text = out.text();
      if (format === 'json') expect((JSON.parse(text) as { timestamp: unknown }[]).map((r) => r.timestamp)).toEqual(times);
      else if (format === 'csv')
        expect(
          text
            .trimEnd()
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(',').at(-1)),
        ).toEqual(times);
      else for (const t of times) expect(text).toContain(t);
    }
    // The summary counts them all; the days it lists are those a Date can name.
    const { ctx, out, err } = context(server.baseUrl);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', summary: true, format: 'json' }, ctx), err.text()).toBe(EXIT.ok);
    expect(JSON.parse(out.text())).toMatchObject({ rows: 3, assets: [{ asset: 'USDT', count: 3 }], days: [] });
  });

  it('a creatTime beyond the Date range: keys list shows the number that came (table, JSON, CSV), exit 0', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res) =>
      json(res, 200, JSON.stringify(KEYS).replace(/"creatTime":\d+/, '"creatTime":99999999999999999999')),
    );
    for (const format of ['table', 'json', 'csv'] as const) {
      const { ctx, out, err } = context(server.baseUrl);
      expect(await runKeysList({ sub: 'desk', format }, ctx), err.text()).toBe(EXIT.ok);
      expect(out.text(), format).toContain(format === 'json' ? '"createdAt": "99999999999999999999"' : '99999999999999999999');
    }
  });

  it('a creatTime far before 1970 and beyond the Date range: keys audit flags the key old, its age a finite count', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res) =>
      json(res, 200, JSON.stringify(KEYS).replace(/"creatTime":\d+/, '"creatTime":-99999999999999999999')),
    );
    for (const format of ['json', 'table'] as const) {
      const { ctx, out, err } = context(server.baseUrl);
      expect(await runKeysAudit({ sub: 'desk', format }, ctx), err.text()).toBe(EXIT.flagged);
      if (format === 'table') expect(out.text()).toContain('-99999999999999999999');
      else {
        const audit = JSON.parse(out.text()) as { subAccounts: { keys: { createdAt: unknown; ageDays: number; flags: { kind: string }[] }[] }[] };
        const key = audit.subAccounts[0]?.keys[0];
        expect(key?.createdAt).toBe('-99999999999999999999');
        expect(Number.isFinite(key?.ageDays)).toBe(true);
        expect(key?.flags.map((f) => f.kind)).toContain('old');
      }
    }
  });

  it('createTime in a key list record is read; with both spellings, creatTime', async ({ onTestFinished }) => {
    const listed = { note: 'n', apiKey: 'mx0vlisted', permissions: 'SPOT_ACCOUNT_READ', ip: '' };
    const server = await hostile(onTestFinished, (_req, res, n) =>
      json(res, 200, { subAccount: n === 1 ? [{ ...listed, createTime: 1_763_726_400_000 }] : [{ ...listed, creatTime: 1_763_726_400_000, createTime: 1 }] }),
    );
    for (let i = 0; i < 2; i += 1) {
      const { ctx, out, err } = context(server.baseUrl);
      expect(await runKeysList({ sub: 'desk', format: 'json' }, ctx), err.text()).toBe(EXIT.ok);
      expect((JSON.parse(out.text()) as { createdAt: number }[])[0]?.createdAt).toBe(1_763_726_400_000);
    }
  });

  it('a transfer list as {"result":[…],"totalCount":n} is read, exit 0', async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res) => json(res, 200, { result: [transfer(1), transfer(2)], totalCount: 2 }));
    const ran = await run('transfers', server.baseUrl);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(
      ran.stdout
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual(['1', '2']);
  });

  it("a UTF-8 byte order mark before a create's answer: the secret is delivered, exit 0", async ({ onTestFinished }) => {
    const server = await hostile(onTestFinished, (_req, res) => json(res, 200, `\ufeff${JSON.stringify(CREATED)}`));
    const ran = await run('create', server.baseUrl);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(ran.stdout).toContain('THE-NEW-SECRET-abc123');
    expect(server.seen.POST).toBe(1);
  });

  it("an unsolicited 100 Continue (raw TCP) before a create's answer: the secret is delivered, exit 0, one POST", async ({ onTestFinished }) => {
    const body = JSON.stringify(CREATED);
    let requests = 0;
    const server = await rawServer((socket) => {
      socket.once('data', () => {
        requests += 1;
        socket.write(
          `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      });
    });
    onTestFinished(() => server.close());
    const ran = await run('create', server.baseUrl);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(ran.stdout).toContain('THE-NEW-SECRET-abc123');
    expect(ran.tries).toEqual({ GET: 0, POST: 1 });
    expect(requests).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Memory under an endless body, measured on the built binary (its peak RSS, reported by the child itself).

describe('memory stays flat under an endless body (the built binary, peak RSS)', () => {
  it('keys list and transfers against an endless body peak within 48 MiB of a normal keys list', async ({ onTestFinished }) => {
    const bin = await buildCli();
    const dir = mkdtempSync(join(tmpdir(), 'bc-rss-'));
    const preload = join(dir, 'rss.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.RSS_OUT, String(process.resourceUsage().maxRSS)));\n");
    let mode: 'normal' | 'endless' = 'normal';
    const server = await hostile(onTestFinished, (_req, res) => (mode === 'normal' ? json(res, 200, KEYS) : endless(res, Buffer.alloc(64 * 1024, 32))));
    const peak = async (args: string[]): Promise<{ kb: number; code: number | null; stderr: string }> => {
      const out = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--require', preload, bin, '--timeout', '5000', ...args], {
          env: {
            PATH: process.env.PATH ?? '',
            RSS_OUT: out,
            BROKER_BASE_URL: server.baseUrl,
            BROKER_API_KEY: API_KEY,
            BROKER_API_SECRET: 's',
            BROKER_CONSOLE_HOME: join(dir, 'home'),
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ kb: Number(readFileSync(out, 'utf8')), code, stderr }));
      });
    };
    try {
      mode = 'normal';
      const normal = await peak(['keys', 'list', '--sub', 'desk']);
      expect(normal.code, normal.stderr).toBe(0);
      const baseline = normal.kb;
      mode = 'endless';
      const list = await peak(['keys', 'list', '--sub', 'desk']);
      const transfers = await peak(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE']);
      expect(list.code).toBe(1);
      expect(list.stderr).toMatch(/larger than 1 MiB/);
      expect(transfers.code).toBe(1);
      expect(transfers.stderr).toMatch(/larger than 4 MiB/);
      const report = `baseline ${baseline} KB, endless keys list ${list.kb} KB, endless transfers ${transfers.kb} KB`;
      console.log(`peak RSS: ${report}`);
      // Bounded, not growing with the body (5 s of it on loopback would be gigabytes): a refused page is held
      // whole (1 MiB for keys, 4 MiB for transfers) as bytes and as text first, and Node 24's heap grows in
      // larger steps than 20's.
      expect(list.kb - baseline, report).toBeLessThan(48 * 1024);
      expect(transfers.kb - baseline, report).toBeLessThan(48 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------------
// Failures before the request's first byte: TLS and proxies. Nothing reaches the service, so a create is not
// sent (exit 1, "no key was created", no `unknown` line in the audit trail), and a certificate error is not retried.

// Each case has servers of its own: the deadlines a handshake that never completes waits out overlap the bin's runs.
describe.concurrent('fault matrix: TLS and proxies, before the first byte', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeCertificates();
  });
  afterAll(() => certs.remove());

  /** The audit trail of a run as it is read (each run has a config folder of its own), one JSON line an entry. */
  const auditOf = async (ran: Ran): Promise<string> => (await readAuditTrail(ran.folder)).entries.map((entry) => JSON.stringify(entry)).join('\n');
  const CA_HINT = 'if your network uses its own CA, set NODE_EXTRA_CA_CERTS=/path/ca.pem';

  // A deadline of 5 s unless the row is about the deadline: a loaded machine must not turn a certificate row into a timeout.
  async function both(
    expect: ExpectStatic,
    baseUrl: string,
    env: Record<string, string>,
    expected: { list: string | RegExp; create: string | RegExp; gets: number },
    timeoutMs = 5_000,
  ): Promise<void> {
    const list = await run('list', baseUrl, env, {}, timeoutMs);
    expect(list.code, list.stderr).toBe(EXIT.failure);
    expect(list.errors).toHaveLength(1);
    expect(list.errors[0]).toMatch(expected.list);
    expect(list.tries).toEqual({ GET: expected.gets, POST: 0 });
    const create = await run('create', baseUrl, env, {}, timeoutMs);
    expect(create.code, create.stderr).toBe(EXIT.failure);
    expect(create.errors).toHaveLength(1);
    expect(create.errors[0]).toMatch(expected.create);
    expect(create.errors[0]).toContain('nothing was sent, no key was created');
    expect(create.stderr).not.toContain('may have taken effect');
    expect(create.tries).toEqual({ GET: 0, POST: 1 });
    expect(await auditOf(create)).not.toContain('"unknown"');
  }

  it('a self-signed certificate: named, with the NODE_EXTRA_CA_CERTS hint, not retried; no request reached the server', async ({ expect, onTestFinished }) => {
    const front = await tlsFront(onTestFinished, certs.selfSigned);
    await both(
      expect,
      front.baseUrl,
      {},
      {
        list: `error: list keys failed: the service's certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) — ${CA_HINT}`,
        create: `error: create key failed: the service's certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) — nothing was sent, no key was created; ${CA_HINT}`,
        gets: 1,
      },
    );
    expect(front.requests()).toBe(0);
  });

  it('a certificate from a CA this computer does not know: named, not retried', async ({ expect, onTestFinished }) => {
    const front = await tlsFront(onTestFinished, certs.loopback);
    await both(
      expect,
      front.baseUrl,
      {},
      {
        list: `error: list keys failed: the service's certificate is signed by a CA this computer does not know (UNABLE_TO_VERIFY_LEAF_SIGNATURE) — ${CA_HINT}`,
        create: /^error: create key failed: the service's certificate is signed by a CA this computer does not know/,
        gets: 1,
      },
    );
    expect(front.requests()).toBe(0);
  });

  it('a handshake that never completes: "did not complete within", a GET retried, a create not sent', async ({ expect, onTestFinished }) => {
    const server = await silentTcp(onTestFinished, 'never');
    await both(
      expect,
      server.baseUrl,
      {},
      {
        list: 'error: list keys failed: the connection or its TLS handshake did not complete within 0.4 s, on each of 3 tries — try again or raise --timeout',
        create:
          'error: create key failed: the connection or its TLS handshake did not complete within 0.4 s — nothing was sent, no key was created; try again or raise --timeout',
        gets: 3,
      },
      TIMEOUT_MS,
    );
    // Each try sent its TLS hello and nothing more.
    expect(server.connections()).toBe(4);
  });

  it('a connection reset during the handshake: named, a GET retried, a create not sent', async ({ expect, onTestFinished }) => {
    const server = await silentTcp(onTestFinished, 'reset');
    await both(
      expect,
      server.baseUrl,
      {},
      {
        list: /^error: list keys failed: the connection closed during the TLS handshake \((ECONNRESET|UND_ERR_SOCKET)\) — check the base URL and the network$/,
        create:
          /^error: create key failed: the connection closed during the TLS handshake \((ECONNRESET|UND_ERR_SOCKET)\) — nothing was sent, no key was created; check the base URL and the network$/,
        gets: 3,
      },
    );
  });

  it('a proxy that refuses the tunnel with 407: says it wants credentials, not retried; the service sees nothing', async ({ expect, onTestFinished }) => {
    const front = await tlsFront(onTestFinished, certs.selfSigned);
    const proxy = await testProxy(onTestFinished, { requireAuthorization: 'Basic never' });
    const said = `the proxy ${proxy.url} asks for credentials (HTTP 407): put them in the proxy URL, http://user:password@host:port`;
    await both(
      expect,
      front.baseUrl,
      { HTTPS_PROXY: proxy.url },
      {
        list: `error: list keys failed: ${said} — check the proxy setting`,
        create: `error: create key failed: ${said} — nothing was sent, no key was created; check the proxy setting`,
        gets: 1,
      },
    );
    expect(proxy.refused).toBe(2);
    expect(front.connections()).toBe(0);
  });

  it('a proxy that cannot be reached: said so, naming the proxy; a create not sent', async ({ expect, onTestFinished }) => {
    const front = await tlsFront(onTestFinished, certs.selfSigned);
    const down = await closedPort();
    await both(
      expect,
      front.baseUrl,
      { HTTPS_PROXY: down },
      {
        list: `error: list keys failed: could not reach the service through the proxy ${down} (ECONNREFUSED) — check the base URL and the network`,
        create: `error: create key failed: could not reach the service through the proxy ${down} (ECONNREFUSED) — nothing was sent, no key was created; check the base URL and the network`,
        gets: 3,
      },
    );
    expect(front.connections()).toBe(0);
  });

  it('the built binary: NODE_EXTRA_CA_CERTS with the test CA makes the same server work; a certificate for another name still fails', async ({
    expect,
    onTestFinished,
  }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const front = await tlsFront(onTestFinished, certs.loopback, sandbox.baseUrl);
    const env = {
      BROKER_BASE_URL: front.baseUrl,
      BROKER_API_KEY: sandbox.apiKey,
      BROKER_API_SECRET: sandbox.secretKey,
      BROKER_CONSOLE_HOME: join(home, 'bin-home'),
    };
    const sub = sandbox.subAccounts[0] ?? 'desk';
    const untrusted = await runBuiltCli(['keys', 'list', '--sub', sub], env);
    expect(untrusted.code).toBe(EXIT.failure);
    expect(untrusted.stderr).toBe(
      `error: list keys failed: the service's certificate is signed by a CA this computer does not know (UNABLE_TO_VERIFY_LEAF_SIGNATURE) — ${CA_HINT}\n`,
    );
    expect(front.requests()).toBe(0);
    const trusted = await runBuiltCli(['keys', 'list', '--sub', sub, '--json'], { ...env, NODE_EXTRA_CA_CERTS: certs.caFile });
    expect(trusted.code, trusted.stderr).toBe(EXIT.ok);
    expect(JSON.parse(trusted.stdout)).toEqual(expect.any(Array));
    expect(front.requests()).toBe(1);

    const other = await tlsFront(onTestFinished, certs.otherName, sandbox.baseUrl);
    const wrongName = { ...env, BROKER_BASE_URL: other.baseUrl, NODE_EXTRA_CA_CERTS: certs.caFile };
    const listed = await runBuiltCli(['keys', 'list', '--sub', sub], wrongName);
    expect(listed.code).toBe(EXIT.failure);
    expect(listed.stderr).toBe(
      "error: list keys failed: the service's certificate is for another name (ERR_TLS_CERT_ALTNAME_INVALID) — check the host name in the base URL (127.0.0.1)\n",
    );
    const created = await runBuiltCli(['keys', 'create', '--allow-risky', '--sub', sub, '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'tls'], wrongName);
    expect(created.code).toBe(EXIT.failure);
    expect(created.stderr).toContain('nothing was sent, no key was created');
    expect(other.requests()).toBe(0);
    expect(sandbox.requests()).toHaveLength(1);
  }, 30_000);
});
