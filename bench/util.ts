// Shared by the benchmark sections: where the built binary is, medians, timed commands, and one row format.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// Run from the project root (scripts/bench.mjs), wherever the bundled copy of this file lives.
export const ROOT = process.cwd();
export const BIN = join(ROOT, 'dist', 'broker-console.js');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The value below which `p` (0–1) of the values fall. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export function timeCommand(args: string[], runs: number, env: NodeJS.ProcessEnv = process.env): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr.toString()}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** One figure against its same-run baseline. */
export function row(name: string, value: string, baseline: string, ratio: number): void {
  console.log(`${name.padEnd(44)} ${value.padStart(12)}  vs ${baseline.padStart(12)}  ratio ${ratio.toFixed(2)}`);
}
