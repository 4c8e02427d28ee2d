// An interim "HTTP/1.1 100 Continue" the service sends before its answer, unasked: undici takes it for a
// broken connection (SocketError "bad response") and has no option to allow it, so a create would lose its secret.
// Through the pool's public `connect` option, each connection's incoming bytes pass a filter that drops such an
// interim answer where an answer starts; everything else reaches undici untouched. Other 1xx (102, 103) undici
// already skips, and they pass through.
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';

/** What undici's `connect` option is called with (a subset of buildConnector.Options). */
interface ConnectTarget {
  hostname: string;
  protocol: string;
  port: string;
  servername?: string | null;
  localAddress?: string | null;
}
type ConnectCallback = (...args: [null, Socket | TLSSocket] | [Error, null]) => void;

/** undici's default connect timeout. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** An interim answer longer than this is not one: it is passed on, for undici to judge. */
const INTERIM_LIMIT = 16 * 1024;
const CONTINUE_LINES = ['HTTP/1.1 100', 'HTTP/1.0 100'];
const END_OF_HEADERS = Buffer.from('\r\n\r\n');

type Verdict = 'continue' | 'answer' | 'undecided';

/** Whether the bytes that start an answer are a 100 Continue, something else, or too few to say. */
function verdictOf(head: Buffer): Verdict {
  const probe = head.toString('latin1', 0, Math.min(head.length, 13));
  const line = probe.slice(0, 12);
  if (!CONTINUE_LINES.some((start) => start.startsWith(line))) return 'answer';
  if (probe.length < 13) return 'undecided';
  return probe[12] === ' ' || probe[12] === '\r' ? 'continue' : 'answer';
}

/**
 * A connection as undici sees it: writes go to the socket as they are; reads come from it, except an interim
 * 100 Continue where an answer starts (after each request written, before its answer's first byte).
 */
class ContinueFilter extends Duplex {
  readonly #socket: Socket;
  /** The next bytes read start an answer (a request was written since the last one began; the pool sends one at a time). */
  #atAnswer = false;
  /** Bytes held while it is not yet clear what the answer starts with. */
  #held: Buffer | undefined;

  constructor(socket: Socket) {
    super({ allowHalfOpen: false, readableHighWaterMark: 64 * 1024 });
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#take(chunk));
    socket.on('end', () => {
      if (this.#held) this.#pass(this.#held);
      this.#held = undefined;
      this.push(null);
    });
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return this.#socket.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.#socket.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.#socket.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.#socket.localAddress;
  }
  get localPort(): number | undefined {
    return this.#socket.localPort;
  }
  get bytesRead(): number {
    return this.#socket.bytesRead;
  }
  get bytesWritten(): number {
    return this.#socket.bytesWritten;
  }
  get timeout(): number | undefined {
    return this.#socket.timeout;
  }
  get alpnProtocol(): string | false | null | undefined {
    return (this.#socket as Partial<TLSSocket>).alpnProtocol;
  }
  ref(): this {
    this.#socket.ref();
    return this;
  }
  unref(): this {
    this.#socket.unref();
    return this;
  }

  override _read(): void {
    this.#socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#atAnswer = true;
    this.#socket.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#socket.destroy(error ?? undefined);
    callback(error);
  }

  #pass(chunk: Buffer): void {
    if (chunk.length > 0 && !this.push(chunk)) this.#socket.pause();
  }

  #take(chunk: Buffer): void {
    if (!this.#atAnswer) return this.#pass(chunk);
    let head = this.#held ? Buffer.concat([this.#held, chunk]) : chunk;
    this.#held = undefined;
    for (;;) {
      const verdict = verdictOf(head);
      if (verdict === 'answer') {
        this.#atAnswer = false;
        return this.#pass(head);
      }
      const end = verdict === 'continue' ? head.indexOf(END_OF_HEADERS) : -1;
      if (end < 0) {
        if (head.length > INTERIM_LIMIT) {
          this.#atAnswer = false;
          return this.#pass(head);
        }
        this.#held = head;
        return;
      }
      // The interim answer is dropped whole; what follows it starts the answer (or another interim one).
      head = head.subarray(end + END_OF_HEADERS.length);
      if (head.length === 0) return;
    }
  }
}

/**
 * undici's `connect` option: a TCP (or TLS) connection as its own connector makes it (no delay, keep-alive
 * probes, a connect timeout (undici's 10 s unless given), TLS sessions resumed), seen through a ContinueFilter.
 */
export function connectSkippingContinue(connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): (target: ConnectTarget, callback: ConnectCallback) => void {
  const sessions = new Map<string, Buffer>();
  return (target, callback) => {
    const net = process.getBuiltinModule('node:net');
    const https = target.protocol === 'https:';
    const port = Number(target.port) || (https ? 443 : 80);
    const localAddress = target.localAddress ?? undefined;
    let socket: Socket;
    if (https) {
      const tls = process.getBuiltinModule('node:tls');
      const servername = target.servername ?? (net.isIP(target.hostname) === 0 ? target.hostname : undefined);
      const key = servername ?? target.hostname;
      const session = sessions.get(key);
      const secure = tls.connect({
        host: target.hostname,
        port,
        ALPNProtocols: ['http/1.1'],
        ...(servername === undefined ? {} : { servername }),
        ...(session === undefined ? {} : { session }),
        ...(localAddress === undefined ? {} : ({ localAddress } as object)),
      });
      secure.on('session', (session: Buffer) => sessions.set(key, session));
      socket = secure;
    } else {
      socket = net.connect({ host: target.hostname, port, ...(localAddress === undefined ? {} : { localAddress }) });
    }
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('error', settle);
      if (error) {
        socket.destroy();
        callback(error, null);
      } else {
        // A Duplex, not a net.Socket: undici uses only what ContinueFilter gives (stream, addresses, ref/unref).
        callback(null, new ContinueFilter(socket) as unknown as Socket);
      }
    };
    // Named as undici names its own connect timeout: nothing was sent.
    const timer = setTimeout(
      () => settle(Object.assign(new Error(`connect timed out after ${connectTimeoutMs} ms`), { code: 'UND_ERR_CONNECT_TIMEOUT' })),
      connectTimeoutMs,
    );
    socket.once(https ? 'secureConnect' : 'connect', () => settle(null));
    socket.once('error', settle);
  };
}
