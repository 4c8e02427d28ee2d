// The entry of dist/chunks/undici-<hash>.js: undici's Pool, what the client uses to reach the service directly
// (src/api/http.ts), without evaluating the rest of the package (fetch, WebSocket, caches, mocks), whose loading also
// woke Node's own undici through the fetch globals; ProxyAgent, for a proxy, comes from undici's public entry at its
// first use (the rest of undici is bundled here for it, but evaluated only then). A script of its own that the
// program loads at its first request (through the bin, and the code cache), so --help and the first frame never
// wait for it.
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import type { StartupHost } from './host';

// What undici's index.js does first: a dispatcher's request(), stream(), … come from its api folder.
Object.assign(Dispatcher.prototype, api);

declare const __bcHost: StartupHost;
__bcHost.exports.default = {
  Pool,
  // Through a proxy only: undici's public entry, evaluated at that first use (its code is in this script, and cached).
  get ProxyAgent() {
    return (require('undici') as typeof import('undici')).ProxyAgent;
  },
};
