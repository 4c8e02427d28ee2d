// Node built-ins the console's first frame does not need, loaded at their first use instead of as the program
// loads: crypto (signing, the sandbox's keys, temporary names) and fs/promises (which loads readline too).
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');
export const fsPromises = () => process.getBuiltinModule('node:fs/promises');
