// Loaded in every test worker before anything else (vitest.config.ts, execArgv --import): Ink's renderer gets
// the `widest-line` the console's bundle gives it (src/ui/ink/widestLine.mjs, scripts/scriptBundle.mjs), so the
// tests render with the same Ink the console ships.
import { register } from 'node:module';

register('./inkResolve.mjs', import.meta.url);
