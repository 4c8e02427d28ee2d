// Preloaded into the bin by test/startup/bin.test.ts (NODE_OPTIONS=--require): at exit, the Node built-ins the
// process loaded, as JSON in the file BC_LOADED_MODULES names (stdout and stderr stay the command's own).
'use strict';
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length));
  writeFileSync(process.env.BC_LOADED_MODULES, JSON.stringify(builtins));
});
