// The minimal Ink list started the way the console's bin starts the console (a CommonJS loader, one script through
// V8's code cache, the same build patches): what any Ink app's first frame costs with every start-up trick the
// console has. Usage: node minimal-ink-cached.cjs <script> <cache folder>
import { pathToFileURL } from 'node:url';
import type { StartupHost } from '../src/startup/host';
import { cacheFileFor, runCachedScript } from '../src/startup/scriptCache';

const [file, folder] = process.argv.slice(2) as [string, string];
const script = runCachedScript(file, cacheFileFor(file, folder, 'list'));
const host: StartupHost = { exports: {}, import: (specifier) => import(specifier), drawn: () => undefined };
void (script.value as (require: NodeJS.Require, host: StartupHost, url: string) => Promise<void>)(require, host, pathToFileURL(file).href);
// As the bin does: the cache is written a moment after the first frame.
if (script.status !== 'hit') setTimeout(() => script.save(), 250).unref();
