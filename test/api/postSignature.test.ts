// What a create's signature covers, against sandboxes that check each reading, over real sockets: 'auto' sends
// the query-only rule (or the remembered one) first and, on a 700002 (or 602), the other rule once; a pinned rule never
// falls back; the sandbox's 'either' accepts both.
import { describe, expect, it } from 'vitest';
import type { BrokerApi, ClientConfig, ExchangeInfo } from '../../src/api/contract';
import { BrokerError } from '../../src/api/errors';
import { API_KEY_PATH, createBrokerApi } from '../../src/api/operations';
import { type PostSignatureRule, signPayload } from '../../src/api/signing';
import { splitSignedQuery } from '../../src/sandbox/signature';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types';
import { type OnFinished, sandboxFor } from '../sandbox/helpers';

function apiFor(onFinished: OnFinished, sb: RunningSandbox, overrides: Partial<ClientConfig> = {}): BrokerApi {
  const api = createBrokerApi({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, secretKey: sb.secretKey, retryBaseDelayMs: 5, ...overrides });
  onFinished(() => api.close());
  return api;
}

async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BrokerError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const newKey = (sb: RunningSandbox, note = 'rule') => ({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note });

/** The creates the sandbox received since `from`, with their HTTP statuses. */
function posts(sb: RunningSandbox, from = 0): number[] {
  return sb
    .requests()
    .slice(from)
    .filter((r) => r.method === 'POST' && r.path === API_KEY_PATH)
    .map((r) => r.status);
}

/** Which rule signed a received create: its signature is recomputed from the query (the body is known to the test). */
function signedBy(sb: RunningSandbox, index: number, body: string): PostSignatureRule | 'neither' {
  const record = sb.requests().filter((r) => r.method === 'POST')[index];
  const split = splitSignedQuery(record?.query ?? '');
  if (!split) return 'neither';
  if (signPayload(sb.secretKey, split.unsigned) === split.signature) return 'query';
  if (signPayload(sb.secretKey, split.unsigned + body) === split.signature) return 'body';
  return 'neither';
}

const started = (onFinished: OnFinished, options: SandboxOptions) => sandboxFor(onFinished, { seed: 21, ...options });

describe('auto (the default)', () => {
  it('signs a create over the query alone first: the default sandbox (as the live service) accepts it in one POST', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, {});
    const learned: PostSignatureRule[] = [];
    const created = await apiFor(onTestFinished, sb, { onPostSignature: (rule) => learned.push(rule) }).createSubAccountKey(newKey(sb, 'first'));
    expect(created.note).toBe('first');
    expect(posts(sb)).toEqual([200]);
    expect(signedBy(sb, 0, '{"subAccount":"' + (sb.subAccounts[0] ?? '') + '","permissions":"SPOT_ACCOUNT_READ","note":"first"}')).toBe('query');
    expect(learned).toEqual(['query']);
  });

  it('a 700002 to a create is resent once by query + body, and the client keeps that rule for its next create', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    const learned: PostSignatureRule[] = [];
    const exchanges: string[] = [];
    const onExchange = (e: ExchangeInfo) => exchanges.push(`${e.method} ${e.status ?? '-'} ${e.postSignature ?? '-'}`);
    const api = apiFor(onTestFinished, sb, { onPostSignature: (rule) => learned.push(rule), onExchange });
    const created = await api.createSubAccountKey(newKey(sb, 'fallback'));
    // Each try says which rule it was signed by (what --log-file writes as signed=…).
    expect(exchanges).toEqual(['POST 400 query', 'POST 200 body']);
    expect(created.secretKey).not.toBe('');
    expect(posts(sb)).toEqual([400, 200]);
    const body = `{"subAccount":"${sb.subAccounts[0] ?? ''}","permissions":"SPOT_ACCOUNT_READ","note":"fallback"}`;
    expect([signedBy(sb, 0, body), signedBy(sb, 1, body)]).toEqual(['query', 'body']);
    expect(learned).toEqual(['body']);
    // One key only: the refused POST made none.
    expect((await api.listSubAccountKeys(sb.subAccounts[0] ?? '')).filter((k) => k.note === 'fallback')).toHaveLength(1);

    await api.createSubAccountKey(newKey(sb, 'second'));
    expect(posts(sb, 0)).toEqual([400, 200, 200]);
  });

  it('starts with the remembered rule: against a body sandbox, one POST', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    await apiFor(onTestFinished, sb, { rememberedPostSignature: 'body' }).createSubAccountKey(newKey(sb));
    expect(posts(sb)).toEqual([200]);
  });

  it('a remembered rule the service no longer accepts heals itself: one refused POST, then the other rule, which is learned', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, {});
    const learned: PostSignatureRule[] = [];
    await apiFor(onTestFinished, sb, { rememberedPostSignature: 'body', onPostSignature: (rule) => learned.push(rule) }).createSubAccountKey(newKey(sb));
    expect(posts(sb)).toEqual([400, 200]);
    expect(learned).toEqual(['query']);
  });

  it('a wrong secret: both rules refused, two POSTs, the message says so and carries no secret or signature; nothing learned', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, {});
    const learned: PostSignatureRule[] = [];
    const error = await failure(
      apiFor(onTestFinished, sb, { secretKey: 'not-the-secret', onPostSignature: (rule) => learned.push(rule) }).createSubAccountKey(newKey(sb)),
    );
    expect(error).toMatchObject({ kind: 'service', code: 700002 });
    expect(error.message).toContain('both POST signature rules');
    expect(error.message).not.toContain('not-the-secret');
    for (const record of sb.requests()) expect(error.message).not.toContain(splitSignedQuery(record.query)?.signature ?? 'missing');
    expect(posts(sb)).toEqual([400, 400]);
    expect(learned).toEqual([]);
  });

  it('the 700003 resend and the 700002 resend coexist: three POSTs for one create, one key made', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    // A refused timestamp first (the clock is re-measured and the same rule resent), then the rule is refused.
    sb.queueFaults({ kind: 'status', status: 400, code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' });
    const api = apiFor(onTestFinished, sb);
    const created = await api.createSubAccountKey(newKey(sb, 'both'));
    expect(created.note).toBe('both');
    expect(posts(sb)).toEqual([400, 400, 200]);
    expect((await api.listSubAccountKeys(sb.subAccounts[0] ?? '')).filter((k) => k.note === 'both')).toHaveLength(1);
  });

  it('a skewed body-only sandbox: the 700002 answer already corrects the clock, so the resend by the other rule is accepted', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body', clockOffsetMs: 120_000 });
    const api = apiFor(onTestFinished, sb);
    await api.createSubAccountKey(newKey(sb, 'skewed'));
    expect(posts(sb)).toEqual([400, 200]);
    expect(Math.abs(api.clockOffsetMs() - 120_000)).toBeLessThan(5_000);
  });

  it('a business refusal after the fallback settles the rule too (the signature was checked); a 5xx settles nothing', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    const learned: PostSignatureRule[] = [];
    const api = apiFor(onTestFinished, sb, { onPostSignature: (rule) => learned.push(rule) });
    const refused = await failure(api.createSubAccountKey({ ...newKey(sb), subAccount: 'nosuchsub123' }));
    expect(refused).toMatchObject({ kind: 'service', code: 140001 });
    expect(posts(sb)).toEqual([400, 400]);
    expect(learned).toEqual(['body']);

    const fresh = await started(onTestFinished, {});
    const none: PostSignatureRule[] = [];
    fresh.queueFaults({ kind: 'status', status: 503, code: 503, msg: 'busy' });
    await failure(apiFor(onTestFinished, fresh, { onPostSignature: (rule) => none.push(rule) }).createSubAccountKey(newKey(fresh)));
    expect(posts(fresh)).toEqual([503]);
    expect(none).toEqual([]);
  });

  it("the service's internal-error codes in an envelope (504 at HTTP 200, 20002 at HTTP 400): unknown, never resent, nothing learned", async ({
    onTestFinished,
  }) => {
    for (const [status, code, msg] of [
      [200, 504, 'Gateway Time-out'],
      [400, 20002, 'Internal system error please contact support'],
    ] as const) {
      const sb = await started(onTestFinished, {});
      const none: PostSignatureRule[] = [];
      sb.queueFaults({ kind: 'status', status, code, msg });
      const error = await failure(apiFor(onTestFinished, sb, { onPostSignature: (rule) => none.push(rule) }).createSubAccountKey(newKey(sb)));
      expect(error, String(code)).toMatchObject({ kind: 'outcome-unknown', status, code });
      expect(posts(sb)).toEqual([status]);
      expect(none).toEqual([]);
    }
  });

  it('602 (the error table\'s "Signature verification failed") is a refusal as 700002 is; 700013 settles nothing', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    const learned: PostSignatureRule[] = [];
    sb.queueFaults({ kind: 'status', status: 400, code: 602, msg: 'Signature verification failed' });
    await apiFor(onTestFinished, sb, { onPostSignature: (rule) => learned.push(rule) }).createSubAccountKey(newKey(sb, 'after 602'));
    expect(posts(sb)).toEqual([400, 200]);
    expect(learned).toEqual(['body']);

    const fresh = await started(onTestFinished, {});
    const none: PostSignatureRule[] = [];
    fresh.queueFaults({ kind: 'status', status: 400, code: 700013, msg: 'Invalid Content-Type v3' });
    const refused = await failure(apiFor(onTestFinished, fresh, { onPostSignature: (rule) => none.push(rule) }).createSubAccountKey(newKey(fresh)));
    expect(refused).toMatchObject({ kind: 'service', code: 700013 });
    expect(posts(fresh)).toEqual([400]);
    expect(none).toEqual([]);
  });

  it('a GET is signed once whatever the rule: a list against a body sandbox is one request', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    await apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(sb.requests().map((r) => r.status)).toEqual([200]);
  });
});

describe('a pinned rule', () => {
  it('query: one POST to a body sandbox, a 700002 that names the setting, no resend', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'body' });
    const learned: PostSignatureRule[] = [];
    const error = await failure(
      apiFor(onTestFinished, sb, { postSignature: 'query', onPostSignature: (rule) => learned.push(rule) }).createSubAccountKey(newKey(sb)),
    );
    expect(error.code).toBe(700002);
    expect(error.message).toContain('pinned to query only');
    expect(posts(sb)).toEqual([400]);
    expect(learned).toEqual([]);
  });

  it('body: one POST to the default (query) sandbox, refused, no resend; accepted by a body sandbox', async ({ onTestFinished }) => {
    const strict = await started(onTestFinished, {});
    const error = await failure(apiFor(onTestFinished, strict, { postSignature: 'body' }).createSubAccountKey(newKey(strict)));
    expect(error.message).toContain('pinned to query + body');
    expect(posts(strict)).toEqual([400]);
    const body = await started(onTestFinished, { postSignature: 'body' });
    await apiFor(onTestFinished, body, { postSignature: 'body' }).createSubAccountKey(newKey(body));
    expect(posts(body)).toEqual([200]);
  });
});

describe("the sandbox's 'either'", () => {
  it('accepts a create signed by either rule, and still refuses a wrong signature', async ({ onTestFinished }) => {
    const sb = await started(onTestFinished, { postSignature: 'either' });
    await apiFor(onTestFinished, sb, { postSignature: 'query' }).createSubAccountKey(newKey(sb, 'q'));
    await apiFor(onTestFinished, sb, { postSignature: 'body' }).createSubAccountKey(newKey(sb, 'b'));
    expect(posts(sb)).toEqual([200, 200]);
    const error = await failure(apiFor(onTestFinished, sb, { postSignature: 'query', secretKey: 'wrong' }).createSubAccountKey(newKey(sb)));
    expect(error.code).toBe(700002);
  });
});
