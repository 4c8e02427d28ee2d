// The console says how it reaches the service: the status bar names the proxy a request went through (never its
// password), and the header flags a plain http:// base URL to another host.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleartextWarning, showProxyUrl } from '../../src/api/proxy';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { testProxy } from '../api/networkServers';
import { sandboxFor } from '../sandbox/helpers';
import { openKeys } from './flows';
import { type TestConsole, startConsole } from './harness';

let c: TestConsole | undefined;
afterEach(async () => c?.cleanup());

describe('reaching the service, as the console shows it', () => {
  test('the status bar names the proxy of the last request, without its password', async ({ onTestFinished }) => {
    const proxy = await testProxy(onTestFinished);
    const url = proxy.url.replace('http://', 'http://ops:pa55word@');
    c = await startConsole({ mode: 'live', columns: 120, everyCommit: true, proxy: { url, shown: showProxyUrl(url), source: 'HTTP_PROXY' } });
    await openKeys(c, c.sandbox.subAccounts[0]!);
    await c.waitForText(/✓ list keys 200 · \d+ ms · via http:\/\/ops:\*\*\*@127\.0\.0\.1:\d+/);
    expect(proxy.forwarded).toBeGreaterThanOrEqual(1);
    expect(c.frames().join('')).not.toContain('pa55word');
  });

  test('a plain http:// base URL to another host gets a PLAIN HTTP badge in the header; loopback gets none', async () => {
    c = await startConsole({ mode: 'live', cleartext: cleartextWarning('http://broker.example.test') });
    expect(c.frame().split('\n')[0]).toContain(' PLAIN HTTP ');
    await c.cleanup();
    c = await startConsole({ mode: 'live' });
    expect(c.frame().split('\n')[0]).not.toContain('PLAIN HTTP');
  });
});

describe('the console targets wire it (src/commands/consoleTargets.ts)', () => {
  test('a live target on plain http:// to another host carries the warning the header shows; the proxy of the environment is used', async ({
    onTestFinished,
  }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const { hostname: host, port } = new URL(sandbox.baseUrl);
    const proxy = await testProxy(onTestFinished, { routeTo: () => ({ host, port: Number(port) }) });
    const folder = await mkdtemp(join(tmpdir(), 'bc-ui-network-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const targets = createConsoleTargets({ folder, exportFolder: folder, env: { http_proxy: proxy.url } });
    onTestFinished(() => targets.close());
    await targets.openResolved({ baseUrl: 'http://broker.example.test', apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' });
    expect(targets.current()?.cleartext).toContain('plain http:// to broker.example.test');
    expect(await targets.current()?.api.listSubAccountKeys(sandbox.subAccounts[0]!)).toEqual(expect.any(Array));
    expect(proxy.targets).toEqual(['broker.example.test']);
    await targets.openResolved({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' });
    expect(targets.current()?.cleartext).toBeUndefined();
  });

  test('a proxy URL that cannot be used refuses every call, naming it: the console never goes around it', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const folder = await mkdtemp(join(tmpdir(), 'bc-ui-network-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const targets = createConsoleTargets({ folder, exportFolder: folder, env: { HTTP_PROXY: 'proxy.internal:3128' } });
    onTestFinished(() => targets.close());
    await targets.openResolved({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, source: 'environment' });
    await expect(targets.current()!.api.listSubAccountKeys('desk')).rejects.toThrow(
      /^list keys was not sent: HTTP_PROXY: the proxy URL must start with http:\/\/ or https:\/\/ .* — nothing was sent$/,
    );
    expect(sandbox.requests()).toHaveLength(0);
  });
});
