// The hooks test/inkHooks.mjs registers, so the tests run the Ink the console's bundle ships:
// `widest-line` imported by Ink's renderer is the remembering one (src/ui/ink/widestLine.mjs), and the text
// packages get the console's patches (scripts/textPatches.mjs): the lazy RGI emoji pattern and the grapheme
// segmenter without ICU.
import { fileURLToPath } from 'node:url';
import { TEXT_FILES, patchText } from '../scripts/textPatches.mjs';

const RENDERER = /\/node_modules\/ink\/build\/render-node-to-output\.js$/;
const REMEMBERING = new URL('../src/ui/ink/widestLine.mjs', import.meta.url).href;
const SEGMENTER = new URL('../src/terminal/graphemeSegmenter.mjs', import.meta.url).href;
const RGI_EMOJI = new URL('../src/terminal/rgiEmoji.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'widest-line' && context.parentURL !== undefined && RENDERER.test(context.parentURL)) return { url: REMEMBERING, shortCircuit: true };
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.startsWith('file:') || !TEXT_FILES.test(fileURLToPath(url)) || loaded.source === undefined || loaded.source === null) return loaded;
  const text = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
  return { ...loaded, source: patchText(fileURLToPath(url), text, { rgiEmoji: RGI_EMOJI, segmenter: SEGMENTER }) };
}
