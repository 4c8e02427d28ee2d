// The one wording for a key with no linked IP, on every screen and in every table that shows one.
export const NO_IP = 'none (any address)';

/** A key's linked IPs as one value, or the wording for none. */
export function ipsText(ips: readonly string[] | undefined, separator = ', '): string {
  return ips === undefined || ips.length === 0 ? NO_IP : ips.join(separator);
}
