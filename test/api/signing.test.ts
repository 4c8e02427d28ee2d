import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { anyText } from '../arbitraries';
import { buildQuery, parsePostSignature, signPayload, signQuery } from '../../src/api/signing';
import { signedBy, splitSignedQuery } from '../../src/sandbox/signature';

const rules = fc.constantFrom('query' as const, 'body' as const);

describe('signPayload', () => {
  it('is lowercase hex HMAC-SHA256 (RFC 4231 test case 2)', () => {
    expect(signPayload('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});

describe('signQuery', () => {
  const base = { recvWindow: 5000, timestamp: 1_700_000_000_000, secret: 's3cret', rule: 'body' } as const;

  it('puts params in the given order, then recvWindow, timestamp, and the signature last', () => {
    const signed = signQuery({
      ...base,
      params: [
        ['subAccount', 'alice'],
        ['page', 2],
      ],
      body: '',
    });
    expect(signed).toMatch(/^subAccount=alice&page=2&recvWindow=5000&timestamp=1700000000000&signature=[0-9a-f]{64}$/);
  });

  it("under the 'body' rule, signs the query followed directly by the body (the docs' totalParams)", () => {
    const body = '{"subAccount":"alice","permissions":"SPOT_ACCOUNT_READ","note":"n"}';
    const signed = signQuery({ ...base, params: [], body });
    const split = splitSignedQuery(signed);
    expect(split?.unsigned).toBe('recvWindow=5000&timestamp=1700000000000');
    const expected = createHmac('sha256', 's3cret').update(`recvWindow=5000&timestamp=1700000000000${body}`).digest('hex');
    expect(split?.signature).toBe(expected);
  });

  it("under the 'query' rule, signs the query only (as ccxt does for a broker POST)", () => {
    const withBody = signQuery({ ...base, params: [], body: '{"a":1}', rule: 'query' });
    const withoutBody = signQuery({ ...base, params: [], body: '', rule: 'query' });
    expect(withBody).toBe(withoutBody);
    expect(withBody).not.toBe(signQuery({ ...base, params: [], body: '{"a":1}', rule: 'body' }));
  });

  it('reads the setting as typed: auto, query or body, any case; nothing else', () => {
    expect(['auto', ' Query ', 'BODY'].map(parsePostSignature)).toEqual(['auto', 'query', 'body']);
    expect(['', 'either', 'true', 'query+body'].map(parsePostSignature)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('form-urlencodes values', () => {
    expect(
      buildQuery([
        ['note', 'a b&c=d'],
        ['skip', undefined],
        ['n', 0],
      ]),
    ).toBe('note=a+b%26c%3Dd&n=0');
  });
});

describe("the sandbox's check, written apart from the client's signing", () => {
  it('accepts the signature and rejects another', () => {
    const sig = signPayload('k', 'x=1');
    expect(signedBy('k', 'x=1', '', 'query', sig)).toBe(true);
    // "The signature is support lowercase only" (the service's docs).
    expect(signedBy('k', 'x=1', '', 'query', sig.toUpperCase())).toBe(false);
    expect(signedBy('k', 'x=2', '', 'query', sig)).toBe(false);
    expect(signedBy('k', 'x=1', '', 'query', 'short')).toBe(false);
  });

  it('under the body rule, the query followed directly by the raw body (RFC 4231 test case 2, split in two)', () => {
    const expected = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(signedBy('Jefe', 'what do ya want ', 'for nothing?', 'body', expected)).toBe(true);
    expect(signedBy('Jefe', 'what do ya want ', 'for nothing?', 'query', expected)).toBe(false);
  });

  it('takes the one signature out wherever it sits; none or two is no signature', () => {
    expect(splitSignedQuery('a=1&signature=ab&timestamp=2')).toEqual({ unsigned: 'a=1&timestamp=2', signature: 'ab' });
    expect(splitSignedQuery('a=1&timestamp=2')).toBeUndefined();
    expect(splitSignedQuery('signature=ab&a=1&signature=cd')).toBeUndefined();
  });
});

// ---- properties ----

const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/);
const value = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(undefined));
const params = fc.array(fc.tuple(name, value), { maxLength: 8 });
const secret = fc.string({ minLength: 1, maxLength: 40 });

describe('signing properties', () => {
  it('the signature is deterministic', () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.string(), secret, rules, (p, ts, body, s, rule) => {
        const input = { params: p, recvWindow: 5000, timestamp: ts, body, secret: s, rule };
        expect(signQuery(input)).toBe(signQuery(input));
      }),
    );
  });

  it('any change to the query changes the signature', () => {
    fc.assert(
      fc.property(params, params, fc.nat(), secret, (a, b, ts, s) => {
        fc.pre(buildQuery(a) !== buildQuery(b));
        const sigA = splitSignedQuery(signQuery({ params: a, recvWindow: 5000, timestamp: ts, body: '', secret: s, rule: 'query' }))?.signature;
        const sigB = splitSignedQuery(signQuery({ params: b, recvWindow: 5000, timestamp: ts, body: '', secret: s, rule: 'query' }))?.signature;
        expect(sigA).not.toBe(sigB);
      }),
    );
  });

  it('any change to the timestamp or the body changes the signature (when the body is signed)', () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.nat(), fc.string(), fc.string(), secret, (p, t1, t2, b1, b2, s) => {
        fc.pre(t1 !== t2 || b1 !== b2);
        const one = signQuery({ params: p, recvWindow: 5000, timestamp: t1, body: b1, secret: s, rule: 'body' });
        const two = signQuery({ params: p, recvWindow: 5000, timestamp: t2, body: b2, secret: s, rule: 'body' });
        expect(splitSignedQuery(one)?.signature).not.toBe(splitSignedQuery(two)?.signature);
      }),
    );
  });

  it('splitSignedQuery returns exactly what was signed, and the signature verifies', () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.string(), secret, rules, (p, ts, body, s, rule) => {
        const signed = signQuery({ params: p, recvWindow: 5000, timestamp: ts, body, secret: s, rule });
        const split = splitSignedQuery(signed);
        expect(split).toBeDefined();
        if (!split) return;
        expect(`${split.unsigned}&signature=${split.signature}`).toBe(signed);
        expect(split.unsigned).toBe(buildQuery([...p, ['recvWindow', 5000], ['timestamp', ts]]));
        expect(signedBy(s, split.unsigned, body, rule, split.signature)).toBe(true);
      }),
    );
  });

  it('buildQuery writes exactly what URLSearchParams writes, for plain and any other names and values', () => {
    const text = fc.oneof(fc.stringMatching(/^[A-Za-z0-9*._~+ %-]{0,12}$/), fc.string({ maxLength: 12 }), anyText({ maxLength: 12 }));
    const anyParams = fc.array(fc.tuple(text, fc.oneof(text, fc.integer(), fc.double(), fc.constant(undefined))), { maxLength: 8 });
    fc.assert(
      fc.property(anyParams, (p) => {
        const search = new URLSearchParams();
        for (const [n, v] of p) if (v !== undefined) search.append(n, String(v));
        expect(buildQuery(p)).toBe(search.toString());
      }),
      { numRuns: 2000 },
    );
  });

  it('buildQuery keeps the order and skips undefined values', () => {
    fc.assert(
      fc.property(params, (p) => {
        const decoded = [...new URLSearchParams(buildQuery(p))];
        const expected = p.filter(([, v]) => v !== undefined).map(([n, v]) => [n, String(v)]);
        expect(decoded).toEqual(expected);
      }),
    );
  });
});
