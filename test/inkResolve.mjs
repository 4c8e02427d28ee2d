// The resolve hook test/inkHooks.mjs registers: `widest-line` imported by Ink's renderer is the remembering one.
const RENDERER = /\/node_modules\/ink\/build\/render-node-to-output\.js$/;
const REMEMBERING = new URL('../src/ui/ink/widestLine.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'widest-line' && context.parentURL !== undefined && RENDERER.test(context.parentURL)) return { url: REMEMBERING, shortCircuit: true };
  return nextResolve(specifier, context);
}
