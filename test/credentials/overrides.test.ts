// The environment never stands over a profile silently; a URL is never echoed with its password; the API-key
// header cannot be one HTTP itself uses. Commands run in-process against a sandbox over real sockets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { EXIT } from '../../src/commands/context';
import { resolveTarget } from '../../src/credentials/resolve';
import { whoLine } from '../../src/ui/components/StatusBar';
import { runKeysList } from '../../src/commands/keysList';
import { runProfileAdd } from '../../src/commands/profile';
import type { Keychain, StoredCredentials } from '../../src/credentials/keychain';
import { keychainAccount } from '../../src/credentials/keychain';
import { profilesPath, saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { runCli, sandboxEnv, testContext } from '../commands/helpers';
import { ownSandbox } from '../sandbox/helpers';

let folder: string;
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 5 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'bc-overrides-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A keychain holding the sandbox's credentials for one account (what the keychain holds is not the subject here). */
function holding(account: string, credentials: StoredCredentials): () => Promise<Keychain> {
  const entries = new Map([[account, credentials]]);
  return async () => ({
    get: async (a) => entries.get(a),
    set: async (a, c) => void entries.set(a, c),
    remove: async (a) => entries.delete(a),
  });
}

describe('the environment over a profile is said', () => {
  it('BROKER_BASE_URL over a keychain profile: a note names both URLs, and the requests go where it says', async () => {
    await saveProfile(folder, {
      name: 'prod',
      baseUrl: 'https://prod.example',
      apiKeyHeader: 'X-MEXC-APIKEY',
      recvWindow: 5000,
      postSignature: 'auto' as const,
    });
    const keychain = holding(keychainAccount('prod', folder), { apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    const { ctx, err } = testContext(undefined, { env: { BROKER_BASE_URL: sandbox.baseUrl }, configFolder: folder, keychain }, { profile: 'prod' });
    expect(await runKeysList({ sub: sandbox.subAccounts[0]! }, ctx)).toBe(EXIT.ok);
    expect(err.text()).toBe(`note: BROKER_BASE_URL from the environment sends profile 'prod''s requests to ${sandbox.baseUrl}, not https://prod.example\n`);
  });

  it("environment credentials with --profile: a note says the profile's keychain entry is not used", async () => {
    await saveProfile(folder, { name: 'prod', baseUrl: sandbox.baseUrl, apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const });
    const env = { BROKER_API_KEY: sandbox.apiKey, BROKER_API_SECRET: sandbox.secretKey };
    const { ctx, err } = testContext(undefined, { env, configFolder: folder, keychain: () => Promise.reject(new Error('not opened')) }, { profile: 'prod' });
    expect(await runKeysList({ sub: sandbox.subAccounts[0]! }, ctx)).toBe(EXIT.ok);
    expect(err.text()).toBe("note: BROKER_API_KEY/BROKER_API_SECRET from the environment are used, not profile 'prod''s keychain entry\n");
  });

  it("environment credentials without a base URL go to the default profile's: a note names the profile and the URL", async () => {
    await saveProfile(
      folder,
      { name: 'prod', baseUrl: sandbox.baseUrl, apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' as const },
      { makeDefault: true },
    );
    const env = { BROKER_API_KEY: sandbox.apiKey, BROKER_API_SECRET: sandbox.secretKey };
    const { ctx, err } = testContext(undefined, { env, configFolder: folder, keychain: () => Promise.reject(new Error('not opened')) });
    const before = sandbox.requests().length;
    expect(await runKeysList({ sub: sandbox.subAccounts[0]! }, ctx)).toBe(EXIT.ok);
    expect(sandbox.requests().length).toBe(before + 1);
    expect(err.text()).toBe(
      `note: BROKER_API_KEY/BROKER_API_SECRET from the environment go to the default profile 'prod''s base URL ${sandbox.baseUrl} (BROKER_BASE_URL or --base-url sends them elsewhere)\n`,
    );
  });

  it("the console's status bar says the base URL came from the environment", async () => {
    await saveProfile(folder, {
      name: 'prod',
      baseUrl: 'https://prod.example',
      apiKeyHeader: 'X-MEXC-APIKEY',
      recvWindow: 5000,
      postSignature: 'auto' as const,
    });
    const keychain = holding(keychainAccount('prod', folder), { apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    const resolved = await resolveTarget({ flags: { profile: 'prod' }, env: { BROKER_BASE_URL: sandbox.baseUrl }, folder, keychain });
    expect(resolved.ok).toBe(true);
    const targets = createConsoleTargets({ folder, drawn: Promise.resolve(), exportFolder: folder });
    try {
      await targets.openResolved(resolved.ok ? resolved.target : (undefined as never));
      expect(targets.current()?.credentialSource).toBe('keychain · URL from BROKER_BASE_URL');
      expect(whoLine('prod', targets.current()!.credentialSource)).toBe('prod · keychain · URL from BROKER_BASE_URL');
    } finally {
      await targets.close();
    }
  });

  it('with no profile named and no override, nothing is said', async () => {
    const { ctx, err } = testContext(undefined, { env: sandboxEnv(sandbox), configFolder: folder });
    expect(await runKeysList({ sub: sandbox.subAccounts[0]! }, ctx)).toBe(EXIT.ok);
    expect(err.text()).toBe('');
  });
});

describe('a URL is never echoed with its password', () => {
  it.each([
    ['--base-url', ['--base-url', 'https://ops:hunter2@api .example']],
    ['BROKER_BASE_URL', []],
  ])('an invalid %s: exit 2, the user and password left out', async (_from, extra) => {
    const env = { ...sandboxEnv(sandbox), BROKER_BASE_URL: 'https://ops:hunter2@api .example', BROKER_CONSOLE_HOME: folder };
    const before = sandbox.requests().length;
    const r = await runCli(['keys', 'list', '--sub', sandbox.subAccounts[0]!, ...extra], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'https://…@api .example' is not a URL");
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toContain('ops:');
    expect(sandbox.requests().length).toBe(before);
  });
});

describe('the API-key header is one of its own', () => {
  it.each(['Host', 'content-length', 'Authorization', 'Transfer-Encoding', 'Proxy-Authorization', 'Cookie'])(
    'profile add --api-key-header %s: exit 2, nothing saved',
    async (header) => {
      const { ctx, err } = testContext(undefined, { env: {}, configFolder: folder }, { baseUrl: sandbox.baseUrl });
      expect(await runProfileAdd('desk', { apiKeyHeader: header }, ctx)).toBe(EXIT.usage);
      expect(err.text()).toBe(
        `error: --api-key-header: '${header}' is a header HTTP itself uses; the API key needs a header of its own (e.g. X-MEXC-APIKEY)\n`,
      );
    },
  );

  it('a profile file naming Host: the command exits 2 and nothing is sent', async () => {
    writeFileSync(
      profilesPath(folder),
      JSON.stringify({ version: 1, defaultProfile: 'p', profiles: [{ name: 'p', baseUrl: sandbox.baseUrl, apiKeyHeader: 'Host' }] }),
    );
    const keychain = holding(keychainAccount('p', folder), { apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    const before = sandbox.requests().length;
    const { ctx, err } = testContext(undefined, { env: {}, configFolder: folder, keychain });
    expect(await runKeysList({ sub: sandbox.subAccounts[0]! }, ctx)).toBe(EXIT.usage);
    expect(err.text()).toBe(
      "error: profile 'p' apiKeyHeader: 'Host' is a header HTTP itself uses; the API key needs a header of its own (e.g. X-MEXC-APIKEY) — nothing was sent\n",
    );
    expect(sandbox.requests().length).toBe(before);
  });
});
