// A width function that remembers its answers: frames measure the same texts frame after frame.

/** `measure` (a pure function of the text) remembering up to `maxTexts` texts of at most `maxLength`, then starting afresh. */
export function remembered(
  measure: (text: string) => number,
  { maxTexts, maxLength }: { maxTexts: number; maxLength: number },
): { (text: string): number; has(text: string): boolean } {
  const known = new Map<string, number>();
  const lookup = (text: string): number => {
    if (text.length > maxLength) return measure(text);
    let value = known.get(text);
    if (value === undefined) {
      if (known.size >= maxTexts) known.clear();
      value = measure(text);
      known.set(text, value);
    }
    return value;
  };
  lookup.has = (text: string): boolean => known.has(text);
  return lookup;
}
