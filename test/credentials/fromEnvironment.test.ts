import { describe, expect, it } from 'vitest';
import { checkBaseUrl, credentialsFromEnvironment } from '../../src/credentials/fromEnvironment';

const full = { BROKER_BASE_URL: 'https://api.example.com/', BROKER_API_KEY: ' mx0vkey ', BROKER_API_SECRET: 'sekret\n' };

describe('credentials from the environment', () => {
  it('reads and trims the three variables', () => {
    expect(credentialsFromEnvironment(full)).toEqual({
      ok: true,
      credentials: { baseUrl: 'https://api.example.com', apiKey: 'mx0vkey', secretKey: 'sekret', source: 'environment' },
    });
  });
  it('--base-url overrides BROKER_BASE_URL', () => {
    const result = credentialsFromEnvironment(full, { baseUrl: 'http://127.0.0.1:8080/prefix/' });
    expect(result.ok && result.credentials.baseUrl).toBe('http://127.0.0.1:8080/prefix');
  });
  it.each([
    [{}, 'no credentials: set BROKER_API_KEY and BROKER_API_SECRET (and BROKER_BASE_URL), or try the demo service with `broker-console sandbox`'],
    [{ BROKER_API_KEY: 'k' }, 'no credentials: BROKER_API_KEY is set but BROKER_API_SECRET is not'],
    [{ BROKER_API_SECRET: 's', BROKER_API_KEY: '  ' }, 'no credentials: BROKER_API_SECRET is set but BROKER_API_KEY is not'],
    [{ BROKER_API_KEY: 'k', BROKER_API_SECRET: 's' }, 'no base URL: set BROKER_BASE_URL or pass --base-url'],
    [
      { BROKER_API_KEY: 'k', BROKER_API_SECRET: 's', BROKER_BASE_URL: 'api.example.com' },
      "BROKER_BASE_URL: 'api.example.com' is not a URL (e.g. https://api.example.com)",
    ],
  ])('%j → %s', (env, message) => {
    expect(credentialsFromEnvironment(env)).toEqual({ ok: false, message });
  });
  it('never puts the secret in a message', () => {
    const result = credentialsFromEnvironment({ BROKER_API_SECRET: 'topsecret', BROKER_BASE_URL: 'ftp://x' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).not.toContain('topsecret');
  });
});

describe('base URL', () => {
  it.each([
    ['ftp://x', 'must start with http:// or https:// (got ftp:)'],
    ['https://user:pw@x.com', 'must not contain a user name or password'],
    ['https://x.com/?a=1', 'must not contain a query (?…) or fragment (#…)'],
  ])('%s → %s', (raw, reason) => {
    expect(checkBaseUrl(raw)).toEqual({ ok: false, reason });
  });
});
