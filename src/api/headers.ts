// What may travel in the API-key header. One rule for every place a key or header name comes from (the
// environment, `profile add`, the keychain, the client itself), so a value the HTTP layer would refuse is
// named where it was given, and never reported as a request that was sent.

const MAX_API_KEY_LENGTH = 256;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/**
 * Why this API key cannot be sent in a header, or undefined when it can: printable ASCII without spaces,
 * 1 to 256 characters. The reason reads after "<where the key came from>: ".
 */
export function apiKeyProblem(value: string): string | undefined {
  if (value === '') return 'the API key is empty';
  if (/[\r\n]/.test(value)) return 'the API key contains a line break (CR or LF); it travels in an HTTP header';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'the API key contains a control character; it travels in an HTTP header';
  if (/\s/.test(value)) return 'the API key contains a space';
  if (!/^[\x21-\x7e]+$/.test(value)) return 'the API key must be printable ASCII (it travels in an HTTP header)';
  if (value.length > MAX_API_KEY_LENGTH) return `the API key is longer than ${MAX_API_KEY_LENGTH} characters`;
  return undefined;
}

/**
 * Header names the HTTP layer or a proxy gives a meaning of their own (routing, framing, connection, credentials
 * of another kind): an API key sent as one would redirect, break or leak the request.
 */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'authorization',
  'cookie',
  'set-cookie',
  'accept',
  'accept-encoding',
  'user-agent',
  'forwarded',
  'via',
  'origin',
  'referer',
  'range',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'if-range',
  'date',
  'max-forwards',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-http-method-override',
  'x-real-ip',
]);

/** Why this cannot be a header name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (HEADER_NAME.test(name) && (RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-'))) {
    return `'${name}' is a header HTTP itself uses; the API key needs a header of its own (e.g. X-MEXC-APIKEY)`;
  }
  if (HEADER_NAME.test(name)) return undefined;
  const shown = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 60);
  return `'${shown}' is not an HTTP header name (letters, digits and -, e.g. X-MEXC-APIKEY)`;
}
