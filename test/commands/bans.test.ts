// A ban (HTTP 418) met by one run of the built binary is honoured by the next: its end is kept per base URL in
// the config folder, so the next command sends nothing to that service until it ends (exit 1, one line).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BANS_FILE } from '../../src/config/bans';
import { runBuiltCli } from './helpers';

const SECRET = 'bans-test-secret-abc123';

describe('a ban kept across runs (the built binary)', () => {
  it('the first run meets the 418 and exits 1; the next sends nothing to that base URL and says for how long', async ({ onTestFinished }) => {
    const home = mkdtempSync(join(tmpdir(), 'bc-bans-'));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(418, { 'Content-Type': 'application/json', 'Retry-After': '600' });
      res.end('{"code":-1003,"msg":"Way too many requests; IP banned"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { BROKER_BASE_URL: baseUrl, BROKER_API_KEY: 'mx0vBANSTEST', BROKER_API_SECRET: SECRET, BROKER_CONSOLE_HOME: home };

    const first = await runBuiltCli(['keys', 'list', '--sub', 'desk'], env);
    expect(first.code).toBe(1);
    expect(first.stderr).toBe(
      'error: list keys failed: the service has banned this IP for 10 min (HTTP 418) — nothing more goes to this service until the ban ends\n',
    );
    expect(requests).toBe(1);
    const kept = readFileSync(join(home, BANS_FILE), 'utf8');
    const ends = (JSON.parse(kept) as Record<string, { endsAt: number }>)[baseUrl]?.endsAt ?? 0;
    expect(ends - Date.now()).toBeGreaterThan(550_000);
    expect(ends - Date.now()).toBeLessThanOrEqual(600_000);
    expect(kept).not.toContain(SECRET);

    // A new process, another command and endpoint: held back before any socket, still exit 1.
    const second = await runBuiltCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE'], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^error: list transfers failed: the service has banned this IP for 10 min \(HTTP 418\) — not sent: nothing goes to this service until the ban ends\n$/,
    );
    expect(requests).toBe(1);

    // Another base URL is not banned by it.
    const other = await runBuiltCli(['keys', 'list', '--sub', 'desk'], { ...env, BROKER_BASE_URL: `${baseUrl}/other` });
    expect(other.code).toBe(1);
    expect(requests).toBe(2);
  }, 60_000);
});
