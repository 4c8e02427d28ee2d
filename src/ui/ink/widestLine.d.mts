/** widest-line with each text's width remembered: one per process (src/ui/ink/widestLine.mjs). */
export function rememberingWidestLine(widestLine: (text: string) => number): ((text: string) => number) & { has(text: string): boolean };
/** Whether this text's width is remembered. */
export function remembers(text: string): boolean;
