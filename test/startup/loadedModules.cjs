// Preloaded into the bin by test/startup/bin.test.ts (NODE_OPTIONS=--require): at exit, the Node built-ins the
// process loaded and the URLs of the modules it loaded, as JSON in the file BC_LOADED_MODULES names (stdout and
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
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length));
  writeFileSync(process.env.BC_LOADED_MODULES, JSON.stringify({ builtins, modules }));
});
