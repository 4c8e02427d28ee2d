import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { runSandboxCommand } from '../../src/commands/sandbox';
import { listKeys } from './helpers';

const capture = (): { out: PassThrough; text: () => string } => {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { out, text: () => chunks.join('') };
};

describe('sandbox command', () => {
  test('prints base URL, master credentials and sub-accounts first, and serves them', async () => {
    const { out, text } = capture();
    const sb = await runSandboxCommand({ seed: 1 }, out, { handleSignals: false });
    try {
      const lines = text().split('\n');
      expect(lines[0]).toBe(`base URL:     ${sb.baseUrl}`);
      expect(lines[1]).toBe(`API key:      ${sb.apiKey}`);
      expect(lines[2]).toBe(`secret key:   ${sb.secretKey}`);
      expect(lines[3]).toBe(`sub-accounts: ${sb.subAccounts.join(', ')}`);
      expect(lines[4]).toBe('frozen:       frozendesk01 (every operation on it answers 140002)');
      expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  test('--json prints exactly one JSON line; given credentials are used', async () => {
    const { out, text } = capture();
    const sb = await runSandboxCommand({ json: true, seed: 2, apiKey: 'mx0vdemo', secretKey: 'throwaway' }, out, { handleSignals: false });
    try {
      const printed = text();
      expect(printed.endsWith('\n')).toBe(true);
      expect(printed.trimEnd().split('\n')).toHaveLength(1);
      const parsed = JSON.parse(printed) as Record<string, unknown>;
      expect(parsed).toEqual({ baseUrl: sb.baseUrl, apiKey: 'mx0vdemo', secretKey: 'throwaway', subAccounts: sb.subAccounts });
      expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  test('SIGTERM closes the sandbox and exits 0; closing by hand removes the handlers', async () => {
    const { out } = capture();
    const before = process.listenerCount('SIGTERM');
    let exitCode: number | undefined;
    const exited = new Promise<void>((resolve) => {
      void runSandboxCommand({}, out, {
        exit: (code) => {
          exitCode = code;
          resolve();
        },
      }).then(async (sb) => {
        expect(process.listenerCount('SIGTERM')).toBe(before + 1);
        expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
        process.emit('SIGTERM');
      });
    });
    await exited;
    expect(exitCode).toBe(0);

    const sb = await runSandboxCommand({}, out);
    expect(process.listenerCount('SIGINT')).toBeGreaterThan(0);
    const sigint = process.listenerCount('SIGINT');
    await sb.close();
    expect(process.listenerCount('SIGINT')).toBe(sigint - 1);
  });
});
