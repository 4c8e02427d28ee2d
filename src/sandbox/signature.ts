// The service's side of signing, written from MEXC's docs rather than from the client's code, so a mistake in
// one is not made the same way in the other: "totalParams is defined as the query string concatenated with the
// request body"; the signature is the lowercase hex HMAC-SHA256 of totalParams keyed with the secret; "parameters
// may be sent in any order" (docs/signing.md has the sources, and which client sends what).
import { nodeCrypto } from '../lazyBuiltins';

/** What a signature may cover: the query alone, the query followed by the raw body, or either. */
export type SignedContent = 'query' | 'body';

/** The default and the largest recvWindow the service takes, ms. */
export const SERVICE_DEFAULT_RECV_WINDOW = 5000;
export const SERVICE_MAX_RECV_WINDOW = 60_000;

/**
 * The one `signature` parameter taken out of a raw query, wherever it sits (MEXC's own demo sends it before
 * `timestamp`); the rest, in the order received, is what was signed. Undefined when there is none or several.
 */
export function splitSignedQuery(rawQuery: string): { unsigned: string; signature: string } | undefined {
  const parts = rawQuery.split('&');
  const found = parts.filter((part) => part.startsWith('signature='));
  if (found.length !== 1) return undefined;
  return { unsigned: parts.filter((part) => !part.startsWith('signature=')).join('&'), signature: found[0]!.slice('signature='.length) };
}

/** Whether `received` signs the unsigned query (and the raw body, under 'body') with `secret`; lowercase only, as the docs say. */
export function signedBy(secret: string, unsigned: string, rawBody: string, covers: SignedContent, received: string): boolean {
  const expected = Buffer.from(
    nodeCrypto()
      .createHmac('sha256', secret)
      .update(covers === 'body' ? `${unsigned}${rawBody}` : unsigned, 'utf8')
      .digest('hex'),
    'utf8',
  );
  const given = Buffer.from(received, 'utf8');
  return expected.length === given.length && nodeCrypto().timingSafeEqual(expected, given);
}
