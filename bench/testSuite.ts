// The wall time of `npm test` (build, typecheck and every test), against its budget (docs/performance.md).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median, row } from './util';

/** The tests that failed, from the JSON report vitest writes (.ci/run counts from the same file). */
function failedTests(): string[] {
  try {
    const report = JSON.parse(readFileSync('test-results.json', 'utf8')) as { testResults: { assertionResults: { status: string; fullName: string }[] }[] };
    return report.testResults.flatMap((file) => file.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName));
  } catch {
    return [];
  }
}

/** Runs of `npm test` the figure is the median of: one run on this shared 2-core machine varies by a second or more. */
const RUNS = 3;

export function testSuite(): void {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync('npm', ['test', '--silent'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (result.status !== 0) {
      console.log(`npm test failed (exit ${result.status}) after ${seconds.toFixed(1)} s: its time is not a figure`);
      for (const name of failedTests()) console.log(`  failed: ${name}`);
      return;
    }
    times.push(seconds);
  }
  const runs = times.map((t) => t.toFixed(1)).join(', ');
  row(`npm test (build, typecheck, every test; median of ${RUNS})`, `${median(times).toFixed(1)} s`, 'goal 60 s', median(times) / 60);
  console.log(`  runs: ${runs} s`);
}
