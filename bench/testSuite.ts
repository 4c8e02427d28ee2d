// The wall time of `npm test` (build, typecheck and every test), against issue 9's goal of 30 s on this machine.
import { spawnSync } from 'node:child_process';
import { row } from './util';

export function testSuite(): void {
  const start = process.hrtime.bigint();
  const result = spawnSync('npm', ['test', '--silent'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.status !== 0) {
    console.log(`npm test failed (exit ${result.status}) after ${seconds.toFixed(1)} s: its time is not a figure`);
    return;
  }
  row('npm test (build, typecheck, every test)', `${seconds.toFixed(1)} s`, 'goal 30 s', seconds / 30);
}
