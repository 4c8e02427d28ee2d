// What of our own credentials may be shown: an API key shortened, never the secret or a signature, even where a
// service or a proxy echoes them back in an error answer.

/** mx0vglabcdefa1b2 → mx0v…a1b2; short keys keep even less. */
export function shortenApiKey(apiKey: string): string {
  const key = apiKey.trim();
  if (key.length >= 12) return `${key.slice(0, 4)}…${key.slice(-4)}`;
  if (key.length >= 6) return `${key.slice(0, 2)}…`;
  return '…';
}

/**
 * The whole API key as a 16-hex-digit digest (SHA-256): it tells two keys apart where their short forms agree,
 * and gives the key itself back to no one.
 */
export function apiKeyDigest(apiKey: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(apiKey.trim()).digest('hex').slice(0, 16);
}

/**
 * `text` with what a service may echo back of ours taken out: the API key shortened (mx0v…a1b2), the secret and
 * this request's signature left out wherever they stand, and any `signature=` value.
 */
export function withoutOwnCredentials(text: string, own: { apiKey: string; secretKey?: string; signature?: string }): string {
  const key = own.apiKey.trim();
  let out = key.length >= 6 ? text.split(key).join(shortenApiKey(key)) : text;
  for (const secret of [own.secretKey, own.signature]) if (secret !== undefined && secret.length >= 8) out = out.split(secret).join('…');
  return out.replace(/(signature["']?\s*[=:]\s*["']?)[0-9a-fA-F]{16,}/gi, '$1…');
}
