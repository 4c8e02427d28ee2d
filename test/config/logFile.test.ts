import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exchangeLine, openExchangeLog } from '../../src/config/logFile';
import { shortenApiKey } from '../../src/api/redact';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bc-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const exchange = {
  operation: 'listSubAccountKeys',
  method: 'GET' as const,
  path: '/api/v3/broker/sub-account/apiKey?subAccount=a&signature=abc',
  status: 200,
  ok: true,
  latencyMs: 12.4,
  attempt: 1,
};

describe('--log-file', () => {
  it('shortens API keys', () => {
    expect(shortenApiKey('mx0vglabcdefghija1b2')).toBe('mx0v…a1b2');
    expect(shortenApiKey('short1')).toBe('sh…');
    expect(shortenApiKey('abc')).toBe('…');
  });

  it('one line per exchange, no query, no signature', () => {
    expect(exchangeLine(exchange, 'mx0vglabcdefghija1b2', new Date(Date.UTC(2026, 10, 20, 1, 2, 3)))).toBe(
      '2026-11-20T01:02:03.000Z op=listSubAccountKeys GET /api/v3/broker/sub-account/apiKey status=200 ok=true latency=12ms attempt=1 key=mx0v…a1b2\n',
    );
    expect(exchangeLine({ ...exchange, method: 'POST', status: 401, ok: false, postSignature: 'query' }, undefined, new Date(0))).toContain(
      ' attempt=1 signed=query\n',
    );
    expect(exchangeLine({ ...exchange, status: 429, ok: false, retryAfterMs: 1500, pacedMs: 20 }, undefined, new Date(0))).toContain(
      ' attempt=1 paced=20ms retry-after=1500ms\n',
    );
    expect(exchangeLine({ ...exchange, status: undefined, ok: false, attempt: 2 }, undefined, new Date(0))).toBe(
      '1970-01-01T00:00:00.000Z op=listSubAccountKeys GET /api/v3/broker/sub-account/apiKey status=none ok=false latency=12ms attempt=2\n',
    );
  });

  it('appends, creates the file 0600 and tightens an existing one', async () => {
    const path = join(dir, 'x.log');
    writeFileSync(path, 'earlier\n');
    chmodSync(path, 0o644);
    const log = await openExchangeLog(path);
    log.record(exchange, 'mx0vglabcdefghija1b2');
    log.record({ ...exchange, attempt: 2 });
    await log.close();
    log.record(exchange); // after close: ignored, no throw
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('earlier');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const fresh = join(dir, 'new.log');
    await (await openExchangeLog(fresh)).close();
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('a path that cannot be opened rejects (the command says so before sending anything)', async () => {
    await expect(openExchangeLog(join(dir, 'missing', 'x.log'))).rejects.toThrow(/ENOENT/);
  });
});
