// The service's own sample answers (its broker API docs, en and cn alike), sent verbatim by a loopback server and
// read by the client as shipped: what the docs show must read as the docs mean it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';

// "Create an APIKey for a Sub-account", its response sample: no ip field, the id spelled apikey (the page as the
// docs' repository holds it) or apiKey (the docs site's current page, sample and field table).
const CREATE_SAMPLE_BEFORE = `{
    "subAccount": "4Eb8rPPhpsAL",
    "permissions": "SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE",
    "note": "note2",
    "apikey": "mx0npKfh57kEEVmyLa",
    "secretKey": "51f38875ebe0475dad6236783a95cc19",
    "createTime": 1646291300120
}`;

// "Query the APIKey of a Sub-account", its response sample (apiKey), and the same record as its field table
// spells the id (apikey).
const LIST_SAMPLE = `{
    "subAccount": [{
        "note": "v5",
        "apiKey": "arg13sdfgs",
        "permissions": "SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE",
        "ip": "1.1.1.1,2.2.2.2",
        "creatTime": 1597026383085
    }, {
        "note": "v5.1",
        "apiKey": "arg13sdfgs",
        "permissions": "read_only",
        "ip": "1.1.1.1,2.2.2.2",
        "creatTime": 1597026383085
    }]
}`;
const LIST_AS_TABLED = LIST_SAMPLE.replaceAll('"apiKey"', '"apikey"');
const CREATE_SAMPLES = [CREATE_SAMPLE_BEFORE, CREATE_SAMPLE_BEFORE.replace('"apikey"', '"apiKey"')];

// "Query Universal Transfer History - broker user", its response sample.
const TRANSFER = `{
    "tranId":"11945860693",
    "fromAccount":"master@test.com",
    "toAccount":"subaccount1@test.com",
    "clientTranId":"test",
    "asset":"BTC",
    "amount":"0.1",
    "fromAccountType":"SPOT",
    "toAccountType":"FUTURE",
    "fromSymbol":"SPOT",
    "toSymbol":"FUTURE",
    "status":"SUCCESS",
    "timestamp":1544433325000
  }`;
const TRANSFER_SAMPLE = `[\n  ${TRANSFER},\n   ${TRANSFER}\n]`;

let server: Server;
let baseUrl: string;
/** What the next answer of each kind is. */
const answers = { list: LIST_SAMPLE, create: CREATE_SAMPLE_BEFORE };

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body = path.endsWith('/universalTransfer') ? TRANSFER_SAMPLE : req.method === 'POST' ? answers.create : answers.list;
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const api = () => createBrokerApi({ baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1 });

describe("the service's sample answers, as the client reads them", () => {
  it.for(['apikey', 'apiKey'])(
    'a created key (%s): the IPs it was asked with stand when the answer leaves ip out; an empty ip means none',
    async (spelling) => {
      const client = api();
      try {
        const request = { subAccount: '4Eb8rPPhpsAL', permissions: ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE'], ips: ['1.1.1.1', '2.2.2.2'], note: 'note2' };
        const sample = CREATE_SAMPLES.find((s) => s.includes(`"${spelling}"`))!;
        answers.create = sample;
        expect(await client.createSubAccountKey(request)).toEqual({
          subAccount: '4Eb8rPPhpsAL',
          note: 'note2',
          apiKey: 'mx0npKfh57kEEVmyLa',
          secretKey: '51f38875ebe0475dad6236783a95cc19',
          permissions: ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE'],
          ips: ['1.1.1.1', '2.2.2.2'],
          createdAt: 1646291300120,
        });
        answers.create = sample.replace('"note": "note2",', '"note": "note2",\n    "ip": "",');
        expect((await client.createSubAccountKey(request)).ips).toEqual([]);
        answers.create = sample.replace('"note": "note2",', '"note": "note2",\n    "ip": "3.3.3.3",');
        expect((await client.createSubAccountKey(request)).ips).toEqual(['3.3.3.3']);
      } finally {
        await client.close();
      }
    },
  );

  it('a key list, with the id spelled as in the sample (apiKey) or as in the field table (apikey)', async () => {
    const client = api();
    try {
      for (const answer of [LIST_SAMPLE, LIST_AS_TABLED]) {
        answers.list = answer;
        const keys = await client.listSubAccountKeys('subaccount01');
        expect(keys.map((key) => [key.apiKey, key.note, key.permissions, key.ips, key.createdAt])).toEqual([
          ['arg13sdfgs', 'v5', ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE'], ['1.1.1.1', '2.2.2.2'], 1597026383085],
          ['arg13sdfgs', 'v5.1', ['read_only'], ['1.1.1.1', '2.2.2.2'], 1597026383085],
        ]);
      }
      answers.list = LIST_SAMPLE.replaceAll('"apiKey": "arg13sdfgs",', '');
      await expect(client.listSubAccountKeys('subaccount01')).rejects.toThrow(/apiKey: missing \(nor apikey\)/);
    } finally {
      await client.close();
    }
  });

  it('a transfer page: the id a string, FUTURE as the type, the time in milliseconds', async () => {
    const client = api();
    try {
      const rows = await client.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURES' });
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ tranId: '11945860693', clientTranId: 'test', amount: '0.1', toAccountType: 'FUTURE', timestamp: 1544433325000 });
    } finally {
      await client.close();
    }
  });
});
