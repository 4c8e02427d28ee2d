// A width function that remembers its answers: frames measure the same texts frame after frame.
/**
 * @param {(text: string) => number} measure a pure function of the text
 * @param {{ maxTexts: number, maxLength: number }} bounds texts kept before starting afresh, and the longest kept
 * @returns {{ (text: string): number, has(text: string): boolean }}
 */
export function remembered(measure, { maxTexts, maxLength }) {
  const known = new Map();
  const lookup = (/** @type {string} */ text) => {
    if (text.length > maxLength) return measure(text);
    let value = known.get(text);
    if (value === undefined) {
      if (known.size >= maxTexts) known.clear();
      value = measure(text);
      known.set(text, value);
    }
    return value;
  };
  lookup.has = (/** @type {string} */ text) => known.has(text);
  return lookup;
}
