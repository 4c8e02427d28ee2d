// The pure key audit: each flag, a key with all of them, the age threshold at its boundary, and properties
// that hold for any keys.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SubAccountKey } from '../../src/api/types';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import { DAY_MS } from '../../src/api/timeInput';
import { DEFAULT_MAX_AGE_MS, FLAG_KINDS, auditKeys, formatSpan, noteIdentity, permissionKind, summarize, summaryText } from '../../src/audit/keyAudit';
import type { AuditEntry } from '../../src/config/auditTrail';
import { shortenApiKey } from '../../src/api/redact';

const NOW = Date.UTC(2026, 10, 21, 9, 30);

function key(over: Partial<SubAccountKey> = {}): SubAccountKey {
  return {
    note: 'reporting',
    apiKey: `mx0v${Math.random().toString(36).slice(2, 14)}`,
    permissions: ['SPOT_ACCOUNT_READ'],
    ips: ['10.0.0.1'],
    createdAt: NOW - DAY_MS,
    ...over,
  };
}

const kinds = (k: SubAccountKey, all: SubAccountKey[] = [k], maxAge?: number) => auditKeys(all, NOW, maxAge)[all.indexOf(k)]!.flags.map((f) => f.kind);

describe('flags', () => {
  it('a read-only key with an IP, a day old, with its own note: nothing', () => {
    expect(kinds(key())).toEqual([]);
  });

  it('no-ip: no linked address, with what is left of the 90 days the service gives such a key', () => {
    const reason = (ageDays: number) => auditKeys([key({ ips: [], createdAt: NOW - ageDays * DAY_MS })], NOW)[0]!.flags;
    const said = 'no linked IP: any address can use it; the service ends such a key after 90 days';
    expect(reason(1)).toEqual([{ kind: 'no-ip', reason: `${said} (89 days left)` }]);
    expect(reason(89)).toEqual([{ kind: 'no-ip', reason: `${said} (1 day left)` }]);
    expect(reason(90)[0]!.reason).toBe(`${said} (made 90 days ago: it may no longer work)`);
    expect(reason(400)[0]!.reason).toBe(`${said} (made 400 days ago: it may no longer work)`);
    // A creation time ahead of this clock counts as made now.
    expect(reason(-3)[0]!.reason).toBe(`${said} (90 days left)`);
  });

  it('write, withdraw, transfer: by permission name, each naming the permissions', () => {
    const [finding] = auditKeys(
      [key({ permissions: ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_WRITE', 'CONTRACT_ACCOUNT_WRITE', 'SPOT_WITHDRAW_WRITE', 'SPOT_TRANSFER_WRITE'] })],
      NOW,
    );
    expect(finding!.flags).toEqual([
      { kind: 'write', reason: 'can change the account or trade: SPOT_DEAL_WRITE, CONTRACT_ACCOUNT_WRITE' },
      { kind: 'withdraw', reason: 'can withdraw funds: SPOT_WITHDRAW_WRITE' },
      { kind: 'transfer', reason: 'can transfer between accounts: SPOT_TRANSFER_WRITE' },
    ]);
  });

  it('reading withdrawals or transfers, and read_only, change nothing', () => {
    expect(kinds(key({ permissions: ['SPOT_WITHDRAW_READ', 'SPOT_TRANSFER_READ', 'read_only', 'SPOT_DEPOSIT_READ'] }))).toEqual([]);
  });

  it('every known permission has the kind its name says', () => {
    for (const p of KNOWN_PERMISSIONS) {
      const expected = p.endsWith('_READ') ? undefined : p === 'SPOT_WITHDRAW_WRITE' ? 'withdraw' : p === 'SPOT_TRANSFER_WRITE' ? 'transfer' : 'write';
      expect(permissionKind(p), p).toBe(expected);
    }
    // Names the service may add, in any case.
    expect(permissionKind('margin_account_write')).toBe('write');
    expect(permissionKind('FUTURES_WITHDRAW_WRITE')).toBe('withdraw');
    expect(permissionKind('WRITE_LOG')).toBeUndefined();
  });

  it('old: strictly more than the threshold since creation; exactly the threshold is not old', () => {
    expect(kinds(key({ createdAt: NOW - DEFAULT_MAX_AGE_MS }))).toEqual([]);
    expect(kinds(key({ createdAt: NOW - DEFAULT_MAX_AGE_MS - 1 }))).toEqual(['old']);
    const [finding] = auditKeys([key({ createdAt: NOW - 400 * DAY_MS })], NOW, 12 * 7 * DAY_MS);
    expect(finding!.flags).toEqual([{ kind: 'old', reason: 'created 400 days ago (older than 12w)' }]);
    // A creation time ahead of now (a clock apart) is not old.
    expect(kinds(key({ createdAt: NOW + DAY_MS }), undefined, 1)).toEqual([]);
  });

  it('shared-note: the same note, trimmed, any case, spaces collapsed, on 2+ keys of the sub-account', () => {
    const a = key({ note: 'Trading bot' });
    const b = key({ note: '  trading   BOT ' });
    const c = key({ note: 'trading bots' });
    const all = [a, b, c];
    expect(kinds(a, all)).toEqual(['shared-note']);
    expect(kinds(b, all)).toEqual(['shared-note']);
    expect(kinds(c, all)).toEqual([]);
    expect(auditKeys(all, NOW)[0]!.flags[0]!.reason).toBe("2 keys of this sub-account have the note 'Trading bot'");
  });

  it('blank notes are the same note', () => {
    const all = [key({ note: '' }), key({ note: '   ' })];
    expect(auditKeys(all, NOW).map((f) => f.flags[0]?.reason)).toEqual([
      '2 keys of this sub-account have a blank note',
      '2 keys of this sub-account have a blank note',
    ]);
  });

  it('a key with every flag, in FLAG_KINDS order', () => {
    const worst = key({
      note: 'ops',
      ips: [],
      permissions: ['SPOT_ACCOUNT_WRITE', 'SPOT_WITHDRAW_WRITE', 'SPOT_TRANSFER_WRITE'],
      createdAt: NOW - 200 * DAY_MS,
    });
    const all = [worst, key({ note: 'OPS' })];
    // The trail: this key was made, and its secret was shown but never confirmed stored.
    const attempts: AuditEntry[] = [
      {
        time: new Date(NOW - 200 * DAY_MS).toISOString(),
        profile: 'p',
        host: 'h',
        subAccount: 'SUB',
        apiKey: shortenApiKey(worst.apiKey),
        permissions: worst.permissions,
        ips: [],
        note: 'ops',
        outcome: 'created',
        secret: 'unconfirmed',
      },
    ];
    const findings = auditKeys(all, NOW, undefined, attempts);
    expect(findings[0]!.flags.map((f) => f.kind)).toEqual([...FLAG_KINDS]);
    expect(findings[0]!.flags[0]!.reason).toBe('secret never confirmed stored — delete it if you do not have it');
    expect(kinds(worst, all)).toEqual(FLAG_KINDS.filter((k) => k !== 'lost-secret'));
    const summary = summarize(findings);
    expect(summary).toEqual({ keys: 2, flagged: 2, byKind: { 'lost-secret': 1, 'no-ip': 1, write: 1, withdraw: 1, transfer: 1, old: 1, 'shared-note': 2 } });
    expect(summaryText(summary)).toBe('lost-secret 1 · no-ip 1 · write 1 · withdraw 1 · transfer 1 · old 1 · shared-note 2');
  });

  it('no keys: an empty summary', () => {
    expect(summarize(auditKeys([], NOW))).toEqual({
      keys: 0,
      flagged: 0,
      byKind: { 'lost-secret': 0, 'no-ip': 0, write: 0, withdraw: 0, transfer: 0, old: 0, 'shared-note': 0 },
    });
    expect(summaryText(summarize([]))).toBe('nothing flagged');
  });

  it('spans read back as typed', () => {
    expect(formatSpan(90 * DAY_MS)).toBe('90d');
    expect(formatSpan(12 * 7 * DAY_MS)).toBe('12w');
    expect(formatSpan(36 * 3_600_000)).toBe('36h');
    expect(formatSpan(1500)).toBe('1500ms');
  });
});

describe('properties', () => {
  const anyKey = fc.record({
    note: fc.constantFrom('a', 'A ', 'b', '', 'trading bot', 'Trading  Bot', '漢字', '🙂'),
    apiKey: fc.string({ minLength: 1, maxLength: 8 }),
    permissions: fc.subarray([...KNOWN_PERMISSIONS, 'read_only']),
    ips: fc.array(fc.ipV4(), { maxLength: 4 }),
    createdAt: fc.integer({ min: NOW - 1000 * DAY_MS, max: NOW + DAY_MS }),
  });

  it('each key keeps its place, flags are in order without repeats, and the summary counts them', () => {
    fc.assert(
      fc.property(fc.array(anyKey, { maxLength: 12 }), fc.integer({ min: 1, max: 400 * DAY_MS }), (keys, maxAge) => {
        const findings = auditKeys(keys, NOW, maxAge);
        expect(findings.map((f) => f.key)).toEqual(keys);
        for (const f of findings) {
          const order = f.flags.map((flag) => FLAG_KINDS.indexOf(flag.kind));
          expect(order).toEqual([...order].sort((x, y) => x - y));
          expect(new Set(order).size).toBe(order.length);
          expect(f.flags.some((flag) => flag.kind === 'no-ip')).toBe(f.key.ips.length === 0);
          expect(f.flags.some((flag) => flag.kind === 'old')).toBe(NOW - Number(f.key.createdAt) > maxAge);
          const twins = keys.filter((k) => noteIdentity(k.note) === noteIdentity(f.key.note)).length;
          expect(f.flags.some((flag) => flag.kind === 'shared-note')).toBe(twins > 1);
        }
        const summary = summarize(findings);
        expect(summary.flagged).toBe(findings.filter((f) => f.flags.length > 0).length);
        expect(Object.values(summary.byKind).reduce((a, b) => a + b, 0)).toBe(findings.reduce((n, f) => n + f.flags.length, 0));
      }),
    );
  });

  it('a longer threshold never flags more keys old', () => {
    fc.assert(
      fc.property(
        fc.array(anyKey, { maxLength: 8 }),
        fc.integer({ min: 1, max: 400 * DAY_MS }),
        fc.integer({ min: 0, max: 400 * DAY_MS }),
        (keys, shorter, extra) => {
          const old = (maxAge: number) => summarize(auditKeys(keys, NOW, maxAge)).byKind.old;
          expect(old(shorter + extra)).toBeLessThanOrEqual(old(shorter));
        },
      ),
    );
  });
});
