// An all-pages export in the real console (tmux, the built binary) against a slow history that never ends,
// stopped every way it can be: esc at random moments (the console carries on), ctrl+c, SIGTERM, SIGHUP and
// SIGKILL. Afterwards no file has the complete name, and any file left says "-incomplete" and is a valid
// document (a closed JSON array, whole CSV rows).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExpectStatic, afterAll, beforeAll, describe, it } from 'vitest';
import { CSV_FIELDS } from '../../src/export/transferWriters';
import type { RunningSandbox } from '../../src/sandbox/types';
import { buildCli, sandboxEnv } from '../commands/helpers';
import { wireTransferJson } from '../export/pagingServers';
import { TmuxSession, tmuxAvailable } from './tmux';
import { ownSandbox } from '../sandbox/helpers';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e export-ends test: ${missing}`);

let bin = '';
let root = '';
let sandbox: RunningSandbox | undefined;
/** The slow histories by page delay: 80 ms, and 0 ms for the esc test, where writing is the work. */
const slow = new Map<number, { server: Server; url: string }>();
const sessions: TmuxSession[] = [];

/** The sandbox, but the transfer history is endless full pages, each after pageDelayMs. */
async function startSlowHistory(target: RunningSandbox, pageDelayMs: number): Promise<void> {
  const upstream = new URL(target.baseUrl);
  // Every console asks for the same pages: each body is built once.
  const bodies = new Map<string, Buffer>();
  const body = (page: number, limit: number): Buffer => {
    let built = bodies.get(`${page}:${limit}`);
    if (!built) {
      const rows = Array.from({ length: limit }, (_, i) => wireTransferJson(`p${page}-${i}`, 1_763_726_400_000 - page * 1000 - i));
      bodies.set(`${page}:${limit}`, (built = Buffer.from(`[${rows.join(',')}]`)));
    }
    return built;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.endsWith('/universalTransfer')) {
      const page = body(Number(url.searchParams.get('page') ?? '1'), Number(url.searchParams.get('limit') ?? '500'));
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(page), pageDelayMs);
      return;
    }
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  slow.set(pageDelayMs, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

beforeAll(async () => {
  if (missing) return;
  bin = await buildCli();
  root = mkdtempSync(join(tmpdir(), 'bc-e2e-export-'));
  sandbox = await ownSandbox({ seed: 7 });
  await Promise.all([startSlowHistory(sandbox, 80), startSlowHistory(sandbox, 0)]);
});

afterAll(async () => {
  for (const s of sessions) s.kill();
  for (const { server } of slow.values()) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

type Format = 'csv' | 'json';

/** A console in a folder of its own, on a page of transfer results (history pages every `pageDelayMs`); the folder and the console's pid. */
async function consoleAtResults(label: string, pageDelayMs: number): Promise<{ s: TmuxSession; folder: string; pid: number }> {
  const folder = mkdtempSync(join(root, `${label}-`));
  const pidFile = join(folder, 'pid');
  const s = TmuxSession.console(`sh -c 'echo $$ > ${pidFile}; exec node ${bin}'; echo EXIT=$?; sleep 600`, folder, {
    columns: 100,
    rows: 30,
    env: { ...sandboxEnv(sandbox!), BROKER_BASE_URL: slow.get(pageDelayMs)!.url, TZ: 'UTC' },
  });
  sessions.push(s);
  await s.waitFor('Choose a sub-account', 15_000);
  // Straight to the transfers: no sub-account's keys to load on the way.
  await s.keys('C-t');
  await s.waitFor('Universal transfers: filter');
  await s.keys('Enter');
  await s.waitFor(/Page 1 · 500 per page · 500 rows/);
  return { s, folder, pid: Number(readFileSync(pidFile, 'utf8').trim()) };
}

/** From the results page: an all-pages export in `format`, running. */
async function startExport(s: TmuxSession, format: Format): Promise<void> {
  await s.keys('x');
  await s.waitFor('Export transfers');
  await s.keys('a');
  if (format === 'json') await s.keys('f');
  await s.keys('Enter');
  await s.waitFor(`Exporting all pages as ${format === 'csv' ? 'CSV' : 'JSON'}`);
}

/** A console in a folder of its own, an all-pages export in `format` running; the folder and the console's pid. */
async function exportRunning(format: Format, label: string): Promise<{ s: TmuxSession; folder: string; pid: number }> {
  const started = await consoleAtResults(label, 80);
  await startExport(started.s, format);
  return started;
}

/** The export files left in the folder, each checked (with the test's own expect): never the complete name, and a valid document. */
function checkLeftovers(expect: ExpectStatic, folder: string, format: Format): string[] {
  const files = readdirSync(folder).filter((f) => f.startsWith('transfers-'));
  for (const file of files) {
    expect(file).toMatch(new RegExp(`^transfers-\\S+-all-incomplete\\.${format}$`));
    const text = readFileSync(join(folder, file), 'utf8');
    if (format === 'json') {
      const rows = JSON.parse(text) as unknown[];
      expect(Array.isArray(rows)).toBe(true);
    } else {
      expect(text.endsWith('\r\n')).toBe(true);
      const records = text.slice(0, -2).split('\r\n');
      expect(records[0]).toBe(CSV_FIELDS.join(','));
      for (const record of records) expect(record.split(',')).toHaveLength(CSV_FIELDS.length);
    }
  }
  return files;
}

// Every case has its own console and folder, and mostly waits for pages: they all run at once.
describe.skipIf(missing !== undefined).concurrent('an all-pages export stopped every way (tmux, the built binary)', () => {
  it.for<[number, 'C-c' | 'q']>([
    [80, 'C-c'],
    [0, 'q'],
  ])(
    'esc at random moments (pages every %i ms), in a CSV then a JSON export: the console carries on, and no partial file is left; then %s',
    { timeout: 120_000 },
    async ([delay, ending], { expect }) => {
      // Two exports in one console: the second starts from where the first one's cancel left it.
      const { s, folder } = await consoleAtResults(`esc-${delay}`, delay);
      for (const format of ['csv', 'json'] as const) {
        await startExport(s, format);
        // Anywhere in the first pages: before the first one came, while one is written, or between two.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
        await s.keys('Escape');
        await s.waitFor('Export cancelled: the partial file was removed');
        expect(checkLeftovers(expect, folder, format)).toEqual([]);
        // Alive: the panel closes and the results are there.
        await s.keys('Enter');
        await s.waitFor((screen) => !screen.includes('Export transfers') && /Page 1 · /.test(screen));
      }
      if (ending === 'q') {
        // q then quits cleanly.
        await s.keys('q');
        const end = await s.waitFor('EXIT=');
        expect(end).toContain('EXIT=0');
      } else {
        // ctrl+c during a JSON export, pages in: the console exits 130, and the partial file is removed.
        await startExport(s, 'json');
        await s.waitFor(/([3-9]|\d\d+) pages · /);
        await s.keys('C-c');
        const end = await s.waitFor('EXIT=');
        expect(end).toContain('EXIT=130');
        expect(checkLeftovers(expect, folder, 'json')).toEqual([]);
      }
      s.kill();
    },
  );

  it.for<[NodeJS.Signals, Format, string]>([
    ['SIGTERM', 'csv', 'EXIT=143'],
    ['SIGHUP', 'json', 'EXIT=129'],
  ])(
    '%s during a %s export: the console exits as it should, and the partial file is removed',
    { timeout: 60_000 },
    async ([signal, format, exit], { expect }) => {
      const { s, folder, pid } = await exportRunning(format, `${signal}-${format}`);
      await s.waitFor(/([3-9]|\d\d+) pages · /);
      process.kill(pid, signal);
      const end = await s.waitFor('EXIT=');
      expect(end).toContain(exit);
      // The shell's screen is as it was: the console's last frame stayed on the alternate screen.
      expect(end).not.toContain('Export transfers');
      expect(end).not.toContain('esc cancels');
      expect(checkLeftovers(expect, folder, format)).toEqual([]);
      s.kill();
    },
  );

  it.for<Format>(['csv', 'json'])(
    'SIGKILL during a %s export: the file left says -incomplete and is a valid document',
    { timeout: 60_000 },
    async (format, { expect }) => {
      const { s, folder, pid } = await exportRunning(format, `kill-${format}`);
      await s.waitFor(/([3-9]|\d\d+) pages · /);
      process.kill(pid, 'SIGKILL');
      const end = await s.waitFor('EXIT=');
      expect(end).toContain('EXIT=137');
      const left = checkLeftovers(expect, folder, format);
      expect(left).toHaveLength(1);
      const text = readFileSync(join(folder, left[0]!), 'utf8');
      // Pages of 500 were written before the kill: more than the header or an empty array.
      expect(text.length).toBeGreaterThan(10_000);
      s.kill();
    },
  );
});
