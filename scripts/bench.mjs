// Bundles bench/run.ts (it imports the TypeScript sources) and runs it; the console bundle is built first.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A baseline that is not a dependency of the project: ccxt's MEXC client, installed once beside the cache.
const baselines = join('node_modules', '.cache', 'bench-baselines');
if (!existsSync(join(baselines, 'node_modules', 'ccxt'))) {
  mkdirSync(baselines, { recursive: true });
  writeFileSync(join(baselines, 'package.json'), '{ "private": true }\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const got = spawnSync(npm, ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--silent', 'ccxt@4.5.84'], {
    cwd: baselines,
    stdio: 'inherit',
  });
  if (got.status !== 0) console.error('bench: ccxt could not be installed as a baseline; its row is left out');
}

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
