// A command given --demo runs against the console's embedded demo (seed, names and pinned clock the same),
// started in-process on 127.0.0.1 for the run and closed after it; its files are kept under "demo", its
// audit lines say demo, and a demo key needs no --allow-risky. --demo with another target, or on a command
// that reaches no service, is exit 2.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, startDemoRun } from '../../src/commands/demoRun';
import { AUDIT_FILE } from '../../src/config/auditTrail';
import { BANS_FILE } from '../../src/config/bans';
import { CLOCK_OFFSETS_FILE } from '../../src/config/clockOffsets';
import { POST_SIGNATURES_FILE } from '../../src/config/postSignatures';
import { demoSubAccountNames } from '../../src/sandbox/seedAccounts';
import type { RunningSandbox } from '../../src/sandbox/types';
import { requestCount, runCli, sandboxEnv } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

const PIN = '2026-11-21T09:30:00Z';
let home: string;
// The same demo the command starts, to compare against (the demo's data follows the seed and the pinned clock).
let reference: RunningSandbox;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'bc-demo-'));
  reference = await ownSandbox({ seed: DEMO_SEED, demoClockMs: Date.parse(PIN) });
});
afterAll(async () => {
  await reference.close();
  rmSync(home, { recursive: true, force: true });
});

const name = () => demoSubAccountNames(DEMO_SEED).find((n) => n !== 'frozendesk01') ?? '';

describe('a command given --demo', () => {
  it("keys list: the demo's keys, with no credentials in the environment at all", async () => {
    const env = { BROKER_CONSOLE_HOME: join(home, 'list') };
    const demo = await runCli(['--demo', '--demo-clock', PIN, 'keys', 'list', '--sub', name(), '--json'], env);
    expect(demo.code, demo.stderr).toBe(0);
    const expected = await runCli(['keys', 'list', '--sub', name(), '--json'], { ...sandboxEnv(reference), BROKER_CONSOLE_HOME: join(home, 'ref') });
    expect(JSON.parse(demo.stdout)).toEqual(JSON.parse(expected.stdout));
  });

  it('points at the demo over what the environment names (the live target is not reached)', async () => {
    const before = requestCount(reference);
    const demo = await runCli(['--demo', 'transfers', '--from-type', 'SPOT', '--to-type', 'FUTURES', '--limit', '3', '--json'], {
      ...sandboxEnv(reference),
      BROKER_PROFILE: 'prod',
      BROKER_CONSOLE_HOME: join(home, 'over'),
    });
    expect(demo.code, demo.stderr).toBe(0);
    expect(JSON.parse(demo.stdout)).toHaveLength(3);
    expect(requestCount(reference)).toBe(before);
  });

  it('keys create: not LIVE, so no --allow-risky; the audit line says demo, not a port', async () => {
    const folder = join(home, 'create');
    const run = await runCli(['--demo', 'keys', 'create', '--sub', name(), '--permissions', 'SPOT_WITHDRAW_WRITE', '--note', 'demo key', '--json'], {
      BROKER_CONSOLE_HOME: folder,
    });
    expect(run.code, run.stderr).toBe(0);
    const line = JSON.parse(readFileSync(join(folder, AUDIT_FILE), 'utf8').trim().split('\n').at(-1) ?? '{}') as {
      profile: string;
      host: string;
      outcome: string;
    };
    expect(line).toMatchObject({ profile: 'demo', host: 'demo', outcome: 'created' });
    // Nothing learned of this run's sandbox (its port is new every run) is kept for the next.
    for (const kept of [POST_SIGNATURES_FILE, CLOCK_OFFSETS_FILE, BANS_FILE]) expect(existsSync(join(folder, kept)), kept).toBe(false);
  });

  it("--verbose shows the demo's requests as any other run's", async () => {
    const run = await runCli(['--demo', '--verbose', 'keys', 'list', '--sub', name()], { BROKER_CONSOLE_HOME: join(home, 'verbose') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^debug: .* GET \/\S+ status=200 /m);
  });

  it("the demo run: loopback, the demo's credentials, no profile or proxy; closed, it refuses connections", async () => {
    const demo = await startDemoRun({ BROKER_PROFILE: 'prod', HTTPS_PROXY: 'http://127.0.0.1:9', BROKER_API_KEY: 'live-key', PATH: '/bin' }, undefined);
    const baseUrl = demo.env.BROKER_BASE_URL ?? '';
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(demo.env.BROKER_API_KEY).not.toBe('live-key');
    expect(demo.env.BROKER_PROFILE).toBeUndefined();
    expect(demo.env.HTTPS_PROXY).toBeUndefined();
    expect(demo.env.PATH).toBe('/bin');
    expect((await fetch(`${baseUrl}/api/v3/time`)).status).toBeLessThan(500);
    await demo.close();
    await expect(fetch(`${baseUrl}/api/v3/time`)).rejects.toThrow();
  });

  it.each([
    [['--demo', '--base-url', 'http://127.0.0.1:9', 'keys', 'list', '--sub', 'x'], /--demo: the demo is the target: it cannot go with --base-url/],
    [
      ['--demo', '--profile', 'prod', 'transfers', '--from-type', 'SPOT', '--to-type', 'FUTURES'],
      /--demo: the demo is the target: it cannot go with --profile/,
    ],
    [['--demo', 'profile', 'list'], /--demo: only the console and keys list, .* reach the demo \(not profile list\)/],
    [['--demo', 'audit'], /--demo: audit reads the trail on this machine, the demo's attempts included: run `broker-console audit` \(profile demo\)/],
  ])('%j: exit 2, one line', async (args, message) => {
    const run = await runCli(args, { BROKER_CONSOLE_HOME: join(home, 'bad') });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
