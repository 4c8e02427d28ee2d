// A setup file of every test file (vitest.config.ts): Node's own compile cache for the packages each test
// file's fresh worker loads again (Ink, React, undici, …), kept beside the other caches in node_modules.
import { enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

enableCompileCache(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'test-compile-cache'));
