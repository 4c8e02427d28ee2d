// A created secret reaches the operator exactly as the service sent it, or the outcome says it did not; an
// unreadable create answer is described by its shape, never by its bytes (stderr and audit.jsonl alike).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { readAuditTrail } from '../../src/config/auditTrail';
import { testContext } from './helpers';

const API_KEY = 'mx0vcreatedkeya1b2c3d4';
let answer: (res: ServerResponse) => void = () => undefined;
let server: Server;
let baseUrl = '';
const folders: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function send(status: number, contentType: string, body: Buffer | string): void {
  answer = (res) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length });
    res.end(bytes);
  };
}

async function create(format?: string, terminal = false): Promise<{ code: number; stdout: string; stderr: string; folder: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'bc-secret-as-sent-'));
  folders.push(folder);
  const { ctx, out, err } = testContext(undefined, {
    env: { BROKER_BASE_URL: baseUrl, BROKER_API_KEY: 'mx0vmastermastermaster', BROKER_API_SECRET: 'master-secret-for-tests' },
    createApi: (config) => createBrokerApi({ ...config, maxTries: 1 }),
    configFolder: folder,
  });
  if (terminal) ctx.stdoutIsTTY = true;
  const code = await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'as sent', ...(format ? { format } : {}) }, ctx);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.text(), stderr: err.text(), folder };
}

describe('the secret as sent', () => {
  it('csv: a secret starting with + - = @ is quoted, never given a leading quote', async () => {
    for (const secret of ['+1cmd|calc', '-2a', '=SUM(A1)', '@x"y']) {
      send(200, 'application/json', JSON.stringify({ apiKey: API_KEY, secretKey: secret, createTime: 1 }));
      const ran = await create('csv');
      expect(ran.code).toBe(EXIT.ok);
      const record = ran.stdout.split('\r\n')[1]!;
      expect(record).toContain(`"${secret.replace(/"/g, '""')}"`);
      expect(record).not.toContain(`'${secret[0]}`);
    }
  });

  it('json and table carry the secret unchanged', async () => {
    const secret = '=+-@ab"cd\\ef';
    send(200, 'application/json', JSON.stringify({ apiKey: API_KEY, secretKey: secret, createTime: 1 }));
    const json = await create('json');
    expect((JSON.parse(json.stdout) as { secretKey: string }).secretKey === secret).toBe(true);
    const table = await create();
    expect(
      table.stdout
        .split('\n')
        .find((l) => l.startsWith('secretKey'))
        ?.endsWith(secret),
    ).toBe(true);
  });

  it('a secret that is not valid UTF-8: "created, secret unreadable", exit 5, nothing on stdout', async () => {
    const body = Buffer.concat([Buffer.from(`{"apiKey":"${API_KEY}","secretKey":"ab`), Buffer.from([0xff, 0xfe]), Buffer.from('cd","createTime":1}')]);
    send(200, 'application/json', body);
    const ran = await create('json');
    expect(ran.code).toBe(EXIT.secretNotDelivered);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toContain(`error: key ${API_KEY} was created but its secret is not valid UTF-8 text`);
    expect(ran.stderr).toContain("delete this key in the service's web console");
    const { entries } = await readAuditTrail(ran.folder);
    expect(entries).toEqual([expect.objectContaining({ outcome: 'created', secret: 'unreadable' })]);
  });

  it('a secret longer than a line of outside text (4,000): delivered whole in every format, to a terminal or not', async () => {
    const secret = 'a1B2'.repeat(1012) + 'zz';
    send(200, 'application/json', JSON.stringify({ apiKey: API_KEY, secretKey: secret, createTime: 1 }));
    for (const terminal of [false, true]) {
      for (const format of ['table', 'csv', 'json']) {
        const ran = await create(format, terminal);
        expect({ format, terminal, code: ran.code, stderr: ran.stderr }).toEqual({
          format,
          terminal,
          code: EXIT.ok,
          stderr: expect.not.stringContaining('error') as string,
        });
        expect(ran.stdout).toContain(secret);
      }
    }
  });

  it('a valid UTF-8 secret with non-ASCII text is delivered as it is', async () => {
    send(200, 'application/json', JSON.stringify({ apiKey: API_KEY, secretKey: 'clé-秘密', createTime: 1 }));
    const ran = await create('json');
    expect(ran.code).toBe(EXIT.ok);
    expect((JSON.parse(ran.stdout) as { secretKey: string }).secretKey === 'clé-秘密').toBe(true);
  });
});

describe('an unreadable create answer: its shape, never its bytes', () => {
  const SECRET = 'S3CR3TVALUE0123456789abcdef';
  const cases: [string, string, string, RegExp][] = [
    [
      'a form body',
      'application/x-www-form-urlencoded',
      `apiKey=${API_KEY}&secretKey=${SECRET}`,
      /what came: application\/x-www-form-urlencoded, \d+ bytes, not JSON/,
    ],
    ['XML', 'application/xml', `<key><apiKey>${API_KEY}</apiKey><secretKey>${SECRET}</secretKey></key>`, /what came: application\/xml, \d+ bytes, not JSON/],
    [
      'a double-encoded envelope',
      'application/json',
      JSON.stringify({ data: JSON.stringify({ apiKey: API_KEY, secretKey: SECRET }) }),
      /what came: application\/json, \d+ bytes, a JSON object with fields data/,
    ],
    [
      'the secret under another name',
      'application/json',
      JSON.stringify({ apiKey: API_KEY, sk: SECRET }),
      /what came: application\/json, \d+ bytes, a JSON object with fields apiKey, sk/,
    ],
    ['a JSON string', 'text/plain', JSON.stringify(SECRET), /what came: text\/plain, \d+ bytes, a JSON string/],
  ];
  for (const [name, type, body, shape] of cases) {
    it(`${name}: exit 3, the shape on stderr and in the audit line, no byte of the answer`, async () => {
      send(200, type, body);
      const ran = await create();
      expect(ran.code).toBe(EXIT.outcomeUnknown);
      expect(ran.stderr).toMatch(shape);
      const trail = readFileSync(join(ran.folder, 'audit.jsonl'), 'utf8');
      expect(trail).toMatch(shape);
      for (const text of [ran.stderr, trail, ran.stdout]) {
        expect(text.includes(SECRET.slice(0, 8))).toBe(false);
        expect(text.includes(API_KEY)).toBe(false);
      }
    });
  }
});
