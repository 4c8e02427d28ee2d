// Resolution order without the keychain (those cases run against the real one in test/commands/profile.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runKeysList } from '../../src/commands/keysList';
import { KeychainError, problem } from '../../src/credentials/keychain';
import { saveProfile } from '../../src/credentials/profiles';
import { resolveTarget } from '../../src/credentials/resolve';
import { testContext } from '../commands/helpers';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'bc-resolve-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const envKeys = { BROKER_API_KEY: 'mx0venvkey', BROKER_API_SECRET: 'envsecret' };
const neverOpened = () => Promise.reject(new Error('the keychain must not be opened'));
const prod = { name: 'prod', baseUrl: 'https://prod.example', apiKeyHeader: 'X-Prod', recvWindow: 7000, postSignature: 'query' as const };

describe('resolveTarget', () => {
  it('environment credentials first; the keychain is not opened', async () => {
    await saveProfile(folder, prod);
    const result = await resolveTarget({ flags: {}, env: { ...envKeys, BROKER_BASE_URL: 'https://env.example/' }, folder, keychain: neverOpened });
    expect(result).toEqual({ ok: true, target: { baseUrl: 'https://env.example', apiKey: 'mx0venvkey', secretKey: 'envsecret', source: 'environment' } });
  });

  it('environment credentials without a base URL take the (default or named) profile’s settings', async () => {
    await saveProfile(folder, prod);
    const result = await resolveTarget({ flags: {}, env: envKeys, folder, keychain: neverOpened });
    expect(result.ok && result.target).toMatchObject({
      baseUrl: 'https://prod.example',
      apiKeyHeader: 'X-Prod',
      recvWindow: 7000,
      postSignature: 'query',
      source: 'environment',
    });
    const named = await resolveTarget({ flags: { profile: 'prod', baseUrl: 'http://127.0.0.1:1' }, env: envKeys, folder, keychain: neverOpened });
    expect(named.ok && named.target).toMatchObject({ baseUrl: 'http://127.0.0.1:1', apiKeyHeader: 'X-Prod' });
  });

  it('half of the environment credentials is an error, not a fallback to a profile', async () => {
    await saveProfile(folder, prod);
    const result = await resolveTarget({ flags: {}, env: { BROKER_API_KEY: 'k' }, folder, keychain: neverOpened });
    expect(result).toEqual({ ok: false, reason: 'no-credentials', message: 'no credentials: BROKER_API_KEY is set but BROKER_API_SECRET is not' });
  });

  it('no profiles and no environment: no-profile, pointing to profile add, the variables and --demo', async () => {
    const result = await resolveTarget({ flags: {}, env: {}, folder, keychain: neverOpened });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe('no-profile');
      expect(result.message).toMatch(/profile add NAME --base-url URL.*BROKER_API_KEY.*--demo/);
    }
  });

  it('unknown profile by flag or BROKER_PROFILE', async () => {
    await saveProfile(folder, prod);
    const byFlag = await resolveTarget({ flags: { profile: 'dev' }, env: {}, folder, keychain: neverOpened });
    expect(byFlag).toMatchObject({
      ok: false,
      reason: 'unknown-profile',
      message: expect.stringMatching(/^no profile named 'dev' \(--profile\); profiles: prod/),
    });
    const byEnv = await resolveTarget({ flags: {}, env: { BROKER_PROFILE: 'dev' }, folder, keychain: neverOpened });
    expect(byEnv).toMatchObject({ ok: false, reason: 'unknown-profile', message: expect.stringMatching(/\(BROKER_PROFILE\)/) });
    // A typo of a profile's name is said as one, not as a profile to add.
    const typo = await resolveTarget({ flags: { profile: 'prdo' }, env: {}, folder, keychain: neverOpened });
    expect(typo).toMatchObject({ ok: false, reason: 'unknown-profile', message: "no profile named 'prdo' (--profile): did you mean prod? profiles: prod" });
    // The demo's name: not a profile to add, but the demo.
    const demo = await resolveTarget({ flags: { profile: 'demo' }, env: {}, folder, keychain: neverOpened });
    expect(demo).toMatchObject({
      ok: false,
      reason: 'unknown-profile',
      message: "no profile named 'demo' (--profile); profiles: prod: 'demo' is not a profile; --demo opens the demo",
    });
  });

  it('with environment credentials and --base-url, a named profile that is unknown or unreadable is still an error (its read-only setting is not dropped)', async () => {
    await saveProfile(folder, { ...prod, readOnly: true });
    const env = { ...envKeys, BROKER_BASE_URL: 'http://127.0.0.1:1' };
    const typo = await resolveTarget({ flags: { profile: 'prod-ro' }, env, folder, keychain: neverOpened });
    expect(typo).toMatchObject({ ok: false, reason: 'unknown-profile', message: expect.stringMatching(/^no profile named 'prod-ro' \(--profile\)/) });
    const named = await resolveTarget({ flags: { profile: 'prod' }, env, folder, keychain: neverOpened });
    expect(named.ok && named.target.profile?.readOnly).toBe(true);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(folder, 'profiles.json'), '{');
    expect(await resolveTarget({ flags: { profile: 'prod' }, env, folder, keychain: neverOpened })).toMatchObject({ ok: false, reason: 'profiles-unreadable' });
    // Unnamed, the default profile is not needed when the base URL is given: a damaged file does not stop it.
    expect(await resolveTarget({ flags: {}, env, folder, keychain: neverOpened })).toMatchObject({ ok: true });
  });

  it('a keychain problem carries the profile and the problem', async () => {
    await saveProfile(folder, prod);
    const locked = problem('locked');
    const result = await resolveTarget({ flags: {}, env: {}, folder, keychain: () => Promise.reject(new KeychainError(locked)) });
    expect(result).toEqual({ ok: false, reason: 'keychain', message: locked.message, profile: prod, problem: locked });
  });

  it('a damaged profile file is its own reason (profiles-unreadable), naming it', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(folder, 'profiles.json'), '{');
    const result = await resolveTarget({ flags: {}, env: {}, folder, keychain: neverOpened });
    expect(result).toMatchObject({ ok: false, reason: 'profiles-unreadable', message: expect.stringContaining(join(folder, 'profiles.json')) });
  });
});

describe('connect', () => {
  it('a --log-file that cannot be opened: exit 2, nothing sent', async () => {
    const { ctx, err } = testContext(
      undefined,
      { env: { ...envKeys, BROKER_BASE_URL: 'http://127.0.0.1:9' }, configFolder: folder },
      { logFile: join(folder, 'no', 'such', 'x.log') },
    );
    expect(await runKeysList({ sub: 'alpha' }, ctx)).toBe(2);
    expect(err.text()).toMatch(/^error: --log-file: cannot open .*x\.log \(ENOENT\)\n$/);
  });
});
