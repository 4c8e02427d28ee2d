// The sandbox in a process of its own, as a service would be (bench/exports.ts): started with the options
// given as JSON in argv[2], it prints one JSON line (baseUrl, apiKey, secretKey) and serves until killed.
import { startSandbox } from '../src/sandbox/server';
import type { SandboxOptions } from '../src/sandbox/types';

const options = JSON.parse(process.argv[2] ?? '{}') as SandboxOptions;
const sandbox = await startSandbox(options);
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey })}\n`);
process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
