import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BrokerError } from '../../src/api/errors';
import { readSuccess, serviceErrorFromBody, shortLineFromText } from '../../src/api/answers';
import { splitBaseUrl } from '../../src/api/pools';
import { withoutOwnCredentials } from '../../src/api/redact';
import type { OnFinished } from '../sandbox/helpers';
import { createBrokerApi } from '../../src/api/operations';
import { splitCommaList, toSubAccountKey, toTransfer } from '../../src/api/operations';
import { WireCreatedKey, WireKeyList, WireTransferList } from '../../src/api/schemas';

function caught(fn: () => unknown): BrokerError {
  try {
    fn();
  } catch (error) {
    if (error instanceof BrokerError) return error;
    throw error;
  }
  throw new Error('expected a BrokerError');
}

describe('serviceErrorFromBody', () => {
  it('reads the {"code":int,"msg":…} envelope', () => {
    const error = serviceErrorFromBody('list keys', 400, '{"code":700002,"msg":"Signature for this request is not valid."}');
    expect(error).toMatchObject({ kind: 'service', status: 400, code: 700002, serviceMessage: 'Signature for this request is not valid.' });
    expect(error.message).toBe(
      'list keys failed (HTTP 400 code 700002): Signature for this request is not valid. — check the API secret (and the profile signing option); an expired API key gets this answer too',
    );
  });

  it('reads the other envelope {"code":"0","message":"",…}', () => {
    const error = serviceErrorFromBody('list keys', 502, '{"code":"0","message":"","data":null,"success":false}');
    expect(error).toMatchObject({ kind: 'service', status: 502, code: 0, serviceMessage: undefined });
    const coded = serviceErrorFromBody('list keys', 400, '{"code":"730702","message":"bad ip"}');
    expect(coded).toMatchObject({ code: 730702, serviceMessage: 'bad ip' });
  });

  it('keeps one short line of an HTML page, never the page', () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{}</style></head><body>${'<p>filler</p>'.repeat(500)}</body></html>`;
    const error = serviceErrorFromBody('list keys', 502, page);
    expect(error).toMatchObject({ kind: 'service', status: 502, serviceMessage: '502 Bad Gateway' });
    expect(error.message).not.toContain('<');
    expect(error.message.length).toBeLessThan(200);
  });

  it('shortens untitled text bodies to one line', () => {
    const line = shortLineFromText(`<h1>Service\nUnavailable</h1>\n${'x'.repeat(1000)}`);
    expect(line?.startsWith('Service Unavailable x')).toBe(true);
    expect(line?.length).toBeLessThanOrEqual(120);
    expect(serviceErrorFromBody('op', 500, '').serviceMessage).toBeUndefined();
  });

  it('carries retryAfterMs', () => {
    expect(serviceErrorFromBody('op', 429, '{"code":429,"msg":"slow down"}', 3000).retryAfterMs).toBe(3000);
  });
});

describe('readSuccess', () => {
  const schema = v.object({ n: v.number('a number') });

  it('returns the parsed value', () => {
    expect(readSuccess('op', 200, '{"n":1,"extra":true}', schema)).toEqual({ n: 1 });
  });

  it('calls a non-JSON 200 malformed', () => {
    expect(caught(() => readSuccess('op', 200, '{"n":', schema))).toMatchObject({ kind: 'malformed', status: 200 });
  });

  it('calls JSON of the wrong shape malformed, naming the field but not its value', () => {
    const error = caught(() => readSuccess('op', 200, '{"n":"top-secret-value"}', schema));
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('n: expected a number');
    expect(error.message).not.toContain('top-secret-value');
  });

  it('unwraps a success envelope and reports an error envelope sent with 200', () => {
    expect(readSuccess('op', 200, '{"code":0,"data":{"n":2}}', schema)).toEqual({ n: 2 });
    expect(caught(() => readSuccess('op', 200, '{"code":700007,"msg":"no permission"}', schema))).toMatchObject({ kind: 'service', code: 700007 });
  });
});

describe('splitBaseUrl', () => {
  it('keeps a path prefix without its trailing slash', () => {
    expect(splitBaseUrl('http://127.0.0.1:8080/proxy/')).toEqual({ origin: 'http://127.0.0.1:8080', prefix: '/proxy' });
    expect(splitBaseUrl('https://api.example.com')).toEqual({ origin: 'https://api.example.com', prefix: '' });
  });

  it('rejects what is not an http(s) URL', () => {
    expect(() => splitBaseUrl('ftp://x')).toThrow(/http/);
    expect(() => splitBaseUrl('not a url')).toThrow(/valid URL/);
  });
});

describe('wire → domain mapping', () => {
  it('maps a listed key (creatTime, comma strings, absent ip)', () => {
    const wire = v.parse(WireKeyList, {
      subAccount: [
        { note: 'n', apiKey: 'k1', permissions: 'SPOT_ACCOUNT_READ, SPOT_ACCOUNT_WRITE,', ip: '1.2.3.4,5.6.7.8', creatTime: 1_700_000_000_000, extra: 1 },
        { apiKey: 'k2', permissions: 'read_only', creatTime: '1700000000001' },
      ],
    });
    expect(wire.subAccount.map(toSubAccountKey)).toEqual([
      { note: 'n', apiKey: 'k1', permissions: ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE'], ips: ['1.2.3.4', '5.6.7.8'], createdAt: 1_700_000_000_000 },
      { note: '', apiKey: 'k2', permissions: ['read_only'], ips: [], createdAt: 1_700_000_000_001 },
    ]);
  });

  it('accepts the created key as apiKey or apikey, and needs the secret', () => {
    expect(v.parse(WireCreatedKey, { apikey: 'a', secretKey: 's', createTime: 1 }).apikey).toBe('a');
    expect(v.parse(WireCreatedKey, { apiKey: 'b', secretKey: 's', createTime: 1 }).apiKey).toBe('b');
    expect(v.safeParse(WireCreatedKey, { secretKey: 's', createTime: 1 }).success).toBe(false);
    expect(v.safeParse(WireCreatedKey, { apiKey: 'b', createTime: 1 }).success).toBe(false);
  });

  it('keeps the amount exactly as sent, whatever its form; junk elsewhere still fails', () => {
    const record = {
      tranId: 11945860693,
      fromAccount: 'master',
      toAccount: 'sub1',
      clientTranId: 'c',
      asset: 'USDT',
      amount: '0.10000000000000000001',
      fromAccountType: 'SPOT',
      toAccountType: 'FUTURE',
      fromSymbol: null,
      toSymbol: '',
      status: 'SUCCESS',
      timestamp: '1544433325000',
    };
    const [transfer] = v.parse(WireTransferList, [record]).map(toTransfer);
    expect(transfer).toMatchObject({ tranId: '11945860693', amount: '0.10000000000000000001', fromSymbol: '', timestamp: 1_544_433_325_000 });
    // Amounts never fail the page: every decimal form, a number, and what is not a number at all are kept.
    for (const amount of ['1e-7', '+3.', '.5', '-0', '1E+5', 'N/A', '', '1,5']) {
      expect(v.parse(WireTransferList, [{ ...record, amount }]).map(toTransfer)[0]?.amount).toBe(amount);
    }
    expect(v.parse(WireTransferList, [{ ...record, amount: 0.1 }])[0]?.amount).toBe('0.1');
    expect(v.parse(WireTransferList, [{ ...record, amount: null }])[0]?.amount).toBe('');
    expect(v.parse(WireTransferList, [{ ...record, amount: { v: 1 } }])[0]?.amount).toBe('{"v":1}');
    expect(v.safeParse(WireTransferList, [{ ...record, timestamp: 'yesterday' }]).success).toBe(false);
  });

  it('splits comma lists, trimming and dropping empties', () => {
    expect(splitCommaList(' a, ,b,,c ')).toEqual(['a', 'b', 'c']);
    expect(splitCommaList('')).toEqual([]);
    expect(splitCommaList(undefined)).toEqual([]);
  });
});

describe('an error answer that echoes the request back', () => {
  const apiKey = 'mx0vechoechoecho1234';
  /** A client against a loopback service answering every request with what `answer` makes of it. */
  async function echoingApi(onTestFinished: OnFinished, answer: (req: IncomingMessage) => { status: number; body: unknown }) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const { status, body } = answer(req);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const api = createBrokerApi({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey,
      secretKey: 'echo-secret-of-the-master',
      maxTries: 1,
    });
    onTestFinished(() => api.close());
    return api;
  }
  it('withoutOwnCredentials: our API key shortened, any signature value left out, the rest kept', () => {
    expect(withoutOwnCredentials(`bad key ${apiKey} in /x?a=1&signature=${'ab12'.repeat(16)}&t=2`, { apiKey })).toBe(
      'bad key mx0v…1234 in /x?a=1&signature=…&t=2',
    );
    expect(withoutOwnCredentials(`{"signature": "${'F0'.repeat(32)}"}`, { apiKey })).toBe('{"signature": "…"}');
    expect(withoutOwnCredentials('nothing of ours', { apiKey })).toBe('nothing of ours');
    // The secret and this request's signature, bare, wherever they stand.
    const signature = `${'c0ffee'.repeat(10)}beef`;
    expect(withoutOwnCredentials(`secret echo-master-secret bad sig=${signature}`, { apiKey, secretKey: 'echo-master-secret', signature })).toBe(
      'secret … bad sig=…',
    );
  });

  it('a 400 echoing the URL and the key header: the error the commands print and the trail keeps holds none of our key, secret or signature', async ({
    onTestFinished,
  }) => {
    const api = await echoingApi(onTestFinished, (req) => ({
      status: 400,
      body: {
        code: 700002,
        msg: `Signature for this request is not valid. ${req.url ?? ''} key=${String(req.headers['x-mexc-apikey'])} sig ${new URL(req.url ?? '/', 'http://x').searchParams.get('signature') ?? ''} secret echo-secret-of-the-master`,
      },
    }));
    const error = await api.listSubAccountKeys('desk1').catch((e: unknown) => e as BrokerError);
    expect(error).toBeInstanceOf(BrokerError);
    const said = `${(error as BrokerError).toLine()} ${(error as BrokerError).serviceMessage ?? ''}`;
    expect(said).toContain('key=mx0v…1234');
    expect(said).toContain('signature=…');
    expect(said).not.toContain(apiKey);
    expect(said).not.toMatch(/signature=[0-9a-f]{16}/);
    expect(said).not.toMatch(/[0-9a-f]{64}/);
    expect(said).not.toContain('echo-secret-of-the-master');
    expect(said).toContain('sig … secret …');
  });

  it('an error envelope in a 200 that echoes the key header: its message is cleaned the same way', async ({ onTestFinished }) => {
    const api = await echoingApi(onTestFinished, (req) => ({ status: 200, body: { code: 10072, msg: `bad key ${String(req.headers['x-mexc-apikey'])}` } }));
    const error = (await api.listSubAccountKeys('desk1').catch((e: unknown) => e)) as BrokerError;
    expect(error).toBeInstanceOf(BrokerError);
    expect(error.code).toBe(10072);
    expect(error.serviceMessage).toBe('bad key mx0v…1234');
    expect(error.toLine()).not.toContain(apiKey);
  });
});
