// Servers for the network tests, all on 127.0.0.1: a proxy (CONNECT tunnels and plain forward requests) that
// counts what went through it, TLS servers with certificates made for the test (a CA, a certificate it signed for
// 127.0.0.1 and one for another name, a self-signed one), and TCP servers that never finish a TLS handshake.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Socket, connect as netConnect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OnFinished } from '../sandbox/helpers';

export interface Pem {
  key: string;
  cert: string;
}

export interface TestCertificates {
  /** The test CA's certificate file (what NODE_EXTRA_CA_CERTS is given). */
  caFile: string;
  /** Signed by the CA, for IP 127.0.0.1. */
  loopback: Pem;
  /** Signed by the CA, for wrong.example.test only. */
  otherName: Pem;
  /** Self-signed, for IP 127.0.0.1. */
  selfSigned: Pem;
  remove(): void;
}

/**
 * Certificates made with the openssl command line (P-256 keys, valid two days). openssl is on every Debian-based
 * machine this project runs on; Node alone can make keys but not sign an X.509 certificate.
 */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'bc-certs-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=broker-console test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  const signed = (name: string, san: string): Pem => {
    writeFileSync(file(`${name}.ext`), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`);
    openssl('req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
    return { key: readFileSync(file(`${name}.key`), 'utf8'), cert: readFileSync(file(`${name}.pem`), 'utf8') };
  };
  const loopback = signed('loopback', 'IP:127.0.0.1');
  const otherName = signed('other', 'DNS:wrong.example.test');
  openssl(
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  );
  const selfSigned = { key: readFileSync(file('self.key'), 'utf8'), cert: readFileSync(file('self.pem'), 'utf8') };
  return { caFile: file('ca.pem'), loopback, otherName, selfSigned, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const listen = async (server: { listen(port: number, host: string, cb: () => void): unknown; address(): AddressInfo | string | null }): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

export interface TlsFront {
  baseUrl: string;
  /** HTTP requests that arrived over a finished handshake. */
  requests: () => number;
  /** TCP connections accepted (a refused handshake still counts one). */
  connections: () => number;
  close(): Promise<void>;
}

/**
 * An https:// server on 127.0.0.1 with this certificate: each request is relayed to `upstream` (an http:// base
 * URL on loopback, e.g. the sandbox's), or answered 200 {} without one.
 */
export async function tlsFront(onFinished: OnFinished, pem: Pem, upstream?: string): Promise<TlsFront> {
  let requests = 0;
  let connections = 0;
  const server = createHttpsServer(pem, (req, res) => {
    requests += 1;
    if (upstream === undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    relay(req, res, new URL(upstream));
  });
  server.on('connection', () => (connections += 1));
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  const front: TlsFront = {
    baseUrl: `https://127.0.0.1:${port}`,
    requests: () => requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  onFinished(() => front.close());
  return front;
}

/** Relays one request to a loopback upstream (path and headers kept, hop-by-hop proxy headers dropped). */
function relay(req: IncomingMessage, res: ServerResponse, upstream: URL, path = req.url ?? '/'): void {
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  req.pipe(out);
}

/** A TCP server on 127.0.0.1 that accepts and then never answers (a TLS handshake that never completes), or resets at the first byte. */
export async function silentTcp(
  onFinished: OnFinished,
  behaviour: 'never' | 'reset',
): Promise<{ baseUrl: string; connections: () => number; bytes: () => number }> {
  let connections = 0;
  let bytes = 0;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (behaviour === 'reset') socket.resetAndDestroy();
    });
  });
  const port = await listen(server);
  onFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { baseUrl: `https://127.0.0.1:${port}`, connections: () => connections, bytes: () => bytes };
}

export interface TestProxy {
  url: string;
  /** CONNECT tunnels opened, and plain requests forwarded. */
  tunnels: number;
  forwarded: number;
  /** Requests refused (407 when credentials are required and missing or wrong). */
  refused: number;
  /** The target of each CONNECT or forwarded request (host:port), in order. */
  targets: string[];
  /** The Proxy-Authorization header of each request, as received. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** A Proxy-Authorization value required of every request (407 otherwise). */
  requireAuthorization?: string;
  /** Where a target goes (any host, e.g. a name that does not resolve, is sent there). Default: the target's own address and port. */
  routeTo?: (target: string) => { host: string; port: number };
}

/**
 * A proxy on 127.0.0.1 in the two ways clients use one: CONNECT host:port (a tunnel, for https://) and a plain
 * request with an absolute URL (forwarded, for http://). Whatever the target's name, the proxy only ever
 * connects to loopback: the target's own address when it is one of 127.0.0.0/8 (test servers have hosts of
 * their own there), else 127.0.0.1.
 */
export async function testProxy(onFinished: OnFinished, options: ProxyOptions = {}): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  const portFor = (target: string): number => options.routeTo?.(target).port ?? Number(target.split(':').pop());
  const hostFor = (target: string): string => {
    const host = options.routeTo?.(target).host ?? target.slice(0, target.lastIndexOf(':'));
    return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ? host : '127.0.0.1';
  };
  const allowed = (auth: string | undefined): boolean => options.requireAuthorization === undefined || auth === options.requireAuthorization;
  const server = createServer((req, res) => {
    const auth = req.headers['proxy-authorization'];
    state.authorizations.push(auth);
    if (!allowed(auth)) {
      state.refused += 1;
      req.resume();
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': '0' }).end();
      return;
    }
    const target = new URL(req.url ?? '/');
    state.forwarded += 1;
    state.targets.push(target.host);
    relay(req, res, new URL(`http://${hostFor(target.host)}:${portFor(target.host)}`), `${target.pathname}${target.search}`);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => undefined);
    const auth = req.headers['proxy-authorization'];
    state.authorizations.push(auth);
    if (!allowed(auth)) {
      state.refused += 1;
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = req.url ?? '';
    state.tunnels += 1;
    state.targets.push(target);
    const upstream = netConnect(portFor(target), hostFor(target), () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  const port = await listen(server);
  const state: TestProxy = {
    url: `http://127.0.0.1:${port}`,
    tunnels: 0,
    forwarded: 0,
    refused: 0,
    targets: [],
    authorizations: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  onFinished(() => state.close());
  return state;
}
