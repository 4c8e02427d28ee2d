// Hostile transfer-history servers for the "exports end" tests: real HTTP on 127.0.0.1, no signature checks.
// endless     every page is full, with transfers never sent before (a history that never ends)
// alternate   odd pages bring page A, even pages page B (beats a "same as the previous page" guard)
// cycle3      pages A, B, C, A, B, C, … (a repeat of a page two back)
// ignorePage  every page is page 1 (a service that ignores the page parameter)
// finite      `total` transfers, then short pages (a well-behaved service)
// arriving    `total` transfers h-0 (newest) … newest first, and 3 more arrive on top once page 1 is answered
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ownLoopbackHost } from '../loopbackHost';

export type PagingMode = 'endless' | 'alternate' | 'cycle3' | 'ignorePage' | 'finite' | 'arriving';

export interface PagingServer {
  baseUrl: string;
  /** Transfer-history requests answered so far. */
  requests(): number;
  /** page= of each request, in order. */
  pagesAsked(): number[];
  close(): Promise<void>;
}

export function wireTransfer(tranId: string, timestamp: number): Record<string, unknown> {
  return {
    tranId,
    fromAccount: 'master',
    toAccount: 'desk-1',
    clientTranId: '',
    asset: 'USDT',
    amount: '1.5',
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp,
  };
}

// JSON.stringify(wireTransfer(id, timestamp)) from a template: the "endless" server sends a million rows.
const [jsonBeforeId = '', jsonAfterId = ''] = JSON.stringify(wireTransfer('TRAN-ID', 0)).replace(/0}$/, '').split('"TRAN-ID"');
export const wireTransferJson = (tranId: string, timestamp: number): string => `${jsonBeforeId}${JSON.stringify(tranId)}${jsonAfterId}${timestamp}}`;
// The same transfer without the text fields the service may leave out (they read as ''): 40% fewer bytes for the
// million-row run to send, parse and check, which is about the page bound, not the fields.
const leanTransferJson = (tranId: string, timestamp: number): string =>
  `{"tranId":${JSON.stringify(tranId)},"asset":"USDT","amount":"1.5","fromAccountType":"SPOT","toAccountType":"FUTURE","status":"SUCCESS","timestamp":${timestamp}}`;

/**
 * A page of `count` rows named `${name}-${i}` (plain names: nothing to escape), timestamps from `newest` down, as
 * `rowJson` writes them, in bytes: the text from each row's index to its timestamp is made once per index, not per row.
 */
function pageBodies(rowJson: (tranId: string, timestamp: number) => string): (name: string, count: number, newest: number) => Buffer {
  const [head = '', tail = ''] = rowJson('TRAN-ID', 0).replace(/0}$/, '').split('"TRAN-ID"');
  const afterName: string[] = [];
  return (name, count, newest) => {
    let body = '[';
    for (let i = 0; i < count; i += 1) {
      afterName[i] ??= `-${i}"${tail}`;
      body += `${i === 0 ? '' : ','}${head}"${name}${afterName[i]}${newest - i}}`;
    }
    return Buffer.from(`${body}]`);
  };
}

/** `failFrom`: from this page on, every request is answered 500 (a service failing part way). */
export async function startPagingServer(mode: PagingMode, options: { total?: number; lean?: boolean; failFrom?: number } = {}): Promise<PagingServer> {
  const pageBody = pageBodies(options.lean ? leanTransferJson : wireTransferJson);
  const asked: number[] = [];
  const base = 1_763_726_400_000;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.endsWith('/universalTransfer')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":404,"msg":"Not Found"}');
      return;
    }
    const page = Number(url.searchParams.get('page') ?? '1');
    const limit = Number(url.searchParams.get('limit') ?? '500');
    asked.push(page);
    if (options.failFrom !== undefined && page >= options.failFrom) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":500,"msg":"Internal Server Error"}');
      return;
    }
    if (mode === 'arriving') {
      const arrived = asked.length > 1 ? ['n-2', 'n-1', 'n-0'] : [];
      const history = [...arrived, ...Array.from({ length: options.total ?? 0 }, (_, i) => `h-${i}`)];
      const rows = history.slice((page - 1) * limit, page * limit).map((id, i) => wireTransferJson(id, base - (page - 1) * limit - i));
      res.writeHead(200, { 'content-type': 'application/json' }).end(`[${rows.join(',')}]`);
      return;
    }
    let name: string;
    let count = limit;
    switch (mode) {
      case 'endless':
        name = `p${page}`;
        break;
      case 'alternate':
        name = page % 2 === 1 ? 'A' : 'B';
        break;
      case 'cycle3':
        name = ['A', 'B', 'C'][(page - 1) % 3] ?? 'A';
        break;
      case 'ignorePage':
        name = 'A';
        break;
      case 'finite': {
        name = `p${page}`;
        count = Math.max(0, Math.min(limit, (options.total ?? 0) - (page - 1) * limit));
        break;
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(pageBody(name, count, base - page * 1000));
  });
  // A host of its own: the pace a client keeps for this base URL (a lifted serviceLimit) is this server's alone.
  const host = ownLoopbackHost();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}`,
    requests: () => asked.length,
    pagesAsked: () => [...asked],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Environment credentials for a command run against a paging server (it checks no signature). */
export function pagingEnv(server: PagingServer): Record<string, string> {
  return { BROKER_BASE_URL: server.baseUrl, BROKER_API_KEY: 'hostile-key', BROKER_API_SECRET: 'hostile-secret' };
}
