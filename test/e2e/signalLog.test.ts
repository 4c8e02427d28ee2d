// A signal that meets a request under way, in the real binary: --log-file and --verbose still get that
// request's line (cut short), whichever command sent it and whoever answers the signal (the command itself, or
// the connection for the log).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { buildCli } from '../commands/helpers';
import type { OnFinished } from '../sandbox/helpers';

let bin: string;
beforeAll(async () => {
  bin = await buildCli();
}, 120_000);

/** A service that holds every request unanswered; `arrived` resolves once one has come whole. */
async function holdingEverything(onTestFinished: OnFinished): Promise<{ baseUrl: string; arrived: Promise<void> }> {
  let arrive = (): void => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      held.push(res);
      arrive();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrived };
}

const SECRET = 'held-master-secret-never-logged';

describe.concurrent('a signal while a request is held: its line is logged, cut short (real binary)', () => {
  const cases = [
    { args: ['keys', 'list', '--sub', 'desk1'], signal: 'SIGTERM', code: 143, op: 'list_keys GET /api/v3/broker/sub-account/apiKey' },
    { args: ['keys', 'audit', '--sub', 'desk1'], signal: 'SIGHUP', code: 129, op: 'list_keys GET /api/v3/broker/sub-account/apiKey' },
    {
      args: ['keys', 'create', '--allow-risky', '--sub', 'desk1', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'held'],
      signal: 'SIGTERM',
      code: 3,
      op: 'create_key POST /api/v3/broker/sub-account/apiKey',
    },
    {
      args: ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURES', '--all'],
      signal: 'SIGINT',
      code: 130,
      op: 'list_transfers GET /api/v3/broker/sub-account/universalTransfer',
    },
    {
      args: ['sub-accounts', '--discover', '--days', '1'],
      signal: 'SIGTERM',
      code: 130,
      op: 'list_transfers GET /api/v3/broker/sub-account/universalTransfer',
    },
  ] as const;

  for (const { args, signal, code, op } of cases) {
    it(`${args.slice(0, 2).join(' ')}, ${signal}: exit ${code}; one line in the log and one debug line, "status=none ok=false … cancelled"`, async ({
      expect,
      onTestFinished,
    }) => {
      const home = mkdtempSync(join(tmpdir(), 'bc-signal-log-'));
      onTestFinished(() => rmSync(home, { recursive: true, force: true }));
      const holding = await holdingEverything(onTestFinished);
      const log = join(home, 'requests.log');
      const child = spawn(process.execPath, [bin, ...args, '--log-file', log, '--verbose'], {
        env: {
          PATH: process.env.PATH ?? '',
          TZ: 'UTC',
          BROKER_CONSOLE_HOME: home,
          BROKER_BASE_URL: holding.baseUrl,
          BROKER_API_KEY: 'mx0vheldheldheld',
          BROKER_API_SECRET: SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const err: Buffer[] = [];
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.stdout.resume();
      void holding.arrived.then(() => child.kill(signal));
      const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      const stderr = Buffer.concat(err).toString('utf8');
      expect(exit, stderr).toBe(code);
      const line = new RegExp(`^\\S+ op=${op} status=none ok=false latency=\\d+ms attempt=1 (signed=query )?cancelled key=mx0v…held$`);
      const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(line);
      const debug = stderr.split('\n').filter((l) => l.startsWith('debug: '));
      expect(debug).toHaveLength(1);
      expect(debug[0]!.slice('debug: '.length)).toMatch(line);
      expect(readFileSync(log, 'utf8')).not.toContain(SECRET);
      expect(stderr).not.toContain(SECRET);
    }, 30_000);
  }
});
