// Clock skew against a server that enforces recvWindow (the sandbox: a timestamp more than
// 1 s ahead of its clock, or older than recvWindow, is refused with 700003). The real commands run with a
// fresh config folder, so the offset they remember is theirs alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clockHint, describeSkew } from '../../src/api/clock';
import { createBrokerApi } from '../../src/api/operations';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { CLOCK_OFFSETS_FILE, MAX_CLOCK_OFFSETS, loadClockOffset, saveClockOffset } from '../../src/config/clockOffsets';
import type { RunningSandbox } from '../../src/sandbox/types';
import { testContext } from '../commands/helpers';
import { ownSandbox } from '../sandbox/helpers';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'bc-clock-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

function context(env: Record<string, string>, client: Record<string, unknown> = {}) {
  return testContext(undefined, { env, createApi: (config) => createBrokerApi({ ...config, retryBaseDelayMs: 20, ...client }), configFolder: folder });
}

function envOf(sb: { baseUrl: string; apiKey: string; secretKey: string }): Record<string, string> {
  return { BROKER_BASE_URL: sb.baseUrl, BROKER_API_KEY: sb.apiKey, BROKER_API_SECRET: sb.secretKey };
}

const create = (sb: RunningSandbox) => {
  const t = context(envOf(sb));
  return runKeysCreate({ allowRisky: true, sub: sb.subAccounts[0] ?? '', permissions: 'SPOT_ACCOUNT_READ', note: 'clock' }, t.ctx).then((code) => ({
    code,
    ...t,
  }));
};

function posts(sb: RunningSandbox): number[] {
  return sb
    .requests()
    .filter((r) => r.method === 'POST')
    .map((r) => r.status);
}

describe('a create recovers from clock skew, and the next run starts with the offset', () => {
  // skew = service clock minus this computer's. The sandbox takes timestamps up to 5 s old (recvWindow) and
  // 1 s ahead: +2.5 s (this computer behind) passes the first time, every other case meets a 700003 first.
  it.each([2_500, -2_500, 30_000, -30_000, 600_000, -600_000])('service clock %i ms off', async (skew) => {
    const sb = await ownSandbox({ clockOffsetMs: skew });
    sandboxes.push(sb);
    const refusedFirst = skew < -1_000 || skew > 5_000;

    const first = await create(sb);
    expect(first.code, first.err.text()).toBe(EXIT.ok);
    expect(first.out.text()).toContain('secretKey');
    // Exactly one key was made: a 700003 was refused before anything was done, and is the only resend.
    expect(posts(sb)).toEqual(refusedFirst ? [400, 200] : [200]);
    // Said once, with which way and roughly how much, and what to do.
    const way = skew > 0 ? 'behind' : 'ahead of';
    expect(first.err.text()).toMatch(
      new RegExp(`^note: this computer's clock is [0-9.]+ (s|min) ${way} the service's; timestamps are corrected for it \\(kept for the next run\\)`, 'm'),
    );
    const saved = await loadClockOffset(folder, sb.baseUrl);
    expect(Math.abs((saved ?? 0) - skew)).toBeLessThan(1_500);
    expect(JSON.parse(readFileSync(join(folder, CLOCK_OFFSETS_FILE), 'utf8'))).toHaveProperty([sb.baseUrl]);

    // The next run starts with the remembered offset: right the first time, a GET and a POST alike.
    const before = sb.requests().length;
    const list = context(envOf(sb));
    expect(await runKeysList({ sub: sb.subAccounts[0] ?? '' }, list.ctx)).toBe(EXIT.ok);
    const second = await create(sb);
    expect(second.code).toBe(EXIT.ok);
    expect(
      sb
        .requests()
        .slice(before)
        .map((r) => [r.method, r.status]),
    ).toEqual([
      ['GET', 200],
      ['POST', 200],
    ]);
    expect(second.err.text()).not.toContain('note:');
  });

  it('a remembered offset that went stale heals itself: one 700003, one resend, and the entry is dropped', async () => {
    const sb = await ownSandbox();
    sandboxes.push(sb);
    await saveClockOffset(folder, sb.baseUrl, 600_000);
    const run = await create(sb);
    expect(run.code, run.err.text()).toBe(EXIT.ok);
    expect(posts(sb)).toEqual([400, 200]);
    expect(await loadClockOffset(folder, sb.baseUrl)).toBeUndefined();
  });
});

describe('when the resend cannot help, the hint says which way the clock is off and what to do', () => {
  /** A service whose clock is `skew` ms off that refuses every timestamp (700003), with or without a Date header. */
  async function refusing(skew: number, sendDate = true) {
    let seen = 0;
    const server = createServer((req, res) => {
      seen += 1;
      req.resume();
      res.sendDate = false;
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (sendDate) headers.Date = new Date(Date.now() + skew).toUTCString();
      res.writeHead(400, headers);
      res.end(JSON.stringify({ code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { baseUrl, seen: () => seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  // A Date header has whole seconds (read as its middle: ±0.5 s), and an answer read late on a loaded machine
  // makes the clock look further ahead: 30 s off reads 29–31 s.
  it.each([
    [
      -30_000,
      /create key failed \(HTTP 400 code 700003\): .* — this computer's clock is (29|30|31) s ahead of the service's: set it right \(e\.g\. turn on network time sync\); a larger --recv-window cannot help a clock that is ahead$/,
    ],
    [
      30_000,
      /— this computer's clock is (29|30|31) s behind the service's: set it right \(e\.g\. turn on network time sync\), or raise --recv-window to 3[0-2]000 or more$/,
    ],
    [
      600_000,
      /— this computer's clock is 10 min behind the service's: set it right \(e\.g\. turn on network time sync\); that is more than --recv-window can cover \(at most 60000\)$/,
    ],
  ])('skew %i: two POSTs at most, exit 1', async (skew, line) => {
    const service = await refusing(skew);
    try {
      const t = context({ BROKER_BASE_URL: service.baseUrl, BROKER_API_KEY: 'k', BROKER_API_SECRET: 's' });
      expect(await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, t.ctx)).toBe(EXIT.failure);
      expect(service.seen()).toBe(2);
      const [error] = t.err.text().split('\n');
      expect(error).toMatch(line);
    } finally {
      await service.close();
    }
  });

  it('without a Date header there is nothing to re-measure: one POST, and the hint says so', async () => {
    const service = await refusing(0, false);
    try {
      const t = context({ BROKER_BASE_URL: service.baseUrl, BROKER_API_KEY: 'k', BROKER_API_SECRET: 's' });
      expect(await runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, t.ctx)).toBe(EXIT.failure);
      expect(service.seen()).toBe(1);
      expect(t.err.text()).toMatch(/did not say its time \(no Date header\): check the computer clock, or raise --recv-window\n$/);
    } finally {
      await service.close();
    }
  });

  it('a GET gets one re-measured retry too, outside its retry budget', async () => {
    const service = await refusing(-30_000);
    try {
      const t = context({ BROKER_BASE_URL: service.baseUrl, BROKER_API_KEY: 'k', BROKER_API_SECRET: 's' });
      expect(await runKeysList({ sub: 'desk' }, t.ctx)).toBe(EXIT.failure);
      expect(service.seen()).toBe(2);
      expect(t.err.text()).toContain("this computer's clock is 30 s ahead of the service's");
    } finally {
      await service.close();
    }
  });
});

describe('the client clock itself off (an injected now), against the real sandbox', () => {
  it.each([2_500, -2_500, 30_000, -30_000, 600_000, -600_000])('local clock %i ms off: the create succeeds with at most one resend', async (localOff) => {
    const sb = await ownSandbox();
    sandboxes.push(sb);
    const t = context(envOf(sb), { now: () => Date.now() + localOff });
    expect(await runKeysCreate({ allowRisky: true, sub: sb.subAccounts[0] ?? '', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, t.ctx)).toBe(EXIT.ok);
    // A local clock behind by 2.5 s is still inside the 5 s recvWindow; the rest need the one resend.
    expect(posts(sb)).toEqual(localOff === -2_500 ? [200] : [400, 200]);
  });
});

describe('hint and skew wording', () => {
  it('says which way and how much', () => {
    expect(describeSkew(500)).toBeUndefined();
    expect(describeSkew(2_500)).toBe("this computer's clock is 2.5 s behind the service's");
    expect(describeSkew(-2_500)).toBe("this computer's clock is 2.5 s ahead of the service's");
    expect(describeSkew(-600_000)).toBe("this computer's clock is 10 min ahead of the service's");
    expect(clockHint(300, 5000)).toMatch(/the clocks agree within 1 s, so the request took longer than recvWindow \(5000 ms\)/);
    expect(clockHint(2_500, 5000)).toMatch(/raise --recv-window to 4000 or more$/);
  });
});

describe('the clock-offset file', () => {
  it('per base URL, bounded, and a damaged file or entry counts as none', async () => {
    expect(await loadClockOffset(folder, 'http://a')).toBeUndefined();
    await saveClockOffset(folder, 'http://a', 1234, 1);
    await saveClockOffset(folder, 'http://b', -5678, 2);
    expect(await loadClockOffset(folder, 'http://a')).toBe(1234);
    expect(await loadClockOffset(folder, 'http://b')).toBe(-5678);
    await saveClockOffset(folder, 'http://a', 0, 3);
    expect(await loadClockOffset(folder, 'http://a')).toBeUndefined();
    for (let i = 0; i < MAX_CLOCK_OFFSETS + 5; i += 1) await saveClockOffset(folder, `http://h${i}`, 2000 + i, 10 + i);
    const file = JSON.parse(readFileSync(join(folder, CLOCK_OFFSETS_FILE), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(file)).toHaveLength(MAX_CLOCK_OFFSETS);
    expect(file).not.toHaveProperty(['http://h0']);
    writeFileSync(join(folder, CLOCK_OFFSETS_FILE), '{"http://x": {"offsetMs": "many"}, "http://y": {"offsetMs": 5, "measuredAt": 1}');
    expect(await loadClockOffset(folder, 'http://y')).toBeUndefined();
    writeFileSync(join(folder, CLOCK_OFFSETS_FILE), '{"http://x": {"offsetMs": "many"}, "http://y": {"offsetMs": 5000, "measuredAt": 1}}');
    expect(await loadClockOffset(folder, 'http://x')).toBeUndefined();
    expect(await loadClockOffset(folder, 'http://y')).toBe(5000);
    mkdirSync(join(folder, 'sub'));
    expect(await loadClockOffset(join(folder, 'sub', 'missing'), 'http://y')).toBeUndefined();
  });
});
