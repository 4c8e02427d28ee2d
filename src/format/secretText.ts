// Whether a created key's secret can be shown and written exactly as the service sent it: one rule for the
// console's secret screen and for `keys create`, so the two never disagree about the same secret.
import { firstMarked } from '../terminal/sanitize';

/** Why the secret cannot be given as it is, or undefined: bytes that were not UTF-8, or characters a terminal would show as marks. */
export function secretUnreadable(secretKey: string, notUtf8: boolean | undefined): string | undefined {
  if (notUtf8 === true) return 'is not valid UTF-8 text';
  if (firstMarked(secretKey) !== undefined) return 'holds characters a terminal cannot show';
  return undefined;
}
