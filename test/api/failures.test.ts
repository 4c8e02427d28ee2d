// A try that got no readable answer: whether the request may have reached the service is decided by whether a
// byte of it was written, not by the error's code.
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../src/api/failures';

const where = { origin: 'http://127.0.0.1:9', via: undefined, timeoutMs: 10_000 };
const errorWith = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('classifyFailure', () => {
  for (const code of ['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNREFUSED']) {
    it(`${code} before a byte was written: a create that did not happen`, () => {
      const { error } = classifyFailure(errorWith(code), { operation: 'create key', method: 'POST', nothingDone: 'no key was created' }, where, {
        timedOut: false,
        status: undefined,
        written: false,
      });
      expect(error.kind).toBe('network');
      expect(error.stage).toBe('connect');
      expect(error.toLine()).toContain('no key was created');
    });

    it(`${code} after the create was written (an ICMP unreachable on a kept-alive connection): outcome unknown`, () => {
      const { error, retryable } = classifyFailure(errorWith(code), { operation: 'create key', method: 'POST', nothingDone: 'no key was created' }, where, {
        timedOut: false,
        status: undefined,
        written: true,
      });
      expect(error.kind).toBe('outcome-unknown');
      expect(error.toLine()).not.toContain('no key was created');
      expect(retryable).toBe(false);
    });
  }
});

describe('a GET that timed out on its last try', () => {
  it('says "on each of 3 tries" only when every try timed out', async ({ onTestFinished }) => {
    const { createServer } = await import('node:http');
    const { createBrokerApi } = await import('../../src/api/operations');
    const run = async (answers: Array<'503' | 'reset' | 'silent'>): Promise<string> => {
      let n = 0;
      const server = createServer((req, res) => {
        const answer = answers[Math.min(n++, answers.length - 1)];
        if (answer === '503') {
          res.writeHead(503, { 'Content-Type': 'application/json' });
          res.end('{"code":503,"msg":"busy"}');
        } else if (answer === 'reset') req.socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      onTestFinished(() => {
        server.closeAllConnections();
        server.close();
      });
      const { port } = server.address() as { port: number };
      const api = createBrokerApi({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: 'mx0vtimeouttimeout',
        secretKey: 's3cret',
        timeoutMs: 400,
        retryBaseDelayMs: 10,
      });
      onTestFinished(() => api.close());
      return api.listSubAccountKeys('desk01').then(
        () => 'answered',
        (error: unknown) => (error as Error).message,
      );
    };
    expect(await run(['silent'])).toMatch(/no answer within 0\.4 s, on each of 3 tries/);
    const mixed = await run(['503', 'reset', 'silent']);
    expect(mixed).toMatch(/no answer within 0\.4 s/);
    expect(mixed).not.toContain('on each of');
  });
});
