// Issue 8, the fault matrix: small hostile servers (node:http and node:net on 127.0.0.1) meet the real commands.
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { runTransfers } from '../../src/commands/transfers';
import { type TestContext, buildCli, testContext } from '../commands/helpers';
import type { OnFinished } from '../sandbox/helpers';

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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const h: Hostile = Object.assign(state, {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
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
const CREATED = { subAccount: 'desk', note: 'n', apiKey: 'mx0vnewkey', secretKey: 'THE-NEW-SECRET-abc123', permissions: 'SPOT_ACCOUNT_READ', createTime: 1_763_726_400_000 };

function transfer(i: number, amount = '1.5'): Record<string, unknown> {
  return { tranId: String(i), fromAccount: '', toAccount: 'desk', clientTranId: '', asset: 'USDT', amount, fromAccountType: 'SPOT', toAccountType: 'FUTURE', fromSymbol: '', toSymbol: '', status: 'SUCCESS', timestamp: 1_763_726_400_000 + i };
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
}

let home: string;
let runs = 0;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'bc-fault-matrix-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

function context(baseUrl: string, env: Record<string, string> = {}, client: Record<string, unknown> = {}, timeoutMs = TIMEOUT_MS, tries = { GET: 0, POST: 0 }): TestContext {
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
      configFolder: join(home, `config-${(runs += 1)}`),
    },
    { timeoutMs },
  );
}

type Command = 'list' | 'create' | 'transfers';

async function run(command: Command, baseUrl: string, env: Record<string, string> = {}, client: Record<string, unknown> = {}, timeoutMs = TIMEOUT_MS): Promise<Ran> {
  const tries = { GET: 0, POST: 0 };
  const { ctx, out, err } = context(baseUrl, env, client, timeoutMs, tries);
  const started = performance.now();
  const code =
    command === 'list'
      ? await runKeysList({ sub: 'desk' }, ctx)
      : command === 'create'
        ? await runKeysCreate({ sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'fault matrix' }, ctx)
        : await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', format: 'csv' }, ctx);
  const stderr = err.text();
  return { code, stdout: out.text(), stderr, errors: stderr.split('\n').filter((l) => l.startsWith('error: ')), ms: performance.now() - started, tries };
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
  { name: 'reset before the answer (GET: retried)', command: 'list', handler: resetNow, code: EXIT.failure, line: /^error: list keys failed: the connection closed before an answer came \(.+\) — try again$/, gets: 3, posts: 0 },
  { name: 'reset before the answer (POST: unknown)', command: 'create', handler: resetNow, code: EXIT.outcomeUnknown, line: /^error: create key: the request was sent but no answer came \(.+\) — it may have taken effect/, gets: 0, posts: 1 },
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
  { name: 'headers later than the timeout (GET: retried)', command: 'list', handler: never, code: EXIT.failure, line: /^error: list keys failed: no answer within 0\.4 s — try again or raise --timeout$/, gets: 3, posts: 0, within: 3_000 },
  { name: 'headers later than the timeout (POST: unknown)', command: 'create', handler: never, code: EXIT.outcomeUnknown, line: /^error: create key: the request was sent but no answer came \(no answer within 0\.4 s\)/, gets: 0, posts: 1, within: 1_500 },
  { name: 'a body that dribbles (GET: retried, each try within its deadline)', command: 'list', handler: (_req, res) => dribble(res), code: EXIT.failure, line: /^error: list keys failed: the answer did not finish within 0\.4 s — try again or raise --timeout$/, gets: 3, posts: 0, within: 3_000 },
  { name: 'a body that dribbles (POST: unknown)', command: 'create', handler: (_req, res) => dribble(res), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 200\) could not be read: it did not finish within 0\.4 s/, gets: 0, posts: 1, within: 1_500 },

  // Server errors.
  ...[500, 502, 503].map((status): Row => ({ name: `${status} (GET: retried)`, command: 'list', handler: (_req, res) => json(res, status, { code: status, msg: 'server trouble' }), code: EXIT.failure, line: new RegExp(`^error: list keys failed \\(HTTP ${status} code ${status}\\): server trouble$`), gets: 3, posts: 0 })),
  { name: '503 (POST: never retried)', command: 'create', handler: (_req, res) => json(res, 503, { code: 503, msg: 'busy' }), code: EXIT.failure, line: /^error: create key failed \(HTTP 503 code 503\): busy$/, gets: 0, posts: 1 },
  ...[502, 504].map((status): Row => ({
    name: `${status} from a gateway (POST: unknown, the service behind it may have made the key)`,
    command: 'create',
    handler: (_req, res) => { res.writeHead(status, { 'Content-Type': 'text/html' }); res.end(`<html><head><title>${status} Gateway</title></head></html>`); },
    code: EXIT.outcomeUnknown,
    line: new RegExp(`^error: create key: a gateway answered HTTP ${status} \\(${status} Gateway\\); the service behind it may have done the request — it may have taken effect`),
    gets: 0,
    posts: 1,
  })),

  // Rate limiting: Retry-After waited out up to 10 s, a longer one fails at once saying when.
  { name: '429 Retry-After 0 (backoff still applies)', command: 'list', handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '0' }), code: EXIT.failure, line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: wait and try again$/, gets: 3, posts: 0 },
  { name: '429 Retry-After 1 (waited out twice)', command: 'list', handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '1' }), code: EXIT.failure, line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 1 s$/, gets: 3, posts: 0, within: 4_000 },
  { name: '429 Retry-After 11 (beyond the 10 s cap: at once)', command: 'list', handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '11' }), code: EXIT.failure, line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 11 s$/, gets: 1, posts: 0, within: 1_000 },
  { name: '429 Retry-After 100000 (at once)', command: 'list', handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '100000' }), code: EXIT.failure, line: /^error: list keys failed \(HTTP 429 code 429\): slow down — rate limited: try again in 28 h$/, gets: 1, posts: 0, within: 1_000 },
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
  { name: '418 Retry-After 120 (GET: a ban, not retried)', command: 'list', handler: (_req, res) => json(res, 418, { code: -1003, msg: 'IP banned' }, { 'Retry-After': '120' }), code: EXIT.failure, line: /^error: list keys failed: the service has banned this IP for 2 min \(HTTP 418\) — nothing more goes to this service until the ban ends$/, gets: 1, posts: 0, within: 1_000 },
  { name: '418 without Retry-After (2 min assumed)', command: 'transfers', handler: (_req, res) => json(res, 418, ''), code: EXIT.failure, line: /^error: list transfers failed: the service has banned this IP for 2 min \(HTTP 418\)/, gets: 1, posts: 0, within: 1_000 },
  { name: '418 on a POST (refused: exit 1, not unknown)', command: 'create', handler: (_req, res) => json(res, 418, { code: -1003, msg: 'IP banned' }, { 'Retry-After': '7200' }), code: EXIT.failure, line: /^error: create key failed: the service has banned this IP for 2 h \(HTTP 418\)/, gets: 0, posts: 1 },
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
  { name: '403 with 700007 (no permission: the code says so, not the firewall)', command: 'list', handler: (_req, res) => json(res, 403, { code: 700007, msg: 'No permission to access the endpoint.' }), code: EXIT.failure, line: /^error: list keys failed \(HTTP 403 code 700007\): No permission to access the endpoint\. — the master key lacks the permission/, gets: 1, posts: 0 },
  { name: '429 on a POST (never retried)', command: 'create', handler: (_req, res) => json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '0' }), code: EXIT.failure, line: /^error: create key failed \(HTTP 429 code 429\)/, gets: 0, posts: 1 },

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
  { name: 'truncated JSON (whole by its length)', command: 'list', handler: (_req, res) => json(res, 200, '{"subAccount":[{"note":"a","apiK'), code: EXIT.failure, line: /^error: list keys got an unexpected answer from the service \(HTTP 200 with a body that is not JSON\)$/, gets: 1, posts: 0 },
  { name: 'JSON of the wrong shape', command: 'list', handler: (_req, res) => json(res, 200, { keys: [] }), code: EXIT.failure, line: /^error: list keys got an unexpected answer from the service \(subAccount: missing\)$/, gets: 1, posts: 0 },

  // Redirects are never followed (the API key stays with the service); checked against a second server below too.
  { name: 'a redirect (GET)', command: 'list', handler: (_req, res) => json(res, 302, '', { Location: 'http://127.0.0.1:9/elsewhere' }), code: EXIT.failure, line: /^error: list keys failed \(HTTP 302\): a redirect to another origin, http:\/\/127\.0\.0\.1:9 — redirects are not followed \(the API key is not sent elsewhere\): check the base URL$/, gets: 1, posts: 0 },
  { name: 'a redirect (POST)', command: 'create', handler: (_req, res) => json(res, 307, '', { Location: 'http://127.0.0.1:9/elsewhere' }), code: EXIT.failure, line: /^error: create key failed \(HTTP 307\): a redirect to another origin/, gets: 0, posts: 1 },

  // Answers without end, or too large.
  { name: 'an endless body (GET: stopped at 1 MiB, not retried)', command: 'list', handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32)), code: EXIT.failure, line: /^error: list keys failed: the answer \(HTTP 200\) was larger than 1 MiB — reading stopped, not retried$/, gets: 1, posts: 0, within: 2_000, timeoutMs: 10_000, alone: true },
  { name: 'an endless body (transfers: 4 MiB)', command: 'transfers', handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32)), code: EXIT.failure, line: /^error: list transfers failed: the answer \(HTTP 200\) was larger than 4 MiB — reading stopped, not retried$/, gets: 1, posts: 0, within: 2_000, timeoutMs: 10_000, alone: true },
  { name: 'an endless body (POST: unknown)', command: 'create', handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32)), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 200\) could not be read: it was larger than 64 KiB — it may have taken effect/, gets: 0, posts: 1, within: 2_000, timeoutMs: 10_000, alone: true },
  { name: 'a 50 MB body with its Content-Length (refused before reading)', command: 'list', handler: (_req, res) => endless(res, Buffer.alloc(64 * 1024, 32), { 'Content-Length': 50 * MiB }), code: EXIT.failure, line: /^error: list keys failed: the answer \(HTTP 200\) was larger than 1 MiB/, gets: 1, posts: 0, within: 2_000, timeoutMs: 10_000, alone: true },
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
    handler: (_req, res) => json(res, 200, Array.from({ length: 501 }, (_, i) => transfer(i))),
    code: EXIT.failure,
    line: /^error: list transfers got an unexpected answer from the service \(a page of 501 transfers, more than the 500 asked for: the service did not keep to the page size\)$/,
    gets: 1,
    posts: 0,
  },

  // A create whose answer came but cannot be read: the key probably exists.
  { name: 'POST answered 200 with an empty body', command: 'create', handler: (_req, res) => json(res, 200, ''), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 200\) could not be read: it was empty — it may have taken effect; check before sending it again$/, gets: 0, posts: 1 },
  { name: 'POST answered 200 with text that is not JSON', command: 'create', handler: (_req, res) => json(res, 200, 'OK, created\x1b]0;pwned\x07'), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 200\) could not be read: it is not JSON; it began 'OK, created␛\]0;pwned␇' \(21 bytes\) — it may have taken effect/, gets: 0, posts: 1 },
  { name: 'POST answered 200 with the wrong shape', command: 'create', handler: (_req, res) => json(res, 200, [1, 2, 3]), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 200\) could not be read: it is not a created key \(.+\); it began '\[1,2,3\]' \(7 bytes\)/, gets: 0, posts: 1 },
  { name: 'POST answered 200 without secretKey', command: 'create', handler: (_req, res) => json(res, 200, { apiKey: 'mx0vnosecret', createTime: 1 }), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 200\) could not be read: it is not a created key \(secretKey: missing\); it began '\{"apiKey":"mx0vnosecret","createTime":1\}'/, gets: 0, posts: 1 },
  { name: 'POST answered 201 with a secret but no key id (the secret is not echoed)', command: 'create', handler: (_req, res) => json(res, 201, { secretKey: 'NEVER-PRINT-THIS-SECRET' }), code: EXIT.outcomeUnknown, line: /^error: create key: the answer \(HTTP 201\) could not be read: it is not a created key \(apiKey: missing\); it began '\{"secretKey":"\(hidden\)"\}'/, gets: 0, posts: 1 },
  { name: 'POST answered 200 with an error envelope (a refusal, not unknown)', command: 'create', handler: (_req, res) => json(res, 200, { code: 730705, msg: 'too many keys' }), code: EXIT.failure, line: /^error: create key failed \(HTTP 200 code 730705\): too many keys$/, gets: 0, posts: 1 },
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
  { name: 'POST answered 200 with odd fields but key and secret (shown)', command: 'create', handler: (_req, res) => json(res, 200, { ...CREATED, createTime: 'yesterday', note: 42 }), code: EXIT.ok, line: /^$/, gets: 0, posts: 1 },
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
  if (row.code === EXIT.outcomeUnknown) expect(ran.stderr).toContain('the key may exist: check with `broker-console keys list --sub desk`');
  // Whatever went wrong, no secret reaches the operator's screen but the created one on stdout.
  expect(ran.stderr).not.toContain('NEVER-PRINT-THIS-SECRET');
  expect(ran.stderr).not.toContain('fault-matrix-secret');
}

const named = (rows: Row[]) => rows.map((row) => [row.name, row] as const);

describe('fault matrix: every row runs the real command against a hostile server', () => {
  // The first commands run in this process load undici and the commands' modules, which on a busy machine takes
  // more than a row's 400 ms deadline: each command runs once beforehand, so the rows starting together do not
  // pay for it (run one after another, the first row, a retried GET, used to absorb it).
  beforeAll(async () => {
    const server = await hostile(() => undefined, (req, res) => json(res, 200, req.method === 'POST' ? CREATED : (req.url ?? '').includes('universalTransfer') ? [] : KEYS));
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
    expect(ran.errors).toEqual([expect.stringMatching(/^error: list keys failed: could not reach the service \(ECONNREFUSED\) — check the base URL and the network$/)]);
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
      const service = await hostile(onTestFinished, (_req, res) => json(res, status, '', { Location: `${elsewhere.baseUrl}/api/v3/broker/sub-account/apiKey?x=1` }));
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
      const ran = await run('list', raw.baseUrl);
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
    const server = await hostile(onTestFinished, (_req, res, n) => (n === 1 ? json(res, 429, { code: 429, msg: 'slow down' }, { 'Retry-After': '0' }) : json(res, 200, KEYS)));
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
        const cells = text.trimEnd().split('\r\n').slice(1).map((line) => line.split(',')[5]);
        expect(cells).toEqual([...amounts.map((a) => (a === '' ? '' : a)), '0.10']);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Memory under an endless body, measured on the built binary (its peak RSS, reported by the child itself).

describe('memory stays flat under an endless body (the built binary, peak RSS)', () => {
  it('keys list and transfers against an endless body peak within 1.2x of a normal keys list', async ({ onTestFinished }) => {
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
          env: { PATH: process.env.PATH ?? '', RSS_OUT: out, BROKER_BASE_URL: server.baseUrl, BROKER_API_KEY: API_KEY, BROKER_API_SECRET: 's', BROKER_CONSOLE_HOME: join(dir, 'home') },
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
      const normal = [await peak(['keys', 'list', '--sub', 'desk']), await peak(['keys', 'list', '--sub', 'desk'])];
      for (const n of normal) expect(n.code, n.stderr).toBe(0);
      const baseline = Math.max(...normal.map((n) => n.kb));
      mode = 'endless';
      const list = await peak(['keys', 'list', '--sub', 'desk']);
      const transfers = await peak(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE']);
      expect(list.code).toBe(1);
      expect(list.stderr).toMatch(/larger than 1 MiB/);
      expect(transfers.code).toBe(1);
      expect(transfers.stderr).toMatch(/larger than 4 MiB/);
      const report = `baseline ${baseline} KB, endless keys list ${list.kb} KB, endless transfers ${transfers.kb} KB`;
      console.log(`peak RSS: ${report}`);
      expect(list.kb / baseline, report).toBeLessThan(1.2);
      expect(transfers.kb / baseline, report).toBeLessThan(1.2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
