// Reaching the service through a proxy: --proxy, the profile's proxy, HTTPS_PROXY/HTTP_PROXY (either case) and
// NO_PROXY, against the sandbox and a proxy on 127.0.0.1 that counts what went through it. The commands run
// in-process (main(), as the bin runs it); the https:// cases, which need the test CA trusted, run the built binary.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { bypassesProxy, chooseProxy, cleartextWarning, showProxyUrl } from '../../src/api/proxy';
import { EXIT } from '../../src/commands/context';
import { runKeysList } from '../../src/commands/keysList';
import { runProfileAdd, runProfileList } from '../../src/commands/profile';
import type { Keychain, StoredCredentials } from '../../src/credentials/keychain';
import type { RunningSandbox } from '../../src/sandbox/types';
import { runBuiltCli, runCli, sandboxEnv, testContext } from '../commands/helpers';
import { sandboxFor } from '../sandbox/helpers';
import { type TestCertificates, makeCertificates, testProxy, tlsFront } from './networkServers';
import { readAuditTrail } from '../../src/config/auditTrail';

let home: string;
let certs: TestCertificates;
let runs = 0;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'bc-proxy-'));
  certs = makeCertificates();
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  certs.remove();
});

/** A config folder and a log file of the run's own. */
function fresh(): { folder: string; log: string } {
  runs += 1;
  return { folder: join(home, `home-${runs}`), log: join(home, `log-${runs}.txt`) };
}

function list(sandbox: RunningSandbox, env: Record<string, string>, flags: string[] = []) {
  const { folder, log } = fresh();
  const ran = runCli([...flags, '--log-file', log, 'keys', 'list', '--sub', sandbox.subAccounts[0] ?? 'desk'], {
    ...sandboxEnv(sandbox),
    BROKER_CONSOLE_HOME: folder,
    ...env,
  });
  return ran.then((result) => ({ ...result, log: readLogIfAny(log) }));
}

function readLogIfAny(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

describe('which proxy: the environment, either case, and NO_PROXY', () => {
  it('HTTP_PROXY and http_proxy each take an http:// base URL through the proxy; the log file names it', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      const proxy = await testProxy(onTestFinished);
      const before = sandbox.requests().length;
      const ran = await list(sandbox, { [name]: proxy.url });
      expect(ran.code, ran.stderr).toBe(EXIT.ok);
      expect(proxy.forwarded).toBe(1);
      expect(proxy.targets).toEqual([new URL(sandbox.baseUrl).host]);
      expect(sandbox.requests().length - before).toBe(1);
      expect(ran.log).toMatch(new RegExp(` proxy=${proxy.url.replace(/[.:/]/g, '\\$&')}\\n$`));
    }
  });

  it('the lower-case variable wins over the upper-case one (as undici and curl read them)', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const lower = await testProxy(onTestFinished);
    const upper = await testProxy(onTestFinished);
    const ran = await list(sandbox, { http_proxy: lower.url, HTTP_PROXY: upper.url });
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect([lower.forwarded, upper.forwarded]).toEqual([1, 0]);
  });

  it('NO_PROXY (host, host:port, *, either case) sends a matching base URL direct; a non-matching one still goes through', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const { hostname: host, port } = new URL(sandbox.baseUrl);
    const forms: Record<string, string>[] = [{ NO_PROXY: host }, { no_proxy: `example.com, ${host}:${port}` }, { NO_PROXY: '*' }];
    for (const noProxy of forms) {
      const proxy = await testProxy(onTestFinished);
      const before = sandbox.requests().length;
      const ran = await list(sandbox, { HTTP_PROXY: proxy.url, ...noProxy });
      expect(ran.code, ran.stderr).toBe(EXIT.ok);
      expect(proxy.forwarded + proxy.tunnels, JSON.stringify(noProxy)).toBe(0);
      expect(sandbox.requests().length - before).toBe(1);
      expect(ran.log).not.toContain('proxy=');
    }
    const proxy = await testProxy(onTestFinished);
    const ran = await list(sandbox, { HTTP_PROXY: proxy.url, NO_PROXY: `example.com,${host}:${Number(port) + 1}` });
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(proxy.forwarded).toBe(1);
  });

  it('HTTPS_PROXY is not used for an http:// base URL', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const proxy = await testProxy(onTestFinished);
    const ran = await list(sandbox, { HTTPS_PROXY: proxy.url, https_proxy: proxy.url });
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(proxy.forwarded + proxy.tunnels).toBe(0);
  });

  it('NO_PROXY is matched as undici matches it (suffixes, leading dot or *., ports, brackets kept on IPv6)', () => {
    const cases: [string, string, boolean][] = [
      ['https://api.mexc.com', 'mexc.com', true],
      ['https://api.mexc.com', '.mexc.com', true],
      ['https://api.mexc.com', '*.mexc.com', true],
      ['https://apimexc.com', 'mexc.com', false],
      ['https://api.mexc.com', 'api.mexc.com:443', true],
      ['https://api.mexc.com', 'api.mexc.com:8443', false],
      ['http://[::1]:8080', '[::1]', true],
      ['http://127.0.0.1:8080', 'localhost', false],
      ['https://API.MEXC.COM', 'api.mexc.com', true],
      ['https://api.mexc.com', '', false],
    ];
    for (const [url, noProxy, bypass] of cases) expect(bypassesProxy(new URL(url), noProxy), `${url} ${noProxy}`).toBe(bypass);
    // An https:// base URL takes only HTTPS_PROXY / https_proxy.
    expect(chooseProxy('https://api.example.com', undefined, { HTTP_PROXY: 'http://p:1' })).toEqual({});
    expect(chooseProxy('https://api.example.com', undefined, { HTTPS_PROXY: 'http://p:1' }).proxy?.source).toBe('HTTPS_PROXY');
  });
});

describe('--proxy and the profile', () => {
  it('--proxy takes the requests through the proxy, before HTTP_PROXY', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const flag = await testProxy(onTestFinished);
    const env = await testProxy(onTestFinished);
    const ran = await list(sandbox, { HTTP_PROXY: env.url }, ['--proxy', flag.url]);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect([flag.forwarded, env.forwarded]).toEqual([1, 0]);
    expect(ran.log).toContain(`proxy=${flag.url}`);
  });

  it('--proxy with a password, or not a URL: exit 2, nothing sent, the password never echoed', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const proxy = await testProxy(onTestFinished);
    const port = new URL(proxy.url).port;
    for (const [value, line] of [
      [`http://ops:hunter2pass@127.0.0.1:${port}`, /^error: --proxy: must not carry a password .* — nothing was sent$/m],
      ['socks5://127.0.0.1:1080', /^error: --proxy: must start with http:\/\/ or https:\/\/ \(got socks5:\) — nothing was sent$/m],
      ['proxy here', /^error: --proxy: is not a URL/m],
    ] as const) {
      const ran = await list(sandbox, {}, ['--proxy', value]);
      expect(ran.code).toBe(EXIT.usage);
      expect(ran.stderr).toMatch(line);
      expect(ran.stderr).not.toContain('hunter2pass');
    }
    expect(proxy.forwarded + proxy.tunnels + proxy.refused).toBe(0);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it('HTTP_PROXY that is not a URL: exit 2 naming the variable, nothing sent (a proxy is never gone around)', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const ran = await list(sandbox, { HTTP_PROXY: 'proxy.internal' });
    expect(ran.code).toBe(EXIT.usage);
    expect(ran.stderr).toMatch(/^error: HTTP_PROXY: the proxy URL is not a URL .* — nothing was sent$/m);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it('a proxy user and password from HTTP_PROXY reach the proxy; the log shows the user, never the password', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const proxy = await testProxy(onTestFinished, { requireAuthorization: `Basic ${Buffer.from('ops:s3cret-proxy').toString('base64')}` });
    const withCredentials = proxy.url.replace('http://', 'http://ops:s3cret-proxy@');
    const ran = await list(sandbox, { HTTP_PROXY: withCredentials });
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect([proxy.forwarded, proxy.refused]).toEqual([1, 0]);
    expect(ran.log).toContain(`proxy=${proxy.url.replace('http://', 'http://ops:***@')}`);
    expect(`${ran.log}${ran.stderr}${ran.stdout}`).not.toContain('s3cret-proxy');
    expect(showProxyUrl('http://a:b@h:1/')).toBe('http://a:***@h:1');
  });

  it('a forward proxy answering 407 to a create: exit 1, no key was created, not retried; the service sees nothing', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const proxy = await testProxy(onTestFinished, { requireAuthorization: 'Basic never' });
    const { folder } = fresh();
    const ran = await runCli(
      ['keys', 'create', '--allow-risky', '--sub', sandbox.subAccounts[0] ?? 'desk', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'n'],
      { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: folder, HTTP_PROXY: proxy.url },
    );
    expect(ran.code).toBe(EXIT.failure);
    expect(ran.stderr).toBe(
      `error: create key failed: the proxy ${proxy.url} asks for credentials (HTTP 407): put them in the proxy URL, http://user:password@host:port — nothing was sent, no key was created; check the proxy setting\n`,
    );
    expect(proxy.refused).toBe(1);
    expect(sandbox.requests()).toHaveLength(0);
    // As the trail is read: the attempt recorded ahead is closed as never sent.
    expect((await readAuditTrail(folder)).entries).toEqual([]);
  });

  it('a profile saved with --proxy sends through it; the flag and the environment are not needed', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const proxy = await testProxy(onTestFinished);
    const { folder } = fresh();
    const store = new Map<string, StoredCredentials>();
    const keychain: Keychain = {
      get: async (name) => store.get(name),
      set: async (name, value) => void store.set(name, value),
      remove: async (name) => store.delete(name),
    };
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end(`${sandbox.apiKey}\n${sandbox.secretKey}\n`);
    const add = testContext(
      undefined,
      { configFolder: folder, keychain: async () => keychain, stdin, createApi: createBrokerApi },
      { baseUrl: sandbox.baseUrl, proxy: proxy.url },
    );
    expect(await runProfileAdd('desk', {}, add.ctx), add.err.text()).toBe(EXIT.ok);
    // The credentials check went through the proxy too.
    expect(proxy.forwarded).toBe(1);
    expect(add.out.text()).toContain(`through the proxy ${proxy.url}`);
    expect(JSON.parse(readFileSync(join(folder, 'profiles.json'), 'utf8')).profiles[0].proxy).toBe(proxy.url);
    const listed = testContext(undefined, { configFolder: folder, keychain: async () => keychain });
    expect(await runProfileList({ json: true }, listed.ctx)).toBe(EXIT.ok);
    expect(JSON.parse(listed.out.text())[0]).toMatchObject({ name: 'desk', proxy: proxy.url });
    const use = testContext(undefined, { configFolder: folder, keychain: async () => keychain, createApi: createBrokerApi });
    expect(await runKeysList({ sub: sandbox.subAccounts[0] ?? 'desk' }, use.ctx), use.err.text()).toBe(EXIT.ok);
    expect(proxy.forwarded).toBe(2);
    expect(sandbox.requests()).toHaveLength(2);
  });
});

describe('profile add checks through the same path', () => {
  it('a self-signed service: the check says so in words with the NODE_EXTRA_CA_CERTS hint; nothing is saved', async ({ onTestFinished }) => {
    const front = await tlsFront(onTestFinished, certs.selfSigned);
    const { folder } = fresh();
    const store = new Map<string, StoredCredentials>();
    const keychain: Keychain = {
      get: async (name) => store.get(name),
      set: async (name, value) => void store.set(name, value),
      remove: async (name) => store.delete(name),
    };
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end('mx0vkey12345678\nsecret\n');
    const add = testContext(undefined, { configFolder: folder, keychain: async () => keychain, stdin, createApi: createBrokerApi }, { baseUrl: front.baseUrl });
    expect(await runProfileAdd('desk', {}, add.ctx)).toBe(EXIT.failure);
    expect(add.err.text()).toContain(
      `error: could not reach ${front.baseUrl}: the service's certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) — if your network uses its own CA, set NODE_EXTRA_CA_CERTS=/path/ca.pem\n`,
    );
    expect(store.size).toBe(0);
    expect(front.requests()).toBe(0);
  });
});

describe('plain http:// to another host is flagged', () => {
  it('a warning line on stderr for a non-loopback http:// base URL (reached here through the test proxy), none for loopback or https', async ({
    onTestFinished,
  }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const { hostname: host, port } = new URL(sandbox.baseUrl);
    // The proxy sends every target to the sandbox: the name is never looked up, nothing leaves this machine.
    const proxy = await testProxy(onTestFinished, { routeTo: () => ({ host, port: Number(port) }) });
    const ran = await list(sandbox, { BROKER_BASE_URL: 'http://broker.example.test' }, ['--proxy', proxy.url]);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(proxy.targets).toEqual(['broker.example.test']);
    expect(ran.stderr).toBe('warning: plain http:// to broker.example.test: the API key, signatures and created secrets travel unencrypted — use https://\n');
    const local = await list(sandbox, {});
    expect(local.code).toBe(EXIT.ok);
    expect(local.stderr).toBe('');
    for (const url of ['http://127.0.0.1:8080', 'http://127.9.9.9', 'http://localhost:1', 'http://[::1]:9', 'https://api.example.com'])
      expect(cleartextWarning(url), url).toBeUndefined();
    expect(cleartextWarning('http://10.0.0.5:8080')).toContain('plain http:// to 10.0.0.5:8080');
  });
});

describe('https:// through a CONNECT proxy (the built binary, the test CA in NODE_EXTRA_CA_CERTS)', () => {
  it('HTTPS_PROXY and https_proxy open a tunnel; keys list answers; the log file names the proxy', async ({ onTestFinished }) => {
    const sandbox = await sandboxFor(onTestFinished);
    const front = await tlsFront(onTestFinished, certs.loopback, sandbox.baseUrl);
    for (const name of ['HTTPS_PROXY', 'https_proxy']) {
      const proxy = await testProxy(onTestFinished);
      const { folder, log } = fresh();
      const ran = await runBuiltCli(['--log-file', log, 'keys', 'list', '--sub', sandbox.subAccounts[0] ?? 'desk', '--json'], {
        ...sandboxEnv(sandbox),
        BROKER_BASE_URL: front.baseUrl,
        BROKER_CONSOLE_HOME: folder,
        NODE_EXTRA_CA_CERTS: certs.caFile,
        [name]: proxy.url,
      });
      expect(ran.code, ran.stderr).toBe(EXIT.ok);
      expect(Array.isArray(JSON.parse(ran.stdout))).toBe(true);
      expect(proxy.tunnels).toBe(1);
      expect(proxy.targets).toEqual([new URL(front.baseUrl).host]);
      expect(readFileSync(log, 'utf8')).toContain(`proxy=${proxy.url}`);
    }
    expect(front.requests()).toBe(2);
  }, 30_000);
});
