// The entry of dist/chunks/undici-<hash>.js: undici (most of the bytes), a script of its own that the program
// loads at its first request (through the bin, and the code cache), so --help and the first frame never wait for it.
import * as undici from 'undici';
import type { StartupHost } from './host';

declare const __bcHost: StartupHost;
__bcHost.exports.default = undici;
