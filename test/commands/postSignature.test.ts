// The POST signature setting from the operator's side: `keys create` falls back once and remembers the rule per
// base URL (the next run sends it first), BROKER_POST_SIGNATURE and a profile's setting reach the client, bad
// values are refused before anything is sent, and the sandbox command takes --post-signature.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATH } from '../../src/api/operations';
import { runSandboxCommand } from '../../src/commands/sandbox';
import { POST_SIGNATURES_FILE } from '../../src/config/postSignatures';
import { PROFILES_FILE, saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { capture, runCli, sandboxEnv } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let bodySandbox: RunningSandbox;
let querySandbox: RunningSandbox;
const homes: string[] = [];

beforeAll(async () => {
  [bodySandbox, querySandbox] = await Promise.all([ownSandbox({ seed: 41, postSignature: 'body' }), ownSandbox({ seed: 42 })]);
});
afterAll(async () => {
  await Promise.all([bodySandbox.close(), querySandbox.close()]);
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'bc-post-signature-'));
  homes.push(home);
  return home;
}

/** The statuses of the creates a sandbox received since `from`. */
function posts(sb: RunningSandbox, from: number): number[] {
  return sb
    .requests()
    .slice(from)
    .filter((r) => r.method === 'POST' && r.path === API_KEY_PATH)
    .map((r) => r.status);
}

const create = (sb: RunningSandbox, note: string) => [
  'keys',
  'create',
  '--allow-risky',
  '--sub',
  sb.subAccounts[0] ?? '',
  '--permissions',
  'SPOT_ACCOUNT_READ',
  '--note',
  note,
  '--json',
];

describe('keys create under auto (the default)', () => {
  it('falls back once against a body-only service and remembers it: the next run sends query + body first', async () => {
    const home = newHome();
    const env = { ...sandboxEnv(bodySandbox), BROKER_CONSOLE_HOME: home };
    let from = bodySandbox.requests().length;
    const first = await runCli(create(bodySandbox, 'first'), env);
    expect(first.code, first.stderr).toBe(0);
    expect(posts(bodySandbox, from)).toEqual([400, 200]);
    expect(JSON.parse(readFileSync(join(home, POST_SIGNATURES_FILE), 'utf8'))).toEqual({
      [bodySandbox.baseUrl]: { rule: 'body', acceptedAt: expect.any(Number) },
    });
    // What the file keeps is not secret: no key, secret or signature.
    const kept = readFileSync(join(home, POST_SIGNATURES_FILE), 'utf8');
    expect(kept).not.toContain(bodySandbox.secretKey);
    expect(kept).not.toContain((JSON.parse(first.stdout) as { secretKey: string }).secretKey);

    from = bodySandbox.requests().length;
    const second = await runCli(create(bodySandbox, 'second'), env);
    expect(second.code, second.stderr).toBe(0);
    expect(posts(bodySandbox, from)).toEqual([200]);
  });

  it('against the default sandbox: one POST, the query-only rule is kept', async () => {
    const home = newHome();
    const from = querySandbox.requests().length;
    const run = await runCli(create(querySandbox, 'plain'), { ...sandboxEnv(querySandbox), BROKER_CONSOLE_HOME: home });
    expect(run.code, run.stderr).toBe(0);
    expect(posts(querySandbox, from)).toEqual([200]);
    expect(JSON.parse(readFileSync(join(home, POST_SIGNATURES_FILE), 'utf8'))[querySandbox.baseUrl]).toMatchObject({ rule: 'query' });
  });
});

describe('BROKER_POST_SIGNATURE', () => {
  it('query pins the rule: one refused POST, exit 1, the message names the setting, nothing remembered', async () => {
    const home = newHome();
    const from = bodySandbox.requests().length;
    const run = await runCli(create(bodySandbox, 'pinned'), { ...sandboxEnv(bodySandbox), BROKER_CONSOLE_HOME: home, BROKER_POST_SIGNATURE: 'query' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('700002');
    expect(run.stderr).toContain('pinned to query only');
    expect(run.stderr).not.toContain(bodySandbox.secretKey);
    expect(posts(bodySandbox, from)).toEqual([400]);
    expect(() => readFileSync(join(home, POST_SIGNATURES_FILE), 'utf8')).toThrow();
  });

  it('body pins the other rule: accepted by a body-only service in one POST', async () => {
    const from = bodySandbox.requests().length;
    const run = await runCli(create(bodySandbox, 'pinned-body'), { ...sandboxEnv(bodySandbox), BROKER_CONSOLE_HOME: newHome(), BROKER_POST_SIGNATURE: 'Body' });
    expect(run.code, run.stderr).toBe(0);
    expect(posts(bodySandbox, from)).toEqual([200]);
  });

  it('a value it cannot mean: exit 2, the variable named, nothing sent', async () => {
    const from = bodySandbox.requests().length;
    const run = await runCli(create(bodySandbox, 'never'), { ...sandboxEnv(bodySandbox), BROKER_CONSOLE_HOME: newHome(), BROKER_POST_SIGNATURE: 'sideways' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: BROKER_POST_SIGNATURE: must be auto, query, body (got 'sideways')\n");
    expect(bodySandbox.requests().length).toBe(from);
  });
});

describe("a profile's setting", () => {
  it('reaches the client (pinned body: one refused POST to a query-only service), and BROKER_POST_SIGNATURE overrides it', async () => {
    const home = newHome();
    await saveProfile(home, { name: 'desk', baseUrl: querySandbox.baseUrl, apiKeyHeader: querySandbox.apiKeyHeader, recvWindow: 5000, postSignature: 'body' });
    // Environment credentials take the settings of the profile they name.
    const env = { BROKER_API_KEY: querySandbox.apiKey, BROKER_API_SECRET: querySandbox.secretKey, BROKER_CONSOLE_HOME: home };
    let from = querySandbox.requests().length;
    const pinned = await runCli(['--profile', 'desk', ...create(querySandbox, 'desk')], env);
    expect(pinned.code).toBe(1);
    expect(pinned.stderr).toContain('pinned to query + body');
    expect(posts(querySandbox, from)).toEqual([400]);

    from = querySandbox.requests().length;
    const overridden = await runCli(['--profile', 'desk', ...create(querySandbox, 'desk-auto')], { ...env, BROKER_POST_SIGNATURE: 'auto' });
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(posts(querySandbox, from)).toEqual([200]);
  });

  it('older profile files: signBody false reads as query, true as auto; profile list shows the setting', async () => {
    const home = newHome();
    writeFileSync(
      join(home, PROFILES_FILE),
      JSON.stringify({
        version: 1,
        profiles: [
          { name: 'old-query', baseUrl: 'http://127.0.0.1:9', signBody: false },
          { name: 'old-default', baseUrl: 'http://127.0.0.1:9', signBody: true },
          { name: 'new', baseUrl: 'http://127.0.0.1:9', postSignature: 'body' },
        ],
      }),
    );
    const env = { BROKER_API_KEY: 'mx0vlistingonly', BROKER_API_SECRET: 'x', BROKER_CONSOLE_HOME: home };
    const listed = await runCli(['profile', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string; postSignature: string }[]).map((p) => [p.name, p.postSignature])).toEqual([
      ['old-query', 'query'],
      ['old-default', 'auto'],
      ['new', 'body'],
    ]);
    const table = await runCli(['profile', 'list'], env);
    expect(table.stdout).toMatch(/POST signing/);
    expect(table.stdout).toMatch(/old-query .*query/);
    // What a run would use: the environment's setting.
    const overridden = await runCli(['profile', 'list', '--json'], { ...env, BROKER_POST_SIGNATURE: 'query' });
    expect((JSON.parse(overridden.stdout) as { postSignature: string }[]).map((p) => p.postSignature)).toEqual(['query', 'query', 'query']);
  });

  it('profile add: a rule it cannot mean, or one that contradicts --no-sign-body, is refused before anything is asked', async () => {
    const home = newHome();
    const bad = await runCli(['profile', 'add', 'x', '--base-url', querySandbox.baseUrl, '--post-signature', 'sideways'], { BROKER_CONSOLE_HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'--post-signature <rule>' argument 'sideways' is invalid. must be one of auto, query, body");
    const both = await runCli(['profile', 'add', 'x', '--base-url', querySandbox.baseUrl, '--post-signature', 'body', '--no-sign-body'], {
      BROKER_CONSOLE_HOME: home,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: --post-signature: body contradicts --no-sign-body (which means query)\n');
  });
});

describe('the sandbox command', () => {
  it('--post-signature either: says so, and accepts a create signed by either rule', async () => {
    const out = capture();
    const sb = await runSandboxCommand({ seed: 43, postSignature: 'either' }, out.stream as PassThrough, { handleSignals: false });
    try {
      expect(out.text()).toContain('signatures over the query or the query + body');
      for (const rule of ['query', 'body']) {
        const run = await runCli(create(sb, rule), { ...sandboxEnv(sb), BROKER_CONSOLE_HOME: newHome(), BROKER_POST_SIGNATURE: rule });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(posts(sb, 0)).toEqual([200, 200]);
    } finally {
      await sb.close();
    }
  });

  it('refuses a rule it does not know before starting', async () => {
    const run = await runCli(['sandbox', '--post-signature', 'auto']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must be one of query, body, either');
  });
});
