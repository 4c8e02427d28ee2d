// A read-only run of the built binary in a real terminal: the demo with --read-only (its
// --log-file shows every request it made: no POST), and a live run with BROKER_READ_ONLY=1 against a sandbox
// whose own request log shows no create, at 40x12 without colour.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCli } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';
import { ownSandbox } from '../sandbox/helpers';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e read-only tests: ${missing}`);

// Concurrent: two consoles of their own (folder, tmux server, sandbox), their waits for the screen overlap.
describe.skipIf(missing !== undefined).concurrent('a read-only run in tmux', () => {
  it('the demo with --read-only: READ-ONLY in the header, n says why and opens nothing, no create sent', async ({ onTestFinished }) => {
    const bin = await buildCli();
    const folder = mkdtempSync(join(tmpdir(), 'bc-e2e-ro-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const log = join(folder, 'exchanges.log');
    const script = `node ${bin} --demo --read-only --log-file ${log}; printf "EXIT=%s\\n" $?; sleep 600`;
    const session = TmuxSession.console(`bash --norc --noprofile -c '${script}'`, folder);
    onTestFinished(() => session.kill());
    let screen = await session.waitFor('Choose a sub-account');
    expect(screen.split('\n')[0]).toMatch(/ DEMO +READ-ONLY /);
    await session.type('mmbot5143');
    await session.keys('Enter');
    screen = await session.waitFor(/API keys of mmbot5143 · \d+ keys?/);
    expect(screen.trimEnd().split('\n').at(-1)).not.toContain('n new key');
    await session.keys('n');
    screen = await session.waitFor('read-only run (--read-only): creating keys is disabled');
    expect(screen).not.toContain('New API key');
    expect(screen.split('\n')[0]).toContain('READ-ONLY');
    await session.keys('q');
    await session.waitFor('EXIT=0');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(lines.some((l) => / GET \/api\/v3\/broker\/sub-account\/apiKey /.test(l))).toBe(true);
    expect(lines.filter((l) => / POST /.test(l))).toEqual([]);
    // Nothing was sent, so nothing was recorded.
    expect(existsSync(join(folder, 'config', 'audit.jsonl'))).toBe(false);
  });

  it('BROKER_READ_ONLY=1 against a sandbox at 40x12 with NO_COLOR: READ-ONLY shown, the sandbox receives no create', async ({ onTestFinished }) => {
    const bin = await buildCli();
    const sandbox = await ownSandbox({ seed: 4 });
    onTestFinished(() => sandbox.close());
    const folder = mkdtempSync(join(tmpdir(), 'bc-e2e-ro-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const sub = sandbox.subAccounts[0]!;
    const session = TmuxSession.console(`bash --norc --noprofile -c 'node ${bin}; printf "EXIT=%s\\n" $?; sleep 600'`, folder, {
      columns: 40,
      rows: 12,
      env: { BROKER_BASE_URL: sandbox.baseUrl, BROKER_API_KEY: sandbox.apiKey, BROKER_API_SECRET: sandbox.secretKey, BROKER_READ_ONLY: '1', NO_COLOR: '1' },
    });
    onTestFinished(() => session.kill());
    let screen = await session.waitFor('Sub-account');
    expect(screen.split('\n')[0]).toMatch(/ LIVE \S+ +READ-ONLY /);
    // Without colour the badge is still set apart (reverse video).
    expect(session.screenWithAttributes().split('\n')[0]).toMatch(/\u001b\[[0-9;]*7m[^\n]*READ-ONLY/);
    await session.type(sub);
    await session.keys('Enter');
    await session.waitFor(new RegExp(`API keys of ${sub}`));
    await session.keys('n');
    // 40 columns: the short reason, whole (the long one names BROKER_READ_ONLY; see test/ui/readOnly.test.tsx).
    screen = await session.waitFor('read-only: creating keys is disabled');
    expect(screen).not.toContain('New API key');
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    await session.keys('q');
    await session.waitFor('EXIT=0');
    const methods = sandbox.requests().map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(methods).toContain('GET /api/v3/broker/sub-account/apiKey');
    expect(methods.filter((m) => m.startsWith('POST'))).toEqual([]);
  });
});
