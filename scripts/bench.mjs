// Bundles bench/run.ts (it imports the TypeScript sources) and runs it; the console bundle is built first.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';

await build({
  entryPoints: ['bench/run.ts'],
  outfile: 'node_modules/.cache/broker-console-bench/run.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--expose-gc', 'node_modules/.cache/broker-console-bench/run.mjs', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
