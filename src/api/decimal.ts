// Amounts as the service writes them: a decimal in a string, never a float. The text is kept
// exactly as sent in every output; these helpers only say whether it is a number, and give the form a
// decimal library (big.js) reads, for totals.

/**
 * Every way a decimal may be written: an optional sign, digits with an optional point (`3`, `3.`, `.5`,
 * `3.25`) and an optional exponent (`1e-7`, `2.5E+3`). `-0` and `+3.` are decimals; `1,5`, `0x10`,
 * ` 1`, `Infinity`, `NaN` and `` are not.
 */
export const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Bounds that keep a sum cheap: big.js lays out every digit between the largest and the smallest place,
 * so `1e999999999` plus `1` would need a billion digits. No real amount comes near these.
 */
const MAX_DECIMAL_TEXT_LENGTH = 100;
const MAX_DECIMAL_EXPONENT = 100;

/** Whether an amount as sent is a decimal number the totals can add (see DECIMAL_TEXT and the bounds). */
export function isDecimalAmount(text: string): boolean {
  return decimalForBig(text) !== undefined;
}

/**
 * The amount in the form big.js reads (`new Big(...)`): the same number, a leading `+` dropped (big.js
 * refuses it; `3.` and `.5` it reads as they are). Undefined when the text is not a decimal, or is one
 * beyond the bounds above: count it as "not a number", show it as sent.
 */
export function decimalForBig(text: string): string | undefined {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH || !DECIMAL_TEXT.test(text)) return undefined;
  const exponent = /[eE]([+-]?\d+)$/.exec(text)?.[1];
  if (exponent !== undefined && Math.abs(Number(exponent)) > MAX_DECIMAL_EXPONENT) return undefined;
  return text.startsWith('+') ? text.slice(1) : text;
}
