// `npm test`: the build, the typecheck and every test at the same time (the typecheck needs no build output; the
// tests that run the bundle wait for it, see below); fails if any of the three fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { hashOf } from './buildInputs.mjs';

const run = (command, args, env = process.env) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const bin = (name) => `node_modules/.bin/${name}`;
// The build holds the lock the tests take before they copy the bundle (buildCli in test/commands/helpers.ts):
// vitest starts meanwhile (its own start-up takes longer than the build), and no test reads a half-written dist/.
const lock = 'node_modules/.cache/broker-console-build.lock';
mkdirSync('node_modules/.cache', { recursive: true });
rmSync(lock, { recursive: true, force: true });
mkdirSync(lock);
const built = run(process.execPath, ['scripts/build.mjs']).finally(() => rmSync(lock, { recursive: true, force: true }));
// Incremental: what tsc learnt of the unchanged files is kept in node_modules/.cache, so a second run checks only
// what changed (0.9 s of CPU instead of 2.4 s); a missing or stale file only costs a full check.
const tsc = ['--noEmit', '-p', '.', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/broker-console-tsc/tsbuildinfo.json'];
// The whole suite runs the UI test files in groups (test/ui/groups.ts); with arguments (a file, -t …), as they are.
const groups = process.argv.length > 2 ? {} : { BROKER_TEST_GROUPS: '1' };
const vitest = run(bin('vitest'), ['run', ...process.argv.slice(2)], { ...process.env, ...groups });
// What tsc reads (tsconfig's include and settings, the locked packages' types) unchanged since a check passed: its
// answer is known, and it is not asked again.
const checked = hashOf('.', ['tsconfig.json', 'package.json', 'package-lock.json', 'vitest.config.ts'], ['src', 'test', 'bench', 'scripts']);
const passed = 'node_modules/.cache/broker-console-tsc/passed';
async function typecheck() {
  if (existsSync(passed) && readFileSync(passed, 'utf8') === checked) {
    console.log('typecheck: nothing it reads changed since it last passed');
    return 0;
  }
  const code = await run(bin('tsc'), tsc);
  if (code === 0) {
    mkdirSync(dirname(passed), { recursive: true });
    writeFileSync(passed, checked);
  }
  return code;
}
const typechecked = typecheck();
const [build, types, tests] = await Promise.all([built, typechecked, vitest]);
if (build !== 0) console.error('error: the build failed (see above)');
if (types !== 0) console.error('error: the typecheck failed (see above)');
process.exit(build || types || tests);
