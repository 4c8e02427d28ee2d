/** widest-line, each text's width remembered (src/ui/ink/widestLine.mjs). */
export default function rememberedWidestLine(text: string): number;
/** How many texts are remembered. */
export function textsRemembered(): number;
