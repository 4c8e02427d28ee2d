// Hostile text on the command line: a hostile service puts escape sequences, controls, bidi overrides,
// formulas and a 200,000-character field in notes, keys, assets, statuses, amounts and error messages. Every
// output path is checked: text and tables on a terminal, stderr, JSON and CSV to a pipe (exact data, formula
// cells neutralised) and to a terminal (sanitised).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import type { SubAccountKey, Transfer } from '../../src/api/types';
import type { CommandContext } from '../../src/commands/context';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { runProfileList, runProfileUse } from '../../src/commands/profile';
import { runTransfers } from '../../src/commands/transfers';
import { CSV_FIELDS } from '../../src/export/transferWriters';
import { displayWidth, sanitize } from '../../src/terminal/text';
import { runCli, testContext } from './helpers';
import { FORMULAS, HOSTILE, HUGE, type HostileServer, TERMINAL_UNSAFE, UNSAFE_IN_LINES, fakeTty, parseCsv, startHostileServer } from './hostile';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  await server.close();
});

const T0 = 1_763_726_400_000;
const AMOUNTS = ['-12.5', '10', '+5', '0.001'];

function hostileKeys(): Record<string, unknown>[] {
  return HOSTILE.map(([, h], i) => ({
    note: h,
    apiKey: `mx0v${String(i).padStart(2, '0')}${h}`,
    permissions: `SPOT_ACCOUNT_READ,${h}`,
    ip: `192.0.2.${i + 1}`,
    creatTime: T0 + i,
  }));
}

function hostileTransfers(): Record<string, unknown>[] {
  const rows = HOSTILE.map(([, h], i) => ({
    tranId: `${1000 + i}`,
    fromAccount: h,
    toAccount: FORMULAS[i % FORMULAS.length],
    clientTranId: h,
    asset: i % 3 === 0 ? h : 'USDT',
    amount: AMOUNTS[i % AMOUNTS.length],
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: FORMULAS[(i + 1) % FORMULAS.length],
    toSymbol: '',
    status: h,
    timestamp: T0 - i * 1000,
  }));
  // Formulas in the identifier, and in every text column of one row.
  rows.push({ ...rows[0]!, tranId: '=1+1', asset: '@SUM(A1)', status: '+cmd', fromAccount: '-2+3', clientTranId: '\tx', amount: '-0.5' });
  return rows;
}

beforeEach(() => {
  server.keys = hostileKeys();
  server.transfers = hostileTransfers();
  server.created = {
    subAccount: 'desk\x1b]0;pwned\x07',
    note: 'first\r\nerror: forged',
    apiKey: `mx0v\x1b]52;c;bad\x07key`,
    secretKey: 'abc\u202Edef\x1b[2J',
    permissions: 'SPOT_ACCOUNT_READ,\x9b2J',
    ip: '192.0.2.1',
    createTime: T0,
  };
  server.failure = undefined;
});

/** A context against the hostile server; stdout a terminal or a pipe. */
function context(stdout: 'tty' | 'pipe', overrides: Partial<CommandContext> = {}) {
  const tty = fakeTty();
  const base = testContext(undefined, { env: server.env, ...overrides });
  if (stdout === 'tty') {
    base.ctx.stdout = tty.stream;
    return { ...base, out: { stream: tty.stream, text: tty.text } };
  }
  return base;
}

/** The domain records the client makes of the hostile answers (what "exact data" means). */
async function domain(): Promise<{ keys: SubAccountKey[]; transfers: Transfer[] }> {
  const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1 });
  try {
    return {
      keys: await api.listSubAccountKeys('desk'),
      transfers: await api.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' }),
    };
  } finally {
    await api.close();
  }
}

/** Terminal text: no control, escape or bidi character, and lines end with \n only. */
function expectTerminalSafe(text: string): void {
  expect(text).not.toMatch(UNSAFE_IN_LINES);
  expect(text).not.toContain('\x1b');
  expect(text).not.toContain('\x07');
  expect(text).not.toContain('\x00');
  expect(text).not.toContain('\u009b');
  expect(text).not.toContain('\u202e');
  expect(text).not.toContain('\r');
}

/** Bytes of a JSON or CSV document for a pipe: no raw ESC, BEL, NUL, C1, bidi (JSON escapes them). */
function expectNoRawControlsInJson(text: string): void {
  expect(text).not.toMatch(UNSAFE_IN_LINES);
}

describe('keys list', () => {
  it('table on a terminal: nothing reaches it raw, one line per key, marks visible', async () => {
    const { ctx, out, err } = context('tty');
    expect(await runKeysList({ sub: 'desk' }, ctx)).toBe(EXIT.ok);
    const text = out.text();
    expectTerminalSafe(text);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1 + HOSTILE.length);
    expect(text).toContain('␛]0;pwned␇');
    expect(text).toContain('first line␍␊error: fake second line');
    expect(text).toContain('abc<U+202E>txt.exe');
    expect(text).toContain('<U+009B>');
    expect(err.text()).toBe('');
  });

  it('table columns align by display width with CJK and emoji notes', async () => {
    server.keys = ['交易机器人', '👩‍💻 desk', 'plain', 'café', 'e\u0301'].map((note, i) => ({
      note,
      apiKey: `mx0vKEY${i}`,
      permissions: 'SPOT_ACCOUNT_READ',
      ip: '',
      creatTime: T0,
    }));
    const { ctx, out } = context('tty');
    expect(await runKeysList({ sub: 'desk' }, ctx)).toBe(EXIT.ok);
    const lines = out.text().trimEnd().split('\n');
    const column = (line: string, marker: string): number => displayWidth(line.slice(0, line.indexOf(marker)));
    const header = column(lines[0]!, 'apiKey');
    for (const line of lines.slice(1)) expect(column(line, 'mx0vKEY')).toBe(header);
  });

  it('--json to a pipe: exact data (JSON.parse gives back what the client read), no raw control in the bytes', async () => {
    const { ctx, out } = context('pipe');
    expect(await runKeysList({ sub: 'desk', json: true }, ctx)).toBe(EXIT.ok);
    const text = out.text();
    expectNoRawControlsInJson(text);
    expect(text).toContain('\\u001b]0;pwned\\u0007');
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(JSON.parse(text)).toEqual((await domain()).keys);
    expect((JSON.parse(text) as SubAccountKey[]).map((k) => k.note)).toEqual(HOSTILE.map(([, h]) => h));
  });

  it('--json to a terminal: sanitised like the table, still valid JSON', async () => {
    const { ctx, out } = context('tty');
    expect(await runKeysList({ sub: 'desk', json: true }, ctx)).toBe(EXIT.ok);
    const text = out.text();
    expectTerminalSafe(text);
    const keys = JSON.parse(text) as SubAccountKey[];
    expect(keys.map((k) => k.note)).toEqual(HOSTILE.map(([, h]) => sanitize(h)));
  });

  it('a 200,000-character note prints quickly, cut, on one line', async () => {
    server.keys = [{ note: HUGE, apiKey: 'mx0vHUGE', permissions: HUGE, ip: '', creatTime: T0 }];
    const { ctx, out } = context('tty');
    const started = performance.now();
    expect(await runKeysList({ sub: 'desk' }, ctx)).toBe(EXIT.ok);
    expect(performance.now() - started).toBeLessThan(2000);
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.length).toBeLessThan(3000);
    expect(lines[1]).toContain('…');
    expectTerminalSafe(out.text());
  });
});

describe('keys create', () => {
  // A secret a terminal must show as marks would be stored wrong: it is not shown, and the key is said lost.
  it('text: a secret with controls is not shown altered; exit 5 names the key, all of it terminal-safe', async () => {
    const { ctx, out, err } = context('tty');
    expect(await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, ctx)).toBe(EXIT.secretNotDelivered);
    expect(out.text()).toBe('');
    expectTerminalSafe(err.text());
    expect(err.text()).toContain('its secret holds characters a terminal cannot show');
  });

  it('--json to a pipe keeps the secret and every field exact', async () => {
    const { ctx, out } = context('pipe');
    expect(await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n', json: true }, ctx)).toBe(EXIT.ok);
    expectNoRawControlsInJson(out.text());
    const created = JSON.parse(out.text()) as Record<string, unknown>;
    expect(created.secretKey).toBe('abc\u202Edef\x1b[2J');
    expect(created.note).toBe('first\r\nerror: forged');
    expect(created.apiKey).toBe('mx0v\x1b]52;c;bad\x07key');
  });

  it('--json to a terminal: the secret with controls is not shown altered (exit 5)', async () => {
    const { ctx, out, err } = context('tty');
    expect(await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n', json: true }, ctx)).toBe(EXIT.secretNotDelivered);
    expect(out.text()).toBe('');
    expectTerminalSafe(err.text());
  });
});

const QUERY = { fromType: 'SPOT', toType: 'FUTURE' };

describe('transfers', () => {
  it('table on a terminal: one line per transfer, nothing raw, plain amounts untouched', async () => {
    const { ctx, out, err } = context('tty');
    expect(await runTransfers({ ...QUERY }, ctx)).toBe(EXIT.ok);
    const text = out.text();
    expectTerminalSafe(text);
    const lines = text.split('\n');
    const blank = lines.indexOf('');
    const rows = server.transfers.length;
    // The header, one line per transfer, then a blank line before the totals.
    expect(blank).toBe(1 + rows);
    server.transfers.forEach((t, i) => expect(lines[1 + i]).toContain(sanitize(String(t.tranId))));
    expect(lines[1]).toMatch(/\s-12\.5\s/);
    expect(text).toContain('␛]0;pwned␇');
    // The totals name sanitised assets too.
    const totals = lines.slice(blank + 1).join('\n');
    expect(totals).toContain('␛]52;c;cm0gLXJmIH4K␇');
    expect(err.text()).toBe('');
  });

  it('table columns stay aligned with CJK and emoji assets', async () => {
    server.transfers = ['交易', '😀', 'USDT', 'é'].map((asset, i) => ({
      ...hostileTransfers()[1]!,
      tranId: `${i}`,
      fromAccount: '',
      clientTranId: '',
      status: 'SUCCESS',
      toAccount: '',
      asset,
      amount: '1.5',
    }));
    const { ctx, out } = context('tty');
    expect(await runTransfers({ ...QUERY }, ctx)).toBe(EXIT.ok);
    const lines = out.text().split('\n').slice(0, 5);
    const end = (line: string): number => displayWidth(line.slice(0, line.indexOf('1.5') + 3));
    const first = end(lines[1]!);
    for (const line of lines.slice(2)) expect(end(line)).toBe(first);
    expect(displayWidth(lines[0]!.slice(0, lines[0]!.indexOf('amount') + 6))).toBe(first);
  });

  it('--format json to a pipe: exact data, escaped controls', async () => {
    const { ctx, out } = context('pipe');
    expect(await runTransfers({ ...QUERY, format: 'json' }, ctx)).toBe(EXIT.ok);
    expectNoRawControlsInJson(out.text());
    expect(JSON.parse(out.text())).toEqual((await domain()).transfers);
  });

  it('--format csv to a pipe: exact except formula cells, which get a leading quote; plain negative amounts untouched', async () => {
    const { ctx, out } = context('pipe');
    expect(await runTransfers({ ...QUERY, format: 'csv' }, ctx)).toBe(EXIT.ok);
    const records = parseCsv(out.text());
    expect(records[0]).toEqual([...CSV_FIELDS]);
    const { transfers } = await domain();
    expect(records).toHaveLength(1 + transfers.length);
    transfers.forEach((t, i) => {
      const record = records[1 + i]!;
      CSV_FIELDS.forEach((field, j) => {
        const raw = String(t[field]);
        const numeric = (field === 'amount' || field === 'timestamp') && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(raw);
        expect(record[j]).toBe(!numeric && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw);
      });
    });
    const column = (name: (typeof CSV_FIELDS)[number]): string[] => records.slice(1).map((r) => r[CSV_FIELDS.indexOf(name)]!);
    expect(column('amount')).toContain('-12.5');
    expect(column('amount')).toContain('+5');
    expect(column('amount')).toContain('-0.5');
    expect(column('tranId')).toContain("'=1+1");
    expect(column('asset')).toContain("'@SUM(A1)");
    expect(column('toAccount')).toContain('\'=HYPERLINK("http://evil.example","click")');
    expect(column('toAccount')).toContain("'\tTAB");
    expect(column('toAccount')).toContain("'\rCR");
    // Everything else goes exactly as sent, ESC and all: a file keeps the data.
    expect(column('status')).toContain('\x1b]0;pwned\x07');
  });

  it.each(['csv', 'json'])('--format %s to a terminal: sanitised like the table', async (format) => {
    const { ctx, out } = context('tty');
    expect(await runTransfers({ ...QUERY, format }, ctx)).toBe(EXIT.ok);
    const text = out.text().replace(/\r\n/g, '\n');
    expectTerminalSafe(text);
    if (format === 'json') expect((JSON.parse(text) as Transfer[]).map((t) => t.status)).toEqual(server.transfers.map((t) => sanitize(String(t.status))));
    else {
      // Each record is one line: CR-LF in a field became marks, so no field is quoted over lines.
      expect(text.trimEnd().split('\n')).toHaveLength(1 + server.transfers.length);
      expect(text).toContain("'=1+1");
    }
  });

  it('a 200,000-character field prints quickly in every format', async () => {
    server.transfers = [{ ...hostileTransfers()[0]!, status: HUGE, asset: HUGE, fromAccount: HUGE }];
    for (const [format, stdout] of [
      ['table', 'tty'],
      ['csv', 'tty'],
      ['json', 'tty'],
      ['csv', 'pipe'],
      ['json', 'pipe'],
    ] as const) {
      const { ctx, out } = context(stdout);
      const started = performance.now();
      expect(await runTransfers({ ...QUERY, format }, ctx)).toBe(EXIT.ok);
      expect(performance.now() - started).toBeLessThan(2000);
      if (stdout === 'tty') {
        expectTerminalSafe(out.text().replace(/\r\n/g, '\n'));
        for (const line of out.text().split('\n')) expect(line.length).toBeLessThan(5000);
      } else expect(out.text().length).toBeGreaterThan(600_000);
    }
  });
});

describe('stderr', () => {
  const errorLine = async (run: (ctx: CommandContext) => Promise<number>): Promise<{ code: number; text: string }> => {
    const { ctx, err, out } = context('tty');
    const code = await run(ctx);
    expect(out.text()).toBe('');
    return { code, text: err.text() };
  };

  it.each(HOSTILE)('a service error msg with %s: one sanitised line', async (_name, h) => {
    server.failure = { status: 400, body: JSON.stringify({ code: 700004, msg: h }) };
    for (const run of [
      (ctx: CommandContext) => runKeysList({ sub: 'desk' }, ctx),
      (ctx: CommandContext) => runTransfers({ ...QUERY }, ctx),
      (ctx: CommandContext) => runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, ctx),
    ]) {
      const { code, text } = await errorLine(run);
      expect(code).toBe(EXIT.failure);
      expectTerminalSafe(text);
      expect(text.split('\n')).toHaveLength(2);
      expect(text).toMatch(/^error: .*code 700004/);
    }
  });

  it('a hostile error code, HTML title or 200,000-character msg: one sanitised line', async () => {
    const failures = [
      { status: 400, body: JSON.stringify({ code: '\x1b]0;pwned\x07', msg: 'm' }) },
      { status: 502, body: '<html><title>\x1b]52;c;Y2xpcA==\x07 Bad\u202EGateway</title></html>', contentType: 'text/html' },
      { status: 400, body: JSON.stringify({ code: 1, msg: HUGE }) },
      { status: 200, body: JSON.stringify({ code: 700007, msg: 'no\x1b[2Jpermission' }) },
    ];
    for (const failure of failures) {
      server.failure = failure;
      const started = performance.now();
      const { code, text } = await errorLine((ctx) => runKeysList({ sub: 'desk' }, ctx));
      expect(performance.now() - started).toBeLessThan(2000);
      expect(code).toBe(EXIT.failure);
      expectTerminalSafe(text);
      expect(text.split('\n')).toHaveLength(2);
    }
  });

  it('argv echoed back (a bad --format, --start, --profile, a profile name) is sanitised', async () => {
    const checks: [string, (ctx: CommandContext) => Promise<number>][] = [
      ['--format', (ctx) => runTransfers({ ...QUERY, format: '\x1b]0;pwned\x07' }, ctx)],
      ['--start', (ctx) => runTransfers({ ...QUERY, start: '\x1b]0;pwned\x07\u202E' }, ctx)],
      ['--to-account', (ctx) => runTransfers({ ...QUERY, toAccount: 'a\u202Eb c' }, ctx)],
      ['profile use', (ctx) => runProfileUse('\x1b]0;pwned\x07\r\nerror: forged', ctx)],
    ];
    for (const [name, run] of checks) {
      const { code, text } = await errorLine(run);
      expect(code, name).toBe(EXIT.usage);
      expectTerminalSafe(text);
      expect(text.split('\n'), name).toHaveLength(2);
    }
    // An unknown profile named on the command line.
    const { ctx, err } = testContext(undefined, { env: {} }, { profile: '\x1b]0;pwned\x07\r\nerror: forged' });
    expect(await runKeysList({ sub: 'desk' }, ctx)).toBe(EXIT.usage);
    expectTerminalSafe(err.text());
    expect(err.text()).not.toMatch(/^error: forged/m);
  });
});

describe('profile list', () => {
  const home = mkdtempSync(join(tmpdir(), 'bc-hostile-profiles-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const folder = (name: string, content: string): string => {
    const dir = join(home, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'profiles.json'), content);
    return dir;
  };
  // Environment credentials: the keychain is never opened.
  const env = { BROKER_API_KEY: 'mx0vabcdefgh1234', BROKER_API_SECRET: 's' };

  it('a damaged file whose text reaches the error message: one sanitised line on stderr', async () => {
    for (const content of ['{"profiles": [\x1b]0;pwned\x07]}', '\u202e\x1b[2J', `{"profiles":[{"name":"a\\u001b]0;x\\u0007","baseUrl":"https://x"}]}`]) {
      const { ctx, out, err } = context('tty', { env, configFolder: folder(`damaged-${content.length}`, content) });
      expect(await runProfileList({}, ctx)).toBe(EXIT.usage);
      expect(out.text()).toBe('');
      expectTerminalSafe(err.text());
      expect(err.text().split('\n')).toHaveLength(2);
    }
  });

  it('the table and JSON of saved profiles are terminal-safe, and JSON to a pipe is exact', async () => {
    const configFolder = folder(
      'ok',
      JSON.stringify({
        version: 1,
        defaultProfile: 'prod',
        profiles: [
          { name: 'prod', baseUrl: 'https://api.example.com/交易' },
          { name: 'test', baseUrl: 'https://t.example' },
        ],
      }),
    );
    const table = context('tty', { env, configFolder });
    expect(await runProfileList({}, table.ctx)).toBe(EXIT.ok);
    expectTerminalSafe(table.out.text());
    expect(table.out.text().trimEnd().split('\n')).toHaveLength(3);
    const json = context('pipe', { env, configFolder });
    expect(await runProfileList({ json: true }, json.ctx)).toBe(EXIT.ok);
    expect(json.out.text()).not.toMatch(UNSAFE_IN_LINES);
    expect((JSON.parse(json.out.text()) as { name: string }[]).map((p) => p.name)).toEqual(['prod', 'test']);
  });
});

describe('the command line', () => {
  it('commander errors that echo argv are sanitised; an unknown command is too', async () => {
    for (const args of [
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--\x1b]0;pwned\x07'],
      ['--recv-window', '\x1b[2J\x07'],
      ['\x1b]52;c;Y2xpcA==\x07'],
      ['keys', '\x1b]0;pwned\x07'],
    ]) {
      const result = await runCli(args, server.env);
      expect(result.code).toBe(2);
      expectTerminalSafe(result.stderr);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stdout).toBe('');
    }
  });

  it('csv to a pipe: bytes exact but for neutralised cells; the error line of a failure is sanitised', async () => {
    const csv = await runCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--format', 'csv'], server.env);
    expect(csv.code).toBe(0);
    const records = parseCsv(csv.stdout);
    expect(records.map((r) => r[CSV_FIELDS.indexOf('status')])).toContain('\x1b]0;pwned\x07');
    expect(records.map((r) => r[CSV_FIELDS.indexOf('amount')])).toContain('-12.5');
    expect(records.map((r) => r[CSV_FIELDS.indexOf('tranId')])).toContain("'=1+1");

    const json = await runCli(['keys', 'list', '--sub', 'desk', '--json'], server.env);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(UNSAFE_IN_LINES);
    expect((JSON.parse(json.stdout) as SubAccountKey[]).map((k) => k.note)).toEqual(HOSTILE.map(([, h]) => h));

    server.failure = { status: 400, body: JSON.stringify({ code: 700004, msg: '\x1b]52;c;Y2xpcA==\x07\r\nerror: forged' }) };
    const failed = await runCli(['keys', 'list', '--sub', 'desk'], server.env);
    expect(failed.code).toBe(1);
    expectTerminalSafe(failed.stderr);
    expect(failed.stderr.split('\n')).toHaveLength(2);
    expect(TERMINAL_UNSAFE.test(failed.stderr.trimEnd())).toBe(false);
  });
});
