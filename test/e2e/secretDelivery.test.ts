// `keys create` in the real binary under the faults operators meet: the reader of stdout gone, a full device, a
// closed stdout, a signal while the POST is held by the service, an audit append on a nearly full disk. The
// created secret is never printed by these tests: only its presence is checked.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExpectStatic, afterAll, beforeAll, describe, it } from 'vitest';
import { readAuditTrail } from '../../src/config/auditTrail';
import type { RunningSandbox } from '../../src/sandbox/types';
import { mountFullDisk } from '../config/fullDisk';
import { buildCli, sandboxEnv } from '../commands/helpers';
import { KEYS_PATH, type OnFinished, call, ownSandbox } from '../sandbox/helpers';

const SUB = 'mmbot5143';
const ARGS = ['keys', 'create', '--allow-risky', '--sub', SUB, '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'delivery'];
const NOT_DELIVERED =
  /^error: key (mx0v[0-9a-f]+) was created but its secret could not be written \((.+)\); nobody has its secret: delete this key in the service's web console, then create another$/m;

let sandbox: RunningSandbox;
let bin: string;
/** A home of the test's own, removed when it ends (the tests run at once). */
const tempFolder = (onTestFinished: OnFinished): string => {
  const f = mkdtempSync(join(tmpdir(), 'bc-delivery-'));
  onTestFinished(() => rmSync(f, { recursive: true, force: true }));
  return f;
};

beforeAll(async () => {
  [sandbox, bin] = await Promise.all([ownSandbox({ rateLimit: { max: 100_000, windowMs: 1000 } }), buildCli()]);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function env(home: string, target: Record<string, string> = sandboxEnv(sandbox)): Record<string, string> {
  return { PATH: process.env.PATH ?? '', TZ: 'UTC', BROKER_CONSOLE_HOME: home, ...target };
}

/** Runs `command` (argv or a shell line) with this stdout; stderr captured. */
function run(
  command: readonly string[],
  environment: Record<string, string>,
  stdout: 'pipe' | 'ignore' | number,
  onStart?: (pid: number, closeStdout: () => void) => void,
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { env: environment, stdio: ['ignore', stdout, 'pipe'] });
    const err: Buffer[] = [];
    child.stderr!.on('data', (c: Buffer) => err.push(c));
    child.stdout?.on('data', () => undefined);
    child.on('error', reject);
    onStart?.(child.pid!, () => child.stdout?.destroy());
    child.on('close', (code, signal) => resolve({ code, signal, stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** The API keys the sandbox lists for the sub-account, asked with our own signed request. */
async function listedKeys(): Promise<string[]> {
  const answer = await call(sandbox, { path: KEYS_PATH, params: [['subAccount', SUB]] });
  return ((answer.json as { subAccount: { apikey?: string; apiKey?: string }[] }).subAccount ?? []).map((k) => k.apikey ?? k.apiKey ?? '');
}

/** `keys create` with a note of the case's own (the sandbox is shared). */
const argsWithNote = (note: string): string[] => [...ARGS.slice(0, -1), note];

/** The notes of the keys the sandbox lists for the sub-account, asked with our own signed request. */
async function listedNotes(): Promise<string[]> {
  const answer = await call(sandbox, { path: KEYS_PATH, params: [['subAccount', SUB]] });
  return ((answer.json as { subAccount: { note?: string }[] }).subAccount ?? []).map((k) => k.note ?? '');
}

/** The created key named on stderr exists in the sandbox, and the trail says its secret was not delivered. */
async function expectLostSecretOnRecord(expect: ExpectStatic, home: string, exit: Exit, why: RegExp): Promise<void> {
  expect(exit.code, exit.stderr).toBe(5);
  const named = NOT_DELIVERED.exec(exit.stderr);
  expect(named, exit.stderr).not.toBeNull();
  expect(named![2]).toMatch(why);
  expect(exit.stderr).not.toContain('shown only this once');
  const apiKey = named![1]!;
  expect(await listedKeys()).toContain(apiKey);
  const { entries, skipped } = await readAuditTrail(home);
  expect(skipped).toBe(0);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ outcome: 'created', secret: 'not-delivered', apiKey: `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}` });
}

// Each case runs the binary with a home of its own, and the sandbox is only added to: they run at once.
describe.concurrent('keys create: the secret is written or the failure is loud (real binary)', () => {
  it('a pipe whose reader quits (| false): exit 5, the key named, on record as not delivered', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const codeFile = join(home, 'code');
    const exit = await run(['sh', '-c', `{ "$0" "$@"; echo $? > ${codeFile}; } | false`, process.execPath, bin, ...ARGS], env(home), 'ignore');
    await expectLostSecretOnRecord(expect, home, { ...exit, code: Number(readFileSync(codeFile, 'utf8').trim()) }, /^EPIPE$/);
  }, 30_000);

  it.for<[string, string]>([
    ['/dev/full', 'stdout is /dev/full, where every write fails'],
    ['/dev/zero', 'stdout is closed or /dev/zero, which keeps nothing'],
    ['/dev/null', 'stdout is closed or /dev/null, which keeps nothing'],
  ])('stdout on %s: refused before anything is sent (exit 2), nothing on record', { timeout: 30_000 }, async ([device, why], { expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const note = `never-${device.slice(5)}`;
    const fd = openSync(device, 'w');
    try {
      const exit = await run([process.execPath, bin, ...argsWithNote(note)], env(home), fd);
      expect(exit.code, exit.stderr).toBe(2);
      expect(exit.stderr).toBe(`error: ${why}: the new key's secret would be lost — nothing was sent (send stdout to a file, a pipe or a terminal)\n`);
    } finally {
      closeSync(fd);
    }
    expect(await listedNotes()).not.toContain(note);
    expect((await readAuditTrail(home)).entries).toEqual([]);
  });

  it('stdout closed (>&-): refused before anything is sent, not a silent success', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const exit = await run(['sh', '-c', 'exec "$0" "$@" >&-', process.execPath, bin, ...argsWithNote('never-closed')], env(home), 'ignore');
    expect(exit.code, exit.stderr).toBe(2);
    expect(exit.stderr).toMatch(/^error: stdout is closed or \/dev\/null, which keeps nothing: the new key's secret would be lost — nothing was sent/);
    expect(await listedNotes()).not.toContain('never-closed');
  }, 30_000);

  it('audit.jsonl a symbolic link: the link is not followed, the warning says why, and the key is delivered', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const elsewhere = join(home, 'elsewhere.txt');
    writeFileSync(elsewhere, 'not a trail\n');
    symlinkSync(elsewhere, join(home, 'audit.jsonl'));
    const exit = await run([process.execPath, bin, ...argsWithNote('via a link')], env(home), 'pipe');
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stderr).toContain(
      `warning: the audit trail (${home}/audit.jsonl) could not be written (it is a symbolic link): this attempt is not (wholly) in it`,
    );
    expect(readFileSync(elsewhere, 'utf8')).toBe('not a trail\n');
    expect(await listedNotes()).toContain('via a link');
  }, 30_000);

  it('the reader closes its end before the answer: exit 5', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const exit = await run([process.execPath, bin, ...ARGS], env(home), 'pipe', (_pid, closeStdout) => closeStdout());
    await expectLostSecretOnRecord(expect, home, exit, /^EPIPE$/);
  }, 30_000);

  it('stderr on /dev/full, or to a reader that quit: the secret reached stdout, so exit 0, never 1', async ({ expect, onTestFinished }) => {
    for (const shape of ['"$0" "$@" >"$OUT" 2>/dev/full; echo $? >"$CODE"', '{ "$0" "$@" 2>&1 >"$OUT"; echo $? >"$CODE"; } | false']) {
      const home = tempFolder(onTestFinished);
      const [saved, codeFile] = [join(home, 'created.json'), join(home, 'code')];
      await run(['sh', '-c', shape, process.execPath, bin, ...ARGS, '--json'], { ...env(home), OUT: saved, CODE: codeFile }, 'ignore');
      expect(Number(readFileSync(codeFile, 'utf8').trim()), shape).toBe(0);
      const printed = JSON.parse(readFileSync(saved, 'utf8')) as { apiKey: string; secretKey: string };
      expect(printed.secretKey, shape).toMatch(/^[0-9a-f]{64}$/);
      expect(await listedKeys(), shape).toContain(printed.apiKey);
      const { entries } = await readAuditTrail(home);
      expect(entries, shape).toEqual([expect.objectContaining({ outcome: 'created' })]);
    }
  }, 30_000);

  /**
   * `keys create` with stdout a named pipe held open for reading (so no EPIPE) and filled: its write waits, never
   * taken, until `drainAfterMs` after the signals (then the pipe is read, and what came after the filling is kept).
   */
  async function createIntoFullPipe(
    home: string,
    signals: NodeJS.Signals | NodeJS.Signals[],
    onTestFinished: OnFinished,
    drainAfterMs?: number,
  ): Promise<Exit & { read: string }> {
    const fifo = join(home, 'stuck');
    execFileSync('mkfifo', [fifo]);
    // Non-blocking, so filling it ends at EAGAIN instead of waiting here.
    const held = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    let open = true;
    const release = (): void => {
      if (open) closeSync(held);
      open = false;
    };
    onTestFinished(release);
    for (let filled = 0; filled < 1 << 20; filled += 4096) {
      try {
        writeSync(held, Buffer.alloc(4096, 0x78));
      } catch {
        break;
      }
    }
    // The reader that comes later is a process of its own: the binary may make the pipe blocking, and a read
    // here would then hold this worker.
    const readFile = join(home, 'read');
    // Started now and held on its stdin, so that on a loaded machine its start does not eat the binary's grace.
    const gate =
      drainAfterMs === undefined ? undefined : spawn('sh', ['-c', 'read go; exec cat "$0" > "$1"', fifo, readFile], { stdio: ['pipe', 'ignore', 'ignore'] });
    const reader = gate && new Promise((resolve) => gate.on('close', resolve));
    onTestFinished(() => void gate?.kill());
    const exit = await run([process.execPath, bin, ...ARGS, '--json'], env(home), held, (pid) => {
      void (async () => {
        // Created (its line in the trail) and waiting on the pipe: then the signals.
        for (let i = 0; i < 200; i += 1) {
          const { entries } = await readAuditTrail(home).catch(() => ({ entries: [] }));
          if (entries.some((e) => e.outcome === 'created')) break;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        for (const [i, signal] of [signals].flat().entries()) {
          // A moment apart, as two ^C are: two signals at once would be one to the process.
          if (i > 0) await new Promise((resolve) => setTimeout(resolve, 30));
          process.kill(pid, signal);
        }
        if (gate === undefined) return;
        await new Promise((resolve) => setTimeout(resolve, drainAfterMs));
        gate.stdin?.end('go\n');
      })();
    });
    // The last writer gone, the reader meets the end of the pipe. A reader never let go (the binary ended first)
    // would block opening a pipe with no writer: it is ended instead, and the test fails on what it did not read.
    release();
    if (gate?.stdin && !gate.stdin.writableEnded) gate.kill();
    else if (gate) setTimeout(() => gate.kill(), 5000).unref();
    await reader;
    return { ...exit, read: reader ? readFileSync(readFile, 'latin1').replace(/^x+/, '') : '' };
  }

  it('a reader that does not read (a full pipe), then SIGTERM: exit 5, and the trail says not delivered, not created', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const exit = await createIntoFullPipe(home, 'SIGTERM', onTestFinished);
    await expectLostSecretOnRecord(expect, home, exit, /^SIGTERM before it was written$/);
  }, 30_000);

  it('the same, then SIGINT twice at once (^C ^C): still exit 5, the key named once, on record as not delivered', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const exit = await createIntoFullPipe(home, ['SIGINT', 'SIGINT'], onTestFinished);
    await expectLostSecretOnRecord(expect, home, exit, /^SIGINT before it was written$/);
    expect(exit.stderr.match(new RegExp(NOT_DELIVERED.source, 'gm')), exit.stderr).toHaveLength(1);
  }, 30_000);

  it('the same, then SIGQUIT (^\\): exit 5 and the key named, as for SIGTERM (no core dump of the secret)', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const exit = await createIntoFullPipe(home, 'SIGQUIT', onTestFinished);
    expect(exit.signal).toBeNull();
    await expectLostSecretOnRecord(expect, home, exit, /^SIGQUIT before it was written$/);
  }, 30_000);

  it('SIGTERM while the secret waits, then the reader reads at once: exit 0, the secret delivered, the trail says created', async ({
    expect,
    onTestFinished,
  }) => {
    const home = tempFolder(onTestFinished);
    const exit = await createIntoFullPipe(home, 'SIGTERM', onTestFinished, 150);
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stderr).not.toMatch(NOT_DELIVERED);
    const printed = JSON.parse(exit.read) as { apiKey: string; secretKey: string };
    expect(printed.secretKey).toMatch(/^[0-9a-f]{64}$/);
    const { entries } = await readAuditTrail(home);
    expect(entries).toEqual([expect.objectContaining({ outcome: 'created' })]);
    expect(entries[0]!.secret).toBeUndefined();
  }, 30_000);

  it('the same, then SIGKILL: nothing can be said, but the trail already says not delivered', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const exit = await createIntoFullPipe(home, 'SIGKILL', onTestFinished);
    expect(exit.signal).toBe('SIGKILL');
    const { entries } = await readAuditTrail(home);
    expect(entries).toEqual([
      expect.objectContaining({
        outcome: 'created',
        secret: 'not-delivered',
        reason: 'created, secret not delivered: the command ended before its secret was written to stdout',
      }),
    ]);
  }, 30_000);

  it('a reader that stays: exit 0, the secret on stdout, the trail says created', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const out: Buffer[] = [];
    const exit = await new Promise<Exit>((resolve) => {
      const child = spawn(process.execPath, [bin, ...ARGS, '--json'], { env: env(home), stdio: ['ignore', 'pipe', 'pipe'] });
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('close', (code, signal) => resolve({ code, signal, stderr: Buffer.concat(err).toString('utf8') }));
    });
    expect(exit.code, exit.stderr).toBe(0);
    const printed = JSON.parse(Buffer.concat(out).toString('utf8')) as { apiKey: string; secretKey: string };
    expect(await listedKeys()).toContain(printed.apiKey);
    expect(printed.secretKey).toMatch(/^[0-9a-f]{64}$/);
    const { entries } = await readAuditTrail(home);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'created' });
    expect(entries[0]!.secret).toBeUndefined();
  }, 30_000);
});

/** A service that takes the create's POST and never answers it; `posted` resolves once the POST's body is in. */
async function holdingServer(): Promise<{ baseUrl: string; posted: () => Promise<void>; close(): Promise<void> }> {
  let arrived = (): void => undefined;
  let arrival = new Promise<void>((resolve) => (arrived = resolve));
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') {
        held.push(res);
        arrived();
      } else res.end('[]');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    posted: async () => {
      await arrival;
      arrival = new Promise<void>((resolve) => (arrived = resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Each case has its own holding service (its POST is the one awaited): they run at once.
describe.concurrent('keys create: a signal while the POST is in flight (real binary)', () => {
  /** A holding service of the test's own, closed when it ends. */
  const ownHolding = async (onTestFinished: OnFinished): Promise<Awaited<ReturnType<typeof holdingServer>>> => {
    const holding = await holdingServer();
    onTestFinished(() => holding.close());
    return holding;
  };
  const target = (holding: { baseUrl: string }): Record<string, string> => ({
    BROKER_BASE_URL: holding.baseUrl,
    BROKER_API_KEY: 'mx0vheldheldheld',
    BROKER_API_SECRET: 'held-master-secret',
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal}: the unknown-outcome warning, exit 3, the attempt on record as unknown`, async ({ expect, onTestFinished }) => {
      const home = tempFolder(onTestFinished);
      const holding = await ownHolding(onTestFinished);
      const exit = await run([process.execPath, bin, ...ARGS], env(home, target(holding)), 'pipe', (pid) => {
        void holding.posted().then(() => process.kill(pid, signal));
      });
      expect(exit.code).toBe(3);
      expect(exit.stderr).toContain(
        `error: ${signal} while the create request was in flight: the key may exist: check with \`broker-console keys list --base-url ${holding.baseUrl} --sub ${SUB}\``,
      );
      const { entries } = await readAuditTrail(home);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ outcome: 'unknown', subAccount: SUB, note: 'delivery' });
    }, 30_000);
  }

  it('SIGINT while a proxy holds the tunnel, before a byte of the create left: nothing sent, exit 130, nothing on record', async ({
    expect,
    onTestFinished,
  }) => {
    const home = tempFolder(onTestFinished);
    // A proxy that takes the CONNECT and never answers it: the create is not yet written anywhere.
    let tunnelAsked = (): void => undefined;
    const asked = new Promise<void>((resolve) => (tunnelAsked = resolve));
    const tunnels: Socket[] = [];
    const proxy = createServer(() => undefined).on('connect', (_req, socket: Socket) => {
      tunnels.push(socket);
      tunnelAsked();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of tunnels) socket.destroy();
          proxy.close(() => resolve());
        }),
    );
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const exit = await run(
      [process.execPath, bin, '--proxy', proxyUrl, ...ARGS],
      env(home, { ...target({ baseUrl: 'https://127.0.0.1:9' }) }),
      'pipe',
      (pid) => {
        void asked.then(() => process.kill(pid, 'SIGINT'));
      },
    );
    expect(exit.code, exit.stderr).toBe(130);
    expect(exit.stderr).toContain('error: SIGINT before the create request was sent: nothing was sent, no key was created');
    expect(exit.stderr).not.toContain('may exist');
    const { entries } = await readAuditTrail(home);
    expect(entries).toEqual([]);
  }, 30_000);

  it('SIGKILL: nothing can be said, but the attempt recorded before the POST left stays, as unknown', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const holding = await ownHolding(onTestFinished);
    const exit = await run([process.execPath, bin, ...ARGS], env(home, target(holding)), 'pipe', (pid) => {
      void holding.posted().then(() => process.kill(pid, 'SIGKILL'));
    });
    expect(exit.signal).toBe('SIGKILL');
    const { entries } = await readAuditTrail(home);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'unknown', subAccount: SUB });
    expect(entries[0]!.reason).toMatch(/ended before the answer came/);
  }, 30_000);

  it('another terminal, while the POST is out: the attempt is in progress (its pid), not ended; once killed, unknown', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const holding = await ownHolding(onTestFinished);
    let pid = 0;
    let seen: { code: number | null; reasons: string[] } | undefined;
    const audit = (): { code: number | null; reasons: string[] } => {
      try {
        const out = execFileSync(process.execPath, [bin, 'audit', '--json'], { env: env(home), encoding: 'utf8' });
        return { code: 0, reasons: (JSON.parse(out) as { reason: string | null }[]).map((e) => e.reason ?? '') };
      } catch (error) {
        return { code: (error as { status?: number }).status ?? null, reasons: [] };
      }
    };
    const exit = await run([process.execPath, bin, ...ARGS], env(home, target(holding)), 'pipe', (started) => {
      pid = started;
      void holding.posted().then(() => {
        seen = audit();
        process.kill(started, 'SIGKILL');
      });
    });
    expect(exit.signal).toBe('SIGKILL');
    expect(seen).toEqual({ code: 0, reasons: [`in progress: broker-console (pid ${pid}) is still waiting for the service's answer`] });
    expect(audit().reasons).toEqual(['sent; the command ended before the answer came (interrupted or killed): the key may exist']);
  }, 30_000);
});

const disk = mountFullDisk(64);
if (!disk.ok) console.warn(`SKIPPED audit short-write test: ${disk.reason}`);
// At the file's level, not the describe's: a run that filters out every test below would skip a describe's.
afterAll(() => {
  if (disk.ok) disk.disk.unmount();
});

describe.skipIf(!disk.ok)('a nearly full disk: an audit append, and stdout a file (real binary, 64 KiB tmpfs)', () => {
  it('a line that does not fit is cut back and said; once space is back the next line is whole and nothing is skipped', async ({ expect }) => {
    if (!disk.ok) return;
    const home = join(disk.disk.dir, 'home');
    // A trail whose last page has 60 bytes left: a line (~300 bytes) gets only part of itself written.
    const entry = (note: string): string =>
      `${JSON.stringify({ time: '2026-01-01T00:00:00.000Z', profile: 'p', host: 'h', subAccount: SUB, permissions: [], ips: [], note, outcome: 'refused' })}\n`;
    const total = 4096 - 60;
    let trail = '';
    while (trail.length + 2 * entry('x'.repeat(50)).length <= total) trail += entry('x'.repeat(50));
    trail += entry('y'.repeat(total - trail.length - entry('').length));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(home, 'audit.jsonl'), trail, { mode: 0o600 });
    const before = statSync(join(home, 'audit.jsonl')).size;
    expect(4096 - before).toBeGreaterThan(0);
    expect(4096 - before).toBeLessThan(200);
    disk.disk.fill();

    const out: Buffer[] = [];
    const exit = await new Promise<Exit>((resolve) => {
      const child = spawn(process.execPath, [bin, ...ARGS], { env: env(home), stdio: ['ignore', 'pipe', 'pipe'] });
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('close', (code, signal) => resolve({ code, signal, stderr: Buffer.concat(err).toString('utf8') }));
    });
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain(`warning: the audit trail (${home}/audit.jsonl) could not be written (only 60 of `);
    expect(readFileSync(join(home, 'audit.jsonl'), 'utf8')).toBe(trail);

    disk.disk.free();
    const again = await run([process.execPath, bin, ...ARGS], env(home), 'pipe');
    expect(again.code).toBe(0);
    const { entries, skipped } = await readAuditTrail(home);
    expect(skipped).toBe(0);
    expect(entries.at(-1)).toMatchObject({ outcome: 'created', note: 'delivery' });
  }, 60_000);

  /** A file on the disk with `left` bytes of its last page free, the disk then filled: a write gets only part of itself in. */
  const nearlyFullFile = (name: string, left: number): string => {
    if (!disk.ok) throw new Error('no disk');
    // An empty disk first: what an earlier run left there (a trail, a compile cache) is gone.
    for (const entry of readdirSync(disk.disk.dir)) rmSync(join(disk.disk.dir, entry), { recursive: true, force: true });
    const path = join(disk.disk.dir, name);
    writeFileSync(path, 'x'.repeat(4096 - left));
    disk.disk.fill();
    return path;
  };

  // 200 bytes left hold the table's or the CSV's whole secret line, but not all of the answer.
  for (const [format, left] of [
    ['json', 60],
    ['table', 200],
    ['csv', 200],
  ] as const) {
    it(`stdout a ${format} file with ${left} bytes left: exit 5, ENOSPC, not delivered, and the file cut back: no part of the secret left`, async ({
      expect,
      onTestFinished,
    }) => {
      const home = tempFolder(onTestFinished);
      const path = nearlyFullFile('secrets.txt', left);
      const fd = openSync(path, 'a');
      let exit: Exit;
      try {
        exit = await run([process.execPath, bin, ...ARGS, '--format', format], env(home), fd);
      } finally {
        closeSync(fd);
      }
      await expectLostSecretOnRecord(expect, home, exit, /^ENOSPC$/);
      // Cut back to what it held: no part of the secret is left in a file stderr says got nothing.
      expect(readFileSync(path, 'utf8')).toBe('x'.repeat(4096 - left));
    }, 30_000);
  }

  it('stdout a file with 60 bytes left: a key list cut short is exit 1 and says so, never exit 0', async ({ expect, onTestFinished }) => {
    const home = tempFolder(onTestFinished);
    const path = nearlyFullFile('keys.json', 60);
    const fd = openSync(path, 'a');
    let exit: Exit;
    try {
      exit = await run([process.execPath, bin, 'keys', 'list', '--sub', SUB, '--json'], env(home), fd);
    } finally {
      closeSync(fd);
    }
    expect(exit.code, exit.stderr).toBe(1);
    expect(exit.stderr).toBe('error: could not write the output to stdout: no space left on device\n');
  }, 30_000);
});
