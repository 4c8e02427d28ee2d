// The hosts the servers that may meet a ban listen on: a new one each time, on loopback, and a ban met there
// leaves a server on the same port of 127.0.0.1 (where every other test server listens) alone.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createBrokerApi } from '../src/api/operations';
import { ownLoopbackHost } from './loopbackHost';
import type { OnFinished } from './sandbox/helpers';

const KEYS = { subAccount: [{ note: 'n', apiKey: 'mx0vlisted', permissions: 'SPOT_ACCOUNT_READ', ip: '', creatTime: 1_763_726_400_000 }] };

async function listening(onFinished: OnFinished, host: string, port: number, status: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 418 ? { 'Retry-After': '600' } : {}) });
    res.end(status === 418 ? '{"code":-1003,"msg":"banned"}' : JSON.stringify(KEYS));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  onFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

describe('a loopback host of its own', () => {
  it('is new each time, in 127.0.0.0/8 and never 127.0.0.x', () => {
    const hosts = Array.from({ length: 600 }, () => ownLoopbackHost());
    expect(new Set(hosts).size).toBe(hosts.length);
    for (const host of hosts) {
      const octets = host.split('.').map(Number);
      expect(octets[0], host).toBe(127);
      expect(octets[1], host).toBeGreaterThanOrEqual(1);
      for (const octet of octets.slice(1)) expect(octet, host).toBeLessThanOrEqual(254);
    }
  });

  it('takes a server, and a ban met there does not hold back a client of 127.0.0.1 on the same port', async ({ onTestFinished }) => {
    const plain = await listening(onTestFinished, '127.0.0.1', 0, 200);
    const { port } = plain.address() as AddressInfo;
    const host = ownLoopbackHost();
    await listening(onTestFinished, host, port, 418);
    const banned = createBrokerApi({ baseUrl: `http://${host}:${port}`, apiKey: 'mx0vHOSTS', secretKey: 's' });
    const other = createBrokerApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'mx0vHOSTS', secretKey: 's' });
    onTestFinished(() => Promise.all([banned.close(), other.close()]).then(() => undefined));
    await expect(banned.listSubAccountKeys('desk')).rejects.toMatchObject({ kind: 'banned' });
    await expect(banned.listSubAccountKeys('desk')).rejects.toMatchObject({ kind: 'banned', sent: false });
    expect(await other.listSubAccountKeys('desk')).toHaveLength(1);
  });
});
