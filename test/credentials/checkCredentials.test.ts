// The credential check before anything is stored: it passes only on an answer that proves the key and the
// signature; an answer that proves neither (a rate limit, a ban, a firewall, the clock, an IP not linked)
// fails it, against a real server on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCredentials } from '../../src/credentials/checkCredentials';
import { ownLoopbackHost } from '../loopbackHost';

let server: Server;
let baseUrl = '';
/** What the server answers next: a status and a body. */
let answer: { status: number; body: unknown } = { status: 200, body: [] };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.status === 429 || answer.status === 418 ? { 'Retry-After': '1' } : {}) });
    res.end(JSON.stringify(answer.body));
  });
  const host = ownLoopbackHost();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const check = () => checkCredentials({ baseUrl, apiKey: 'mx0vcheckkey', secretKey: 'check-secret' }, { timeoutMs: 3000 });

describe('checkCredentials', () => {
  it.each([
    ['a page of transfers', 200, []],
    ['no permission for the endpoint (700007)', 403, { code: 700007, msg: 'No permission to access the endpoint.' }],
    ['not a broker account, code as a string (730603)', 400, { code: '730603', msg: 'This account does not support broker sub-account' }],
  ])('passes on %s: the key and the signature got through', async (_what, status, body) => {
    answer = { status, body };
    expect(await check()).toMatchObject({ ok: true });
  });

  it.each([
    ['the firewall (403)', 403, { code: 403, msg: 'Forbidden' }],
    ['the timestamp (700003)', 400, { code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' }],
    ['an IP not linked (700006)', 400, { code: 700006, msg: 'IP non white list' }],
    ['a missing API key header (400)', 400, { code: 400, msg: 'api key required' }],
    ['a content type (700013)', 400, { code: 700013, msg: 'Invalid content Type.' }],
    ['a parameter refused (700004), which may come before the signature is checked', 400, { code: 700004, msg: "Mandatory parameter 'x' was not sent" }],
    ['illegal characters in a parameter (700008)', 400, { code: 700008, msg: "Illegal characters found in parameter 'x'" }],
  ])('fails on %s, which proves neither the key nor the signature', async (_what, status, body) => {
    answer = { status, body };
    const checked = await check();
    expect(checked).toMatchObject({ ok: false, reason: 'unverified' });
    // Said as the check it is, never as the transfer list the check happens to ask for.
    expect(checked.ok === false && checked.message).toMatch(/^the credentials could not be checked: the connection check failed[ :]/);
    expect(checked.ok === false && checked.message).not.toContain('transfers');
  });

  it('fails on a wrong secret (602 as 700002) and an unknown key (10072), naming the field', async () => {
    answer = { status: 400, body: { code: 602, msg: 'Signature verification failed' } };
    expect(await check()).toMatchObject({ ok: false, reason: 'bad-signature', field: 'secretKey' });
    answer = { status: 401, body: { code: '10072', msg: 'Api key info invalid' } };
    expect(await check()).toMatchObject({ ok: false, reason: 'unknown-key', field: 'apiKey' });
  });

  it('a proxy that refuses the connection is named as the one to check, not the base URL', async () => {
    // A port nothing listens on: a proxy that is not running.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const checked = await checkCredentials(
      { baseUrl: 'http://127.0.0.1:9', apiKey: 'mx0vcheckkey', secretKey: 'check-secret', proxy: { url: proxyUrl, shown: proxyUrl, source: '--proxy' } },
      { timeoutMs: 3000 },
    );
    expect(checked).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(checked.ok === false && checked.message).toBe(
      `could not reach http://127.0.0.1:9 through the proxy ${proxyUrl} (ECONNREFUSED): check the proxy (--proxy, the profile, HTTPS_PROXY), then the base URL`,
    );
  });

  // Last: a 429 holds this base URL back a second, and a ban (418) holds it for the rest of the process.
  it('fails on a rate limit (429) and on a ban (418): nothing is stored on an answer that proves nothing', async () => {
    answer = { status: 429, body: { code: 429, msg: 'Too many requests' } };
    expect(await check()).toMatchObject({ ok: false, reason: 'unverified' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    answer = { status: 418, body: { code: 418, msg: 'banned' } };
    expect(await check()).toMatchObject({ ok: false });
  });
});
