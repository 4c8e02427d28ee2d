// Preloaded into the bin by test/startup/bin.test.ts (NODE_OPTIONS=--require): at exit, the Node built-ins the
// program loaded and the URLs of the modules it loaded (module.registerHooks, Node's public API), as JSON in the file BC_LOADED_MODULES names (stdout and
// stderr stay the command's own).
'use strict';
const { writeFileSync } = require('node:fs');
const { registerHooks } = require('node:module');
const modules = [];
registerHooks({
  load(url, context, nextLoad) {
    modules.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  // Built-ins come through the same public hook, as node:NAME (what the program asked for; not Node's own internals).
  const builtins = [...new Set(modules.filter((url) => url.startsWith('node:')).map((url) => url.slice('node:'.length)))];
  writeFileSync(process.env.BC_LOADED_MODULES, JSON.stringify({ builtins, modules: modules.filter((url) => !url.startsWith('node:')) }));
});
