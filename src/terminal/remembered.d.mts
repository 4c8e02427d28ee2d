/** A width function that remembers its answers (src/terminal/remembered.mjs). */
export function remembered(
  measure: (text: string) => number,
  bounds: { maxTexts: number; maxLength: number },
): { (text: string): number; has(text: string): boolean };
