/** widest-line, each text's width remembered (src/ui/ink/widestLine.mjs). */
export default function rememberedWidestLine(text: string): number;
/** Whether this text's width is remembered. */
export function remembers(text: string): boolean;
