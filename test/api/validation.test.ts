import { SocketAddress } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_PERMISSIONS } from '../../src/api/types';
import {
  type Checked,
  canonicalIp,
  checkAccount,
  checkAccountType,
  checkClientTranId,
  checkIps,
  checkLimit,
  checkNote,
  checkPage,
  checkPermissions,
  checkSubAccount,
  fieldError,
  parseTimeInput,
  validateNewKey,
  validateTransferQuery,
} from '../../src/api/validation';

function value<T>(result: Checked<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.message}`);
  return result.value;
}
function message<T>(result: Checked<T>): string {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error.message;
}

const NOW = new Date(2026, 10, 21, 12, 0, 0).getTime(); // local 2026-11-21 12:00

describe('subAccount', () => {
  it('trims and accepts a name', () => {
    expect(value(checkSubAccount('  deskalpha01 '))).toBe('deskalpha01');
  });
  it.each([
    ['', 'subAccount: required'],
    ['   ', 'subAccount: required'],
    ['desk alpha', "subAccount: must not contain spaces ('desk alpha')"],
    ['gridbot2901,mmbot5143', "subAccount: one sub-account, not a list ('gridbot2901,mmbot5143')"],
    ['desk\u0007', 'subAccount: must not contain control characters'],
    ['x'.repeat(65), 'subAccount: at most 64 characters (got 65)'],
  ])('%j → %s', (raw, expected) => {
    expect(message(checkSubAccount(raw))).toBe(expected);
  });
  it('accepts exactly 64 characters', () => {
    expect(value(checkSubAccount('x'.repeat(64)))).toHaveLength(64);
  });
});

describe('permissions', () => {
  it('splits, trims and de-duplicates a comma list, keeping order', () => {
    expect(value(checkPermissions(' SPOT_ACCOUNT_READ , SPOT_DEAL_READ,SPOT_ACCOUNT_READ'))).toEqual(['SPOT_ACCOUNT_READ', 'SPOT_DEAL_READ']);
  });
  it('takes an array (entries may themselves hold commas)', () => {
    expect(value(checkPermissions(['SPOT_ACCOUNT_READ', ' SPOT_DEAL_WRITE,SPOT_DEAL_READ ']))).toEqual([
      'SPOT_ACCOUNT_READ',
      'SPOT_DEAL_WRITE',
      'SPOT_DEAL_READ',
    ]);
  });
  it('values far from every known permission pass as written; the known ones are never taken for typos', () => {
    expect(value(checkPermissions('read_only,MARGIN_ACCOUNT_READ'))).toEqual(['read_only', 'MARGIN_ACCOUNT_READ']);
    expect(value(checkPermissions(KNOWN_PERMISSIONS.join(',')))).toEqual([...KNOWN_PERMISSIONS]);
  });
  it('accepts unknown but well-formed tokens as written (read_only)', () => {
    expect(value(checkPermissions('read_only,FUTURE_THING2'))).toEqual(['read_only', 'FUTURE_THING2']);
  });
  it('gives a known permission in another case its known spelling', () => {
    expect(value(checkPermissions('spot_account_read,SPOT_ACCOUNT_READ'))).toEqual(['SPOT_ACCOUNT_READ']);
  });
  it.each([
    ['', 'permissions: at least one is required (e.g. SPOT_ACCOUNT_READ)'],
    ['  ', 'permissions: at least one is required (e.g. SPOT_ACCOUNT_READ)'],
    ['SPOT_ACCOUNT_READ,,SPOT_DEAL_READ', 'permissions: empty permission between commas'],
    ['SPOT_ACCOUNT_READ,', 'permissions: empty permission between commas'],
    ['SPOT-READ', "permissions: 'SPOT-READ' is not a permission name (letters, digits and _, starting with a letter; e.g. SPOT_ACCOUNT_READ)"],
    ['1SPOT', "permissions: '1SPOT' is not a permission name (letters, digits and _, starting with a letter; e.g. SPOT_ACCOUNT_READ)"],
    ['SPOT READ', "permissions: 'SPOT READ' is not a permission name (letters, digits and _, starting with a letter; e.g. SPOT_ACCOUNT_READ)"],
    [`A${'B'.repeat(64)}`, `permissions: 'A${'B'.repeat(38)}…' is longer than 64 characters`],
    ['SPOT_ACOUNT_READ', "permissions: 'SPOT_ACOUNT_READ' is not a known permission: did you mean SPOT_ACCOUNT_READ?"],
    ['spot_deal_raed', "permissions: 'spot_deal_raed' is not a known permission: did you mean SPOT_DEAL_READ?"],
    ['SPOT_ACCOUNT_READ,SPOT_WITHDRAW_WRTE', "permissions: 'SPOT_WITHDRAW_WRTE' is not a known permission: did you mean SPOT_WITHDRAW_WRITE?"],
  ])('%j → %s', (raw, expected) => {
    expect(message(checkPermissions(raw))).toBe(expected);
  });
  it('rejects an empty array; blank slots of an array are skipped', () => {
    expect(message(checkPermissions([]))).toMatch(/^permissions: at least one/);
    expect(message(checkPermissions(['', ' ']))).toMatch(/^permissions: at least one/);
    expect(value(checkPermissions(['', 'SPOT_DEAL_READ']))).toEqual(['SPOT_DEAL_READ']);
  });
});

describe('ip', () => {
  it('blank means none', () => {
    expect(value(checkIps(''))).toEqual([]);
    expect(value(checkIps('   '))).toEqual([]);
  });
  it('trims and accepts up to 4 IPv4/IPv6 addresses', () => {
    expect(value(checkIps(' 10.0.0.1, 2001:db8::1 ,192.168.1.2,::1'))).toEqual(['10.0.0.1', '2001:db8::1', '192.168.1.2', '::1']);
  });
  it.each([
    ['1.1.1.1,2.2.2.2,3.3.3.3,4.4.4.4,5.5.5.5', 'ip: at most 4 addresses (got 5)'],
    ['10.0.0.0/24', "ip: '10.0.0.0/24' is a range (CIDR); give single addresses"],
    ['2001:db8::/32', "ip: '2001:db8::/32' is a range (CIDR); give single addresses"],
    ['1.1.1.1,,2.2.2.2', 'ip: empty address between commas'],
    [',1.1.1.1', 'ip: empty address before the first comma'],
    ['1.1.1.1,', 'ip: empty address after the last comma'],
    ['1.1.1.1,1.1.1.1', "ip: '1.1.1.1' is listed twice"],
    ['2001:DB8::1,2001:db8::1', "ip: '2001:db8::1' is the same address as '2001:DB8::1' (listed twice)"],
    ['2001:DB8:0:0:0:0:0:1,2001:db8::1', "ip: '2001:db8::1' is the same address as '2001:DB8:0:0:0:0:0:1' (listed twice)"],
    ['192.0.2.1,::ffff:192.0.2.1', "ip: '::ffff:192.0.2.1' is the same address as '192.0.2.1' (listed twice)"],
    ['::ffff:c000:201,192.0.2.1', "ip: '192.0.2.1' is the same address as '::ffff:c000:201' (listed twice)"],
    ['2001:0db8:0000::0001,2001:db8::1', "ip: '2001:db8::1' is the same address as '2001:0db8:0000::0001' (listed twice)"],
    ['1.2.3', "ip: '1.2.3' is not an IPv4 or IPv6 address"],
    ['256.1.1.1', "ip: '256.1.1.1' is not an IPv4 or IPv6 address"],
    ['example.com', "ip: 'example.com' is not an IPv4 or IPv6 address"],
    ['1.1.1.1 2.2.2.2', "ip: '1.1.1.1 2.2.2.2' is several addresses: separate them with commas"],
    ['1.1.1.1 example.com', "ip: '1.1.1.1 example.com' is not an IPv4 or IPv6 address"],
    ['fe80::1%eth0', "ip: 'fe80::1%eth0' has a zone index (%…); give the address alone"],
  ])('%j → %s', (raw, expected) => {
    expect(message(checkIps(raw))).toBe(expected);
  });

  const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));

  it.each([
    ['2001:DB8:0:0:0:0:0:1', '2001:db8:0:0:0:0:0:1'],
    ['2001:db8::1', '2001:db8:0:0:0:0:0:1'],
    ['::', '0:0:0:0:0:0:0:0'],
    ['::1', '0:0:0:0:0:0:0:1'],
    ['fe80::', 'fe80:0:0:0:0:0:0:0'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['0:0:0:0:0:FFFF:C000:0201', '192.0.2.1'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0:0:0:c000:201'],
    ['192.0.2.1', '192.0.2.1'],
    ['1.2.3', undefined],
    ['fe80::1%eth0', undefined],
  ])('canonicalIp(%j) = %j', (raw, expected) => {
    expect(canonicalIp(raw)).toBe(expected);
  });

  it('five spellings of two addresses count as two: accepted when each is given once, refused when repeated', () => {
    expect(value(checkIps('2001:db8::1,192.0.2.1'))).toEqual(['2001:db8::1', '192.0.2.1']);
    expect(message(checkIps('2001:db8::1,192.0.2.1,2001:DB8:0:0:0:0:0:1'))).toMatch(/is the same address as '2001:db8::1'/);
    expect(message(checkIps('2001:db8::1,192.0.2.1,::FFFF:192.0.2.1'))).toMatch(/is the same address as '192\.0\.2\.1'/);
  });

  // Eight 16-bit groups, written in any of the ways IPv6 allows.
  const ipv6Words = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 });
  const spell = (words: readonly number[], seed: number): string => {
    const hex = words.map((w, i) => {
      const h = w.toString(16);
      const padded = (seed >> i) & 1 ? h.padStart(4, '0') : h;
      return (seed >> (i + 8)) & 1 ? padded.toUpperCase() : padded;
    });
    // Compress the first run of zero groups when the seed says so.
    const start = words.indexOf(0);
    if (start >= 0 && (seed >> 16) & 1) {
      let end = start;
      while (end < 8 && words[end] === 0) end += 1;
      return `${hex.slice(0, start).join(':')}::${hex.slice(end).join(':')}`;
    }
    return hex.join(':');
  };

  it('property: every spelling of an IPv6 address has one canonical form, the one node:net agrees with', () => {
    fc.assert(
      fc.property(ipv6Words, fc.nat(), fc.nat(), (words, a, b) => {
        const first = spell(words, a);
        const second = spell(words, b);
        const canonical = canonicalIp(first);
        expect(canonical).toBeDefined();
        expect(canonicalIp(second)).toBe(canonical);
        // node:net's own canonical text (inet_ntop) is the same address.
        const viaNode = new SocketAddress({ address: first, family: 'ipv6' }).address;
        expect(canonicalIp(viaNode)).toBe(canonical);
        expect(message(checkIps(`${first},${second}`))).toMatch(/listed twice/);
      }),
    );
  });

  it('property: an IPv4 address and its IPv4-mapped IPv6 forms are one address', () => {
    fc.assert(
      fc.property(ipv4, fc.boolean(), (ip, hexTail) => {
        const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map(Number);
        const mapped = hexTail ? `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}` : `::FFFF:${ip}`;
        expect(canonicalIp(mapped)).toBe(ip);
        expect(message(checkIps(`${ip},${mapped}`))).toBe(`ip: '${mapped}' is the same address as '${ip}' (listed twice)`);
      }),
    );
  });

  it('property: distinct addresses are never called duplicates', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ipv6Words, { minLength: 2, maxLength: 4, selector: (w) => w.join(':') }), fc.nat(), (list, seed) => {
        const text = list.map((w) => spell(w, seed)).join(',');
        const canonical = new Set(list.map((w) => canonicalIp(spell(w, 0))));
        if (canonical.size === list.length) expect(checkIps(text).ok).toBe(true);
      }),
    );
  });

  it('property: any 1–4 distinct IPv4s are accepted and round-trip', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ipv4, { minLength: 1, maxLength: 4 }), fc.constantFrom(',', ', ', ' , '), (ips, sep) => {
        expect(value(checkIps(ips.join(sep)))).toEqual(ips);
      }),
    );
  });
  it('property: 5 or more distinct addresses are always rejected, naming ip', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ipv4, { minLength: 5, maxLength: 20 }), (ips) => {
        const result = checkIps(ips.join(','));
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.error.field).toBe('ip');
          expect(result.error.message).toBe(`ip: at most 4 addresses (got ${ips.length})`);
        }
      }),
    );
  });
  it('property: a list with a CIDR entry is rejected as a range', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ipv4, { minLength: 0, maxLength: 3 }), ipv4, fc.integer({ min: 0, max: 32 }), (ips, net, bits) => {
        expect(message(checkIps([...ips, `${net}/${bits}`].join(',')))).toMatch(/is a range \(CIDR\)/);
      }),
    );
  });
});

describe('note', () => {
  it('trims and accepts', () => {
    expect(value(checkNote('  trading bot '))).toBe('trading bot');
    expect(value(checkNote('n'.repeat(100)))).toHaveLength(100);
  });
  it.each([
    ['', 'note: required (a short description of the key)'],
    ['  ', 'note: required (a short description of the key)'],
    ['a\tb', 'note: must not contain control characters (tabs, line breaks)'],
    ['a\nb', 'note: must not contain control characters (tabs, line breaks)'],
    ['n'.repeat(101), 'note: at most 100 characters (got 101)'],
    // A right-to-left override shows "tax exe.txt" as something else; zero-width and bidi marks hide in plain sight.
    ['tax\u202etxt.exe', 'note: must not contain invisible or text-direction characters (found U+202E): the note would read differently than it is'],
    ['desk\u200bbot', 'note: must not contain invisible or text-direction characters (found U+200B): the note would read differently than it is'],
    ['\u2066ops\u2069', 'note: must not contain invisible or text-direction characters (found U+2066): the note would read differently than it is'],
    ['a\u200fb', 'note: must not contain invisible or text-direction characters (found U+200F): the note would read differently than it is'],
    ['a\ufeffb', 'note: must not contain invisible or text-direction characters (found U+FEFF): the note would read differently than it is'],
    ['a\u2028b', 'note: must not contain invisible or text-direction characters (found U+2028): the note would read differently than it is'],
  ])('%j → %s', (raw, expected) => {
    expect(message(checkNote(raw))).toBe(expected);
  });
  it("an emoji's own joiners and a flag's tags are part of it, and pass", () => {
    for (const note of ['family 👨‍👩‍👧', 'scotland 🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'ops 👍🏽', 'עברית desk', 'مكتب']) expect(value(checkNote(note))).toBe(note);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(value(checkNote('🔑'.repeat(100)))).toHaveLength(200);
  });
});

describe('clientTranId', () => {
  it('accepts exactly 32 letters and digits (trimmed)', () => {
    expect(value(checkClientTranId(' abcdefghijklmnopqrstuvwxyzABCDEF '))).toBe('abcdefghijklmnopqrstuvwxyzABCDEF');
  });
  it.each([
    ['a'.repeat(31), 'clientTranId: must be exactly 32 letters and digits (got 31)'],
    ['a'.repeat(33), 'clientTranId: must be exactly 32 letters and digits (got 33)'],
    ['', 'clientTranId: must be exactly 32 letters and digits (got 0)'],
    [`${'a'.repeat(31)}-`, "clientTranId: only letters and digits allowed (found '-')"],
    [`${'a'.repeat(30)} b`, "clientTranId: only letters and digits allowed (found ' ')"],
  ])('%j → %s', (raw, expected) => {
    expect(message(checkClientTranId(raw))).toBe(expected);
  });
  const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));
  it('property: any 32-character alphanumeric string is accepted', () => {
    fc.assert(
      fc.property(fc.array(alnum, { minLength: 32, maxLength: 32 }), (chars) => {
        expect(value(checkClientTranId(chars.join('')))).toBe(chars.join(''));
      }),
    );
  });
  it('property: any other length is rejected, saying how many were given', () => {
    fc.assert(
      fc.property(
        fc.array(alnum, { minLength: 0, maxLength: 80 }).filter((a) => a.length !== 32),
        (chars) => {
          expect(message(checkClientTranId(chars.join('')))).toBe(`clientTranId: must be exactly 32 letters and digits (got ${chars.length})`);
        },
      ),
    );
  });
});

describe('page and limit', () => {
  it('accepts whole numbers in range', () => {
    expect(value(checkPage('1'))).toBe(1);
    expect(value(checkPage(' 42 '))).toBe(42);
    expect(value(checkLimit('1'))).toBe(1);
    expect(value(checkLimit('500'))).toBe(500);
  });
  it.each([
    ['0', 'page: must be a whole number of 1 or more (got 0)'],
    ['-1', "page: must be a whole number of 1 or more (got '-1')"],
    ['1.5', "page: must be a whole number of 1 or more (got '1.5')"],
    ['1e3', "page: must be a whole number of 1 or more (got '1e3')"],
    ['two', "page: must be a whole number of 1 or more (got 'two')"],
    ['', "page: must be a whole number of 1 or more (got '')"],
    // Too large, not too small: the bound is what a number holds exactly.
    ['99999999999999999999', 'page: must be at most 9007199254740991 (got 99999999999999999999)'],
    ['9007199254740992', 'page: must be at most 9007199254740991 (got 9007199254740992)'],
  ])('page %j → %s', (raw, expected) => {
    expect(message(checkPage(raw))).toBe(expected);
  });
  it.each([
    ['0', 'limit: must be a whole number from 1 to 500 (got 0)'],
    ['501', 'limit: must be a whole number from 1 to 500 (got 501)'],
    ['0x10', "limit: must be a whole number from 1 to 500 (got '0x10')"],
  ])('limit %j → %s', (raw, expected) => {
    expect(message(checkLimit(raw))).toBe(expected);
  });
  it('property: every integer 1..500 is a limit, nothing above', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 100_000 }), (n) => {
        expect(checkLimit(String(n)).ok).toBe(n >= 1 && n <= 500);
      }),
    );
  });
});

describe('account types and accounts', () => {
  it('upper-cases account types and accepts unknown ones', () => {
    expect(value(checkAccountType('fromAccountType', ' spot '))).toBe('SPOT');
    expect(value(checkAccountType('toAccountType', 'futures'))).toBe('FUTURES');
    expect(value(checkAccountType('toAccountType', 'ISOLATED_MARGIN'))).toBe('ISOLATED_MARGIN');
  });
  it("FUTURE (the answers' spelling) and FUTURES both count as known; values far from every known one pass", () => {
    expect(value(checkAccountType('toAccountType', 'FUTURE'))).toBe('FUTURE');
    expect(value(checkAccountType('toAccountType', 'future'))).toBe('FUTURE');
    expect(value(checkAccountType('toAccountType', 'FUTURES'))).toBe('FUTURES');
    expect(value(checkAccountType('toAccountType', 'MARGIN'))).toBe('MARGIN');
    expect(value(checkAccountType('toAccountType', 'SWAP'))).toBe('SWAP');
  });
  it.each([
    ['fromAccountType', '', 'fromAccountType: required (e.g. SPOT, FUTURES)'],
    ['toAccountType', 'SPOT1', "toAccountType: 'SPOT1' is not an account type (letters and _ only, e.g. SPOT, FUTURES)"],
    ['toAccountType', 'SP OT', "toAccountType: 'SP OT' is not an account type (letters and _ only, e.g. SPOT, FUTURES)"],
    ['fromAccountType', 'A'.repeat(33), 'fromAccountType: at most 32 characters (got 33)'],
    ['toAccountType', 'FUTUR', "toAccountType: 'FUTUR' is not a known account type: did you mean FUTURES?"],
    ['toAccountType', 'futuers', "toAccountType: 'futuers' is not a known account type: did you mean FUTURES?"],
    ['fromAccountType', 'SOPT', "fromAccountType: 'SOPT' is not a known account type: did you mean SPOT?"],
    ['fromAccountType', 'SPOTS', "fromAccountType: 'SPOTS' is not a known account type: did you mean SPOT?"],
  ] as const)('%s %j → %s', (field, raw, expected) => {
    expect(message(checkAccountType(field, raw))).toBe(expected);
  });
  it('accounts are optional and trimmed', () => {
    expect(value(checkAccount('fromAccount', undefined))).toBeUndefined();
    expect(value(checkAccount('fromAccount', '  '))).toBeUndefined();
    expect(value(checkAccount('toAccount', ' desk01 '))).toBe('desk01');
    expect(message(checkAccount('toAccount', 'desk 01'))).toBe("toAccount: must not contain spaces ('desk 01')");
  });
});

describe('time input', () => {
  const t = (raw: string): number => value(parseTimeInput('startTime', raw, NOW));
  const err = (raw: string): string => message(parseTimeInput('endTime', raw, NOW));

  it('a date is local midnight', () => {
    expect(t('2026-11-01')).toBe(new Date(2026, 10, 1).getTime());
  });
  it('date-times with or without seconds, with T or a space, local unless zoned', () => {
    expect(t('2026-11-01T12:00')).toBe(new Date(2026, 10, 1, 12, 0).getTime());
    expect(t('2026-11-01 12:00')).toBe(new Date(2026, 10, 1, 12, 0).getTime());
    expect(t('2026-11-01T12:00:30')).toBe(new Date(2026, 10, 1, 12, 0, 30).getTime());
    expect(t('2026-11-01T12:00:30.250')).toBe(new Date(2026, 10, 1, 12, 0, 30, 250).getTime());
    expect(t('2026-11-01T12:00Z')).toBe(Date.UTC(2026, 10, 1, 12, 0));
    expect(t('2026-11-01T12:00:00+02:00')).toBe(Date.UTC(2026, 10, 1, 10, 0));
    expect(t('2026-11-01T12:00:00-0530')).toBe(Date.UTC(2026, 10, 1, 17, 30));
  });
  it('epoch milliseconds', () => {
    expect(t('1763726400000')).toBe(1_763_726_400_000);
    expect(t('100000000000')).toBe(100_000_000_000);
  });
  it('now and spans before now', () => {
    expect(t('now')).toBe(NOW);
    expect(t('NOW')).toBe(NOW);
    expect(t('30m')).toBe(NOW - 30 * 60_000);
    expect(t('24h')).toBe(NOW - 24 * 3_600_000);
    expect(t('7d')).toBe(NOW - 7 * 86_400_000);
    expect(t('2w')).toBe(NOW - 14 * 86_400_000);
    expect(t('90s')).toBe(NOW - 90_000);
    expect(t('7d ago')).toBe(NOW - 7 * 86_400_000);
  });
  it.each([
    ['1763726400', "endTime: '1763726400' looks like epoch seconds; give milliseconds (1763726400000)"],
    ['2026-13-01', "endTime: '2026-13-01': no month 13"],
    ['2026-02-30', "endTime: '2026-02-30': day 30 is not in that month"],
    ['2026-11-01T24:00', "endTime: '2026-11-01T24:00': no hour 24"],
    ['2026-11-01T12:60', "endTime: '2026-11-01T12:60': no minute 60"],
    ['1969-12-31', "endTime: '1969-12-31': year before 1970"],
    ['2026-11-01T12:00+15:00', "endTime: '2026-11-01T12:00+15:00': time zone offset out of range"],
  ])('%j → %s', (raw, expected) => {
    expect(err(raw)).toBe(expected);
  });
  it.each(['yesterday', '12345', '01/11/2026', '7 days', '2026-11-1'])('%j is not a time, with the forms listed', (raw) => {
    const m = err(raw);
    expect(m.startsWith(`endTime: '${raw}' is not a time; use a date (2026-11-01)`)).toBe(true);
    expect(m).toContain('30m, 24h, 7d, 2w');
  });
  it('empty input says so', () => {
    expect(err('  ')).toMatch(/^endTime: empty; use a date/);
  });
  it('control characters in the echo are made visible, long input cut', () => {
    expect(err('bad\u001b[31m')).toContain("'bad?[31m'");
    expect(err('x'.repeat(100))).toContain(`'${'x'.repeat(39)}…'`);
  });
  it('property: epoch ms round-trip, plausible epoch seconds are refused with a hint', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000_000_000, max: 8_000_000_000_000 }), (ms) => {
        expect(t(String(ms))).toBe(ms);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000_000, max: 99_999_999_999 }), (s) => {
        expect(err(String(s))).toContain('looks like epoch seconds');
      }),
    );
  });
});

describe('validateNewKey', () => {
  it('returns the request; no ips when none were given', () => {
    expect(validateNewKey({ subAccount: ' desk01 ', permissions: 'SPOT_ACCOUNT_READ', note: ' bot ' })).toEqual({
      ok: true,
      value: { subAccount: 'desk01', permissions: ['SPOT_ACCOUNT_READ'], note: 'bot' },
    });
    expect(validateNewKey({ subAccount: 'd', permissions: ['read_only'], ip: '1.2.3.4', note: 'n' })).toEqual({
      ok: true,
      value: { subAccount: 'd', permissions: ['read_only'], ips: ['1.2.3.4'], note: 'n' },
    });
  });
  it('reports every bad field, in form order', () => {
    const result = validateNewKey({ subAccount: '', permissions: '', ip: '1.1.1.1/8', note: '' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.map((e) => e.field)).toEqual(['subAccount', 'permissions', 'ip', 'note']);
      expect(result.errors[2]?.message).toBe("ip: '1.1.1.1/8' is a range (CIDR); give single addresses");
    }
  });
});

describe('validateTransferQuery', () => {
  it('builds the query, leaving blank optional fields out', () => {
    const result = validateTransferQuery(
      { fromAccountType: 'spot', toAccountType: 'future', fromAccount: ' ', start: '2026-11-01', end: 'now', page: '2', limit: '100', clientTranId: '' },
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      value: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', startTime: new Date(2026, 10, 1).getTime(), endTime: NOW, page: 2, limit: 100 },
    });
  });
  it('start after end is an endTime error', () => {
    const result = validateTransferQuery({ fromAccountType: 'SPOT', toAccountType: 'FUTURE', start: '1d', end: '2d' }, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]?.field).toBe('endTime');
      expect(result.errors[0]?.message).toBe('endTime: must not be before startTime (2026-11-19 12:00:00 is before 2026-11-20 12:00:00)');
    }
  });
  it('a start in the future is a startTime error, in the form as typed too (no transfer can match it)', () => {
    const result = validateTransferQuery({ fromAccountType: 'SPOT', toAccountType: 'FUTURE', start: '2030-01-01' }, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.map((e) => e.message)).toEqual([
        'startTime: is in the future (2030-01-01 00:00:00; now 2026-11-21 12:00:00): no transfer can match',
      ]);
    expect(fieldError('startTime', '2030-01-01', NOW)?.message).toMatch(/^startTime: is in the future/);
    // An end in the future is no error: the range simply reaches now.
    expect(validateTransferQuery({ fromAccountType: 'SPOT', toAccountType: 'FUTURE', end: '2030-01-01' }, NOW).ok).toBe(true);
  });
  it('start equal to end is fine', () => {
    expect(validateTransferQuery({ fromAccountType: 'SPOT', toAccountType: 'FUTURE', start: 'now', end: 'now' }, NOW).ok).toBe(true);
  });
  it('collects all errors', () => {
    const result = validateTransferQuery(
      { fromAccountType: '', toAccountType: '1', toAccount: 'a b', start: 'x', clientTranId: 'short', page: '0', limit: '600' },
      NOW,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.map((e) => e.field)).toEqual(['fromAccountType', 'toAccountType', 'toAccount', 'startTime', 'clientTranId', 'page', 'limit']);
    }
  });
});

describe('fieldError (live, per field)', () => {
  it('agrees with the whole-form rules, optional fields may be blank', () => {
    expect(fieldError('ip', '1.1.1.1,1.1.1.1')?.message).toBe("ip: '1.1.1.1' is listed twice");
    expect(fieldError('ip', '2001:DB8:0:0:0:0:0:1, 2001:db8::1')?.message).toMatch(/is the same address as/);
    expect(fieldError('ip', '')).toBeUndefined();
    expect(fieldError('clientTranId', '')).toBeUndefined();
    expect(fieldError('clientTranId', 'abc')?.message).toBe('clientTranId: must be exactly 32 letters and digits (got 3)');
    expect(fieldError('startTime', '')).toBeUndefined();
    expect(fieldError('startTime', '1700000000', NOW)?.message).toContain('epoch seconds');
    expect(fieldError('page', '')).toBeUndefined();
    expect(fieldError('limit', '0')?.field).toBe('limit');
    expect(fieldError('note', '')?.message).toMatch(/^note: required/);
    expect(fieldError('subAccount', 'a b')?.field).toBe('subAccount');
    expect(fieldError('permissions', 'A,,B')?.field).toBe('permissions');
    expect(fieldError('fromAccountType', '')?.field).toBe('fromAccountType');
    expect(fieldError('toAccount', '')).toBeUndefined();
  });
  it('property: every message starts with its field name', () => {
    const fields = [
      'subAccount',
      'permissions',
      'ip',
      'note',
      'clientTranId',
      'startTime',
      'endTime',
      'page',
      'limit',
      'fromAccountType',
      'toAccountType',
      'fromAccount',
      'toAccount',
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.string({ maxLength: 60 }), (field, raw) => {
        const error = fieldError(field, raw, NOW);
        if (error) {
          expect(error.field).toBe(field);
          expect(error.message.startsWith(`${field}: `)).toBe(true);
          expect(error.message).not.toMatch(/[\n\r]/);
        }
      }),
    );
  });
});
