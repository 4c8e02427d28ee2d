// `npm test`: build, then the typecheck and every test at the same time (the typecheck needs no build
// output and the tests need no typecheck); fails if either fails.
import { spawn } from 'node:child_process';

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const bin = (name) => `node_modules/.bin/${name}`;
const built = await run(process.execPath, ['scripts/build.mjs']);
if (built !== 0) process.exit(built);
// Incremental: what tsc learnt of the unchanged files is kept in node_modules/.cache, so a second run checks only
// what changed (0.9 s of CPU instead of 2.4 s); a missing or stale file only costs a full check.
const tsc = ['--noEmit', '-p', '.', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/broker-console-tsc/tsbuildinfo.json'];
const [typecheck, tests] = await Promise.all([run(bin('tsc'), tsc), run(bin('vitest'), ['run', ...process.argv.slice(2)])]);
if (typecheck !== 0) console.error('error: the typecheck failed (see above)');
process.exit(typecheck || tests);
