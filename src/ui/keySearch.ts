// What `/` searches in a key list, apart from the screen: the e2e tests compute the expected matches with it
// without loading Ink and React.
import type { SubAccountKey } from '../api/types';
import { sanitize } from '../terminal/text';
import { formatLocalTime as localTime } from '../api/timeInput';
import { ipsText } from '../format/noIp';

/** A key's text as the table shows it, every column whole and sanitised: what `/` searches. */
export function keySearchText(k: SubAccountKey): string {
  return [k.note, k.apiKey, k.permissions.join(','), ipsText(k.ips, ','), localTime(k.createdAt)].map((v) => sanitize(v)).join('\n');
}
