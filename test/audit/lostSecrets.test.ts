// Which keys lost their secret, by the audit trail: a key is told apart from others by its whole API key's
// digest, since every key's short form starts mx0v and only its last four characters differ.
import { describe, expect, it } from 'vitest';
import type { SubAccountKey } from '../../src/api/types';
import { apiKeyDigest, shortenApiKey } from '../../src/api/redact';
import { type AuditEntry, type CreateResult, auditEntry, parseAuditLine } from '../../src/config/auditTrail';
import { lostSecrets } from '../../src/audit/lostSecrets';

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const request = { subAccount: 'desk01', permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'reporting' };

function key(apiKey: string): SubAccountKey {
  return { note: 'reporting', apiKey, permissions: ['SPOT_ACCOUNT_READ'], ips: [], createdAt: NOW - 60_000 };
}

/** The trail's line of a create that made `apiKey`, and what became of its secret. */
function created(apiKey: string, secret?: 'not-delivered' | 'unconfirmed'): AuditEntry {
  const result: CreateResult = {
    created: {
      subAccount: request.subAccount,
      apiKey,
      secretKey: 'x'.repeat(32),
      permissions: request.permissions,
      ips: [],
      note: request.note,
      createdAt: NOW,
    },
    secret,
  };
  return auditEntry({ profile: 'default', host: 'api.mexc.com' }, request, result, new Date(NOW))!;
}

// Two keys whose short forms agree (mx0v…beef).
const OLD = 'mx0vgl0a1b2c3d4e5f6a7b8c9d0ebeef';
const NEW = 'mx0vgl9f8e7d6c5b4a3f2e1d0c9bbeef';

describe('lost secrets from the trail', () => {
  it('the line of a create carries the whole key only as a digest', () => {
    const line = created(NEW);
    expect(line.apiKey).toBe('mx0v…beef');
    expect(line.keyDigest).toBe(apiKeyDigest(NEW));
    expect(line.keyDigest).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(line)).not.toContain(NEW);
    expect(parseAuditLine(JSON.stringify(line))?.keyDigest).toBe(line.keyDigest);
  });

  it('a key sharing its short form with a deleted key whose secret was lost is not marked; the lost one would be', () => {
    expect(shortenApiKey(OLD)).toBe(shortenApiKey(NEW));
    const trail = [created(OLD, 'not-delivered'), created(NEW)];
    expect(lostSecrets([key(NEW)], trail)).toEqual(new Map());
    expect(lostSecrets([key(OLD), key(NEW)], trail)).toEqual(new Map([[OLD, 'not-delivered']]));
  });

  it('a delivered key does not hide another with the same short form whose secret was lost', () => {
    const trail = [created(OLD, 'unconfirmed'), created(NEW)];
    expect(lostSecrets([key(OLD)], trail)).toEqual(new Map([[OLD, 'unconfirmed']]));
  });

  it('a delivered key does not hide a key with the same short form that an unknown attempt made', () => {
    const unknown: AuditEntry = { ...created(OLD), apiKey: undefined, keyDigest: undefined, outcome: 'unknown', reason: 'no answer' };
    const { apiKey: _a, keyDigest: _d, ...attempt } = unknown;
    expect(lostSecrets([key(OLD), key(NEW)], [created(OLD), attempt])).toEqual(new Map([[NEW, 'never-received']]));
  });

  it('a line written without a digest still marks the key of its short form', () => {
    const { keyDigest: _, ...old } = created(OLD, 'not-delivered');
    expect(lostSecrets([key(OLD)], [old])).toEqual(new Map([[OLD, 'not-delivered']]));
  });
});
