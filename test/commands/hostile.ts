// A hostile service for the output tests: a tiny HTTP server on 127.0.0.1 that answers the three operations
// with escape sequences, controls, bidi overrides, formulas and huge fields in every text it sends (the
// client signs as usual; this server does not check). What it answers is set by the test.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';

/** Hostile strings a service (or a proxy in front of it) could put in any field. */
export const HOSTILE: readonly [name: string, text: string][] = [
  ['OSC 52 clipboard write', '\x1b]52;c;cm0gLXJmIH4K\x07'],
  ['OSC 0 title', '\x1b]0;pwned\x07'],
  ['CSI clear screen', '\x1b[2J\x1b[H'],
  ['DCS', '\x1bPq#0;2;0;0;0\x1b\\'],
  ['APC', '\x1b_Gf=100;payload\x1b\\'],
  ['lone ESC', 'a\x1bb'],
  ['BEL', 'ding\x07'],
  ['NUL', 'nul\x00here'],
  ['CR-LF', 'first line\r\nerror: fake second line'],
  ['DEL', 'del\x7f'],
  ['C1 CSI', 'c1\u009b2J'],
  ['RLO', 'abc\u202Etxt.exe'],
  ['LRI', '\u2066isolate\u2069'],
  ['line separator', 'a\u2028b'],
  ['CJK', '交易机器人'],
  ['emoji', '👩‍💻 desk 🇯🇵'],
];

/** Formulas a spreadsheet would run. */
export const FORMULAS: readonly string[] = ['=HYPERLINK("http://evil.example","click")', "+cmd|' /C calc'!A0", '@SUM(A1:A9)', '-2+3', '\tTAB', '\rCR'];

export const HUGE = `\x1b]0;${'A'.repeat(200_000)}\x07`;

/** What reaches a terminal must hold none of these: C0 (ESC, BEL, NUL, CR, LF…), DEL, C1, U+2028/9, bidi controls. */
export const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The same, with the line feeds that end lines allowed. */
export const UNSAFE_IN_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export interface HostileServer {
  baseUrl: string;
  env: Record<string, string>;
  /** Wire records of the key list (4.1). */
  keys: Record<string, unknown>[];
  /** The created key's wire record (4.2). */
  created: Record<string, unknown>;
  /** Wire records of the transfer history (4.3). */
  transfers: Record<string, unknown>[];
  /** When set, every request gets this answer instead. */
  failure: { status: number; body: string; contentType?: string } | undefined;
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const state: Omit<HostileServer, 'baseUrl' | 'env' | 'close'> = { keys: [], created: {}, transfers: [], failure: undefined };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const send = (status: number, body: string, contentType = 'application/json'): void => {
        res.writeHead(status, { 'Content-Type': contentType });
        res.end(body);
      };
      if (state.failure) return send(state.failure.status, state.failure.body, state.failure.contentType);
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path.endsWith('/universalTransfer')) return send(200, JSON.stringify(state.transfers));
      if (path.endsWith('/apiKey') && req.method === 'POST') return send(200, JSON.stringify(state.created));
      if (path.endsWith('/apiKey')) return send(200, JSON.stringify({ subAccount: state.keys }));
      return send(404, JSON.stringify({ code: 404, msg: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return Object.assign(state, {
    baseUrl,
    env: { BROKER_BASE_URL: baseUrl, BROKER_API_KEY: 'mx0vtestkey', BROKER_API_SECRET: 'testsecret' },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A captured stream that says it is a terminal, as process.stdout does on a TTY. */
export function fakeTty(): { stream: PassThrough & { isTTY: boolean; columns: number }; text(): string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** RFC 4180 records (CRLF-terminated, quotes doubled, CR and LF allowed inside quotes). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] ?? '';
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('CSV does not end with CRLF');
  return records;
}
