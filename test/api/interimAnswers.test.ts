// An unsolicited interim answer before the real one, on a raw TCP server (node:net on 127.0.0.1). undici alone
// takes a 100 Continue for a broken connection; through connectSkippingContinue the answer after it is read, and
// the next request on the connection is read as usual.
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { connectSkippingContinue } from '../../src/api/interimAnswers';

const ANSWER = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"a":"bcd"}';

/** A server whose every answer is preceded by `before`, written in pieces of `piece` bytes (0: at once). */
async function serving(before: string, piece = 0): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', () => {
      const text = before + ANSWER;
      if (piece === 0) socket.write(text);
      else for (let i = 0; i < text.length; i += piece) setTimeout(() => socket.write(text.slice(i, i + piece)), i);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function twoRequests(pool: Pool): Promise<string[]> {
  const texts: string[] = [];
  for (const method of ['POST', 'GET'] as const) {
    const answer = await pool.request({ method, path: '/x', body: method === 'POST' ? '{}' : undefined });
    texts.push(`${answer.statusCode} ${await answer.body.text()}`);
  }
  return texts;
}

describe('an interim answer before the answer', () => {
  it('undici alone: a 100 Continue breaks the request (bad response); 102 and 103 are skipped', async () => {
    for (const [code, outcome] of [
      [100, 'UND_ERR_SOCKET'],
      [102, '200'],
      [103, '200'],
    ] as const) {
      const server = await serving(`HTTP/1.1 ${code} Info\r\n\r\n`);
      const pool = new Pool(server.origin);
      try {
        const got = await pool.request({ method: 'POST', path: '/x', body: '{}' }).then(
          (answer) => String(answer.statusCode),
          (error: { code?: string }) => error.code,
        );
        expect(got, String(code)).toBe(outcome);
      } finally {
        await pool.close();
        await server.close();
      }
    }
  });

  it.each([
    ['a 100 Continue', 'HTTP/1.1 100 Continue\r\n\r\n', 0],
    ['a 100 without a reason, byte by byte', 'HTTP/1.1 100\r\n\r\n', 1],
    ['two of them, with headers, in pieces of 7 bytes', 'HTTP/1.0 100 Continue\r\nx-a: 1\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n', 7],
    ['a 102 Processing and a 103 Early Hints', 'HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n', 0],
  ])('through connectSkippingContinue, %s: the answer is read, and the next one too', async (_name, before, piece) => {
    const server = await serving(before, piece);
    const pool = new Pool(server.origin, { connect: connectSkippingContinue() });
    try {
      expect(await twoRequests(pool)).toEqual(['200 {"a":"bcd"}', '200 {"a":"bcd"}']);
    } finally {
      await pool.close();
      await server.close();
    }
  });

  it('a refused connection is still refused, as before (nothing sent)', async () => {
    const server = await serving('');
    const origin = server.origin;
    await server.close();
    const pool = new Pool(origin, { connect: connectSkippingContinue() });
    try {
      await expect(pool.request({ method: 'POST', path: '/x', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await pool.close();
    }
  });
});
