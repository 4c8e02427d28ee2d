import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import type { RunningSandbox } from '../../src/sandbox/types';
import { createKey, errorCode, listKeys, ownSandbox } from './helpers';

interface ListedKey {
  note: string;
  apiKey: string;
  permissions: string;
  ip: string;
  creatTime: number;
}

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await ownSandbox({ seed: 1, rateLimit: { max: 10_000, windowMs: 1000 } });
});
afterAll(async () => {
  await sb.close();
});

const listed = async (subAccount: string): Promise<ListedKey[]> => {
  const res = await listKeys(sb, subAccount);
  expect(res.status).toBe(200);
  return (res.json as { subAccount: ListedKey[] }).subAccount;
};

describe('list keys', () => {
  test('answers {subAccount: [...]} with the wire fields, spelled creatTime, comma-joined strings', async () => {
    const counts = [];
    for (const name of sb.subAccounts) {
      const res = await listKeys(sb, name);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json as { subAccount: ListedKey[] };
      expect(Object.keys(body)).toEqual(['subAccount']);
      counts.push(body.subAccount.length);
      for (const key of body.subAccount) {
        expect(Object.keys(key).sort()).toEqual(['apiKey', 'creatTime', 'ip', 'note', 'permissions']);
        expect(key.apiKey).toMatch(/^mx0v[0-9a-z]{28}$/);
        expect(key.note.length).toBeGreaterThan(0);
        expect(key.creatTime).toBeLessThan(Date.now());
        for (const p of key.permissions.split(',')) expect(KNOWN_PERMISSIONS as readonly string[]).toContain(p);
        const ips = key.ip === '' ? [] : key.ip.split(',');
        expect(ips.length).toBeLessThanOrEqual(4);
      }
    }
    expect(Math.min(...counts)).toBe(0);
    expect(Math.max(...counts)).toBe(6);
  });

  test('needs a sub-account name (730600) that exists (140001)', async () => {
    const missing = await listKeys(sb, '');
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 730600 });
    const unknown = await listKeys(sb, 'nosuchdesk99');
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ code: 140001, msg: expect.stringContaining('sub account does not exist') });
  });

  test('the frozen sub-account exists apart from the others, and listing its keys answers 140002', async () => {
    expect(sb.frozenSubAccounts).toEqual(['frozendesk01']);
    expect(sb.subAccounts).not.toContain('frozendesk01');
    const frozen = await listKeys(sb, 'frozendesk01');
    expect(frozen.status).toBe(400);
    expect(frozen.json).toMatchObject({ code: 140002, msg: expect.stringContaining('sub account is forbidden') });
  });
});

describe('create key', () => {
  test('returns the created key with a fresh secret, omits ip when none was sent, and lists it afterwards', async () => {
    const sub = sb.subAccounts[1] as string;
    const before = await listed(sub);
    const res = await createKey(sb, { subAccount: sub, permissions: 'SPOT_ACCOUNT_READ,SPOT_DEAL_WRITE', note: 'ci bot' });
    expect(res.status).toBe(200);
    const created = res.json as Record<string, unknown>;
    // apiKey, as the broker docs' current create page spells it (its older page, apikey: the client reads both).
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'createTime', 'note', 'permissions', 'secretKey', 'subAccount']);
    expect(created).toMatchObject({ subAccount: sub, note: 'ci bot', permissions: 'SPOT_ACCOUNT_READ,SPOT_DEAL_WRITE' });
    expect(created.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(created.apiKey).toMatch(/^mx0v[0-9a-f]{28}$/);
    expect(Math.abs((created.createTime as number) - Date.now())).toBeLessThan(5000);
    const after = await listed(sub);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toEqual({
      note: 'ci bot',
      apiKey: created.apiKey,
      permissions: 'SPOT_ACCOUNT_READ,SPOT_DEAL_WRITE',
      ip: '',
      creatTime: created.createTime,
    });
    expect(JSON.stringify(after)).not.toContain(created.secretKey as string);
  });

  test('echoes linked IPs (IPv4 and IPv6) comma-joined, and accepts read_only', async () => {
    const res = await createKey(sb, { subAccount: sb.subAccounts[2], permissions: 'read_only', ip: '1.2.3.4, ::1', note: 'viewer' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ip: '1.2.3.4,::1', permissions: 'read_only' });
    const again = await createKey(sb, { subAccount: sb.subAccounts[2], permissions: 'SPOT_ACCOUNT_READ', note: 'x' });
    expect((again.json as { secretKey: string }).secretKey).not.toBe((res.json as { secretKey: string }).secretKey);
  });

  test.each([
    ['missing subAccount', { permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 730600],
    ['unknown subAccount', { subAccount: 'nosuchdesk99', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 140001],
    ['a sub-account name shorter than 8', { subAccount: 'desk1', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 730601],
    ['a sub-account name with an underscore', { subAccount: 'desk_alpha1', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 730601],
    ['a sub-account name longer than 32', { subAccount: 'd'.repeat(33), permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 730601],
    ['the frozen sub-account', { subAccount: 'frozendesk01', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, 140002],
    ['missing note', { subAccount: 'SUB', permissions: 'SPOT_ACCOUNT_READ' }, 730700],
    ['blank note', { subAccount: 'SUB', permissions: 'SPOT_ACCOUNT_READ', note: '  ' }, 730700],
    ['missing permissions', { subAccount: 'SUB', note: 'n' }, 730701],
    ['empty permissions', { subAccount: 'SUB', permissions: ' , ', note: 'n' }, 730701],
    ['unknown permission', { subAccount: 'SUB', permissions: 'SPOT_ACCOUNT_READ,MOON_WRITE', note: 'n' }, 730702],
    ['five IPs', { subAccount: 'SUB', permissions: 'SPOT_ACCOUNT_READ', ip: '1.1.1.1,1.1.1.2,1.1.1.3,1.1.1.4,1.1.1.5', note: 'n' }, 730703],
    ['bad IP', { subAccount: 'SUB', permissions: 'SPOT_ACCOUNT_READ', ip: '1.2.3.999', note: 'n' }, 730704],
    ['CIDR', { subAccount: 'SUB', permissions: 'SPOT_ACCOUNT_READ', ip: '10.0.0.0/8', note: 'n' }, 730704],
    ['non-string permissions', { subAccount: 'SUB', permissions: ['SPOT_ACCOUNT_READ'], note: 'n' }, 700004],
  ] as [string, Record<string, unknown>, number][])('%s → 400 code %i, nothing created', async (_label, body, code) => {
    const sub = sb.subAccounts[3] as string;
    const before = (await listed(sub)).length;
    const withSub = body.subAccount === 'SUB' ? { ...body, subAccount: sub } : body;
    const res = await createKey(sb, withSub);
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe(code);
    expect(typeof (res.json as { msg: unknown }).msg).toBe('string');
    expect((await listed(sub)).length).toBe(before);
  });

  test('a body that is not a JSON object → 700004', async () => {
    const res = await createKey(sb, {}, { body: '[1,2]' });
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe(700004);
  });

  test.each([
    ['form-encoded', 'application/x-www-form-urlencoded'],
    ['plain text', 'text/plain'],
    ['no content type', undefined],
  ])('a create not marked as JSON (%s) → 400 700013, and no key is made', async (_kind, contentType) => {
    const sub = sb.subAccounts[4] as string;
    const before = (await listed(sub)).length;
    const res = await createKey(
      sb,
      {},
      {
        body: JSON.stringify({ subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'not json' }),
        ...(contentType === undefined ? { noContentType: true } : { headers: { 'content-type': contentType } }),
      },
    );
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 700013, msg: 'Invalid content Type.' });
    expect(await listed(sub)).toHaveLength(before);
  });

  test('application/json with a charset is JSON', async () => {
    const sub = sb.subAccounts[4] as string;
    const res = await createKey(
      sb,
      {},
      {
        body: JSON.stringify({ subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'charset' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ subAccount: sub, note: 'charset' });
  });

  test('allows 30 keys per sub-account, then answers 730705', async () => {
    const sub = sb.subAccounts.at(-1) as string;
    const start = (await listed(sub)).length;
    for (let i = start; i < 30; i++) {
      const res = await createKey(sb, { subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: `k${i}` });
      expect(res.status).toBe(200);
    }
    expect(await listed(sub)).toHaveLength(30);
    const over = await createKey(sb, { subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'one too many' });
    expect(over.status).toBe(400);
    expect(errorCode(over)).toBe(730705);
    expect(await listed(sub)).toHaveLength(30);
  });
});
