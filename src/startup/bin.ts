#!/usr/bin/env node
// The bin (dist/broker-console.js): answers --version itself, turns on Node's compile cache, then imports the
// program, so a start does not parse or compile what an earlier start compiled.

// An ES module (its top-level awaits), though it imports nothing statically: --version loads no other file.
export {};

/** package.json's version, set by scripts/build.mjs (the bin then loads no other file for --version). */
declare const __BC_VERSION__: string;
/** The least Node of package.json's `engines` ("22.19"), set by scripts/build.mjs: a string, so no chunk holds it. */
declare const __BC_NODE_MIN__: string;

/** Below `engines`, the program fails somewhere inside a dependency (undici 8 on Node 20: "reading 'bind'"). */
function nodeTooOld(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const [needMajor = 0, needMinor = 0] = __BC_NODE_MIN__.split('.').map(Number);
  return major < needMajor || (major === needMajor && minor < needMinor);
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  // What commander prints for --version, without loading the program.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // As every command says it: "ENOSPC: no space left on device, write" → the words alone.
    if (error.code !== 'EPIPE')
      process.stderr.write(`error: could not write the output to stdout: ${error.message.replace(/^[A-Z][A-Z0-9_]*: /, '').replace(/, [a-z]+$/, '')}\n`);
    process.exit(error.code === 'EPIPE' ? 0 : 1);
  });
  process.stdout.write(`${__BC_VERSION__}\n`);
} else if (nodeTooOld()) {
  process.stderr.write(
    `error: broker-console needs Node ${__BC_NODE_MIN__} or later, and this is Node ${process.versions.node}: install a current Node LTS (22 or 24)\n`,
  );
  // EXIT.usage, as for missing credentials: a setup to fix, and nothing was sent.
  process.exitCode = 2;
} else {
  // WebAssembly stays on V8's baseline compiler (Liftoff), set before any is compiled: tiering undici's HTTP
  // parser up to TurboFan kept a short command waiting on that compile before it could exit. Set here, not on
  // the command line: the bin is started by its #! line, which takes no flags portably.
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  // Imported here, not above: --version loads nothing but this file.
  const { openCompileCache } = await import('./compileCache');
  openCompileCache(__BC_VERSION__, process.env);
  await import('./main');
}
