// The terminal's edges in a real terminal (tmux): keys that arrive together, a bracketed paste, the secret at 50x15
// against the sandbox (compared with what the sandbox sent), every way out of the secret, a hostile service
// with tmux's set-clipboard on, CI and NO_COLOR on a terminal, and a window below 40x12.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../commands/hostile';
import { buildCli, runBuiltCli } from '../commands/helpers';
import { readAuditTrail } from '../../src/config/auditTrail';
import { TmuxSession, createKeyFromList, sleep, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e edges tests: ${missing}`);

let bin = '';
let folder = '';

/** A test's own cleanup (its context's onTestFinished): the tests run concurrently, each with its own tmux server. */
type OnFinished = (fn: () => Promise<void> | void) => void;

/** A session killed when its test ends. */
function owned(onFinished: OnFinished, session: TmuxSession): TmuxSession {
  onFinished(() => session.kill());
  return session;
}

/** The console (built bundle) in tmux, alone in the pane; its own config folder. */
function startConsole(
  onFinished: OnFinished,
  args: string,
  opts: { columns?: number; rows?: number; env?: Record<string, string>; home: string },
): TmuxSession {
  return owned(onFinished, TmuxSession.console(`node ${bin} ${args}; sleep 600`, folder, opts));
}

/** The screen's lines, trailing spaces removed. */
function lines(screen: string): string[] {
  return screen
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => l.trimEnd());
}

/** Index (0-based) of the key-list row marked › under the table header. */
function selectedKeyRow(screen: string): number {
  const all = lines(screen);
  const header = all.findIndex((l) => /NOTE\s+API KEY/.test(l));
  expect(header).toBeGreaterThanOrEqual(0);
  const marked = all.findIndex((l, i) => i > header && l.startsWith('›'));
  return marked < 0 ? -1 : marked - header - 1;
}

/** Create-form field value as shown: the text between the label and the end of the line (or the counter). */
function fieldLine(screen: string, label: string): string | undefined {
  return lines(screen).find((l) => l.startsWith(`› ${label}`));
}

beforeAll(async () => {
  if (missing) return;
  bin = await buildCli();
  folder = mkdtempSync(join(tmpdir(), 'bc-e2e-edges-'));
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

// Every test has its own tmux server, console, config folder and services, and mostly waits on the terminal:
// the blocks below run concurrently (describe.concurrent), overlapping those waits; the secret's, last, alone.
describe.skipIf(missing !== undefined).concurrent('keys that arrive together, and a bracketed paste (demo, 80x24)', () => {
  it('a name and Enter typed while the console is still starting open it (Enter is not lost as a line feed); then name + Enter in one write opens it; jj in one write moves two rows; Tab Tab in one write; a paste is text', async ({
    onTestFinished,
  }) => {
    const s = startConsole(onTestFinished, '--demo', { home: 'chunked' });
    // Typed before node has even started: the terminal still reads lines and turns the Enter into a line feed.
    await s.write('gridbot2901\r');
    let screen = await s.waitFor(/API keys of gridbot2901 · \d+ keys/);
    expect(selectedKeyRow(screen)).toBe(0);
    // Back to the picker, its field empty.
    await s.keys('Escape');
    await s.waitFor('Choose a sub-account');
    if (!s.screen().includes('Sub-account: type a name')) await s.keys('Escape');
    await s.waitFor('Sub-account: type a name');

    // The name and Enter in ONE write, the console running: the Enter is not dropped.
    await s.write('gridbot2901\r');
    screen = await s.waitFor(/API keys of gridbot2901 · \d+ keys/);
    expect(selectedKeyRow(screen)).toBe(0);

    // jj in one write: two moves down, not "jj" typed anywhere.
    await s.write('jj');
    screen = await s.waitFor((x) => selectedKeyRow(x) === 2);
    expect(screen).not.toContain('jj');

    await s.write('n');
    await s.waitFor('New API key for gridbot2901');
    // Tab Tab in one write: from the checklist past Other to Linked IPs.
    await s.write('\t\t');
    await s.waitFor('› Linked IPs');

    // A bracketed paste of an IP list: the field holds every character, exactly.
    await s.paste('203.0.113.7, 198.51.100.20');
    screen = await s.waitFor('2/4');
    expect(fieldLine(screen, 'Linked IPs')).toMatch(/^› Linked IPs {2}203\.0\.113\.7, 198\.51\.100\.20 {2,}2\/4$/);

    // A paste into the note with ? and q inside: text, not help, not quit.
    await s.write('\t');
    await s.waitFor('› Note');
    await s.paste('bot?q=1 quit q?');
    screen = await s.waitFor('› Note        bot?q=1 quit q?');
    expect(screen).toContain('New API key for gridbot2901');
    expect(screen).not.toContain('press ? or esc to close');

    // The review shows what will be sent: both IPs and the pasted note, whole.
    await s.keys('BTab', 'BTab', 'BTab');
    await s.waitFor('› Permissions');
    await s.keys('Space');
    await s.waitFor('(1 chosen');
    await s.keys('Enter');
    screen = await s.waitFor('exactly what will be sent');
    expect(screen).toMatch(/^ip\s+203\.0\.113\.7, ?198\.51\.100\.20$/m);
    expect(screen).toMatch(/^note\s+bot\?q=1 quit q\?$/m);
  }, 60_000);
});

/**
 * A proxy in front of the sandbox that keeps every create-key answer exactly as the sandbox sent it. It runs in a
 * process of its own: this one's event loop is held up by the other tests' tmux calls (synchronous), which the
 * create request must not wait behind. It prints its port, then each create answer, as JSON lines.
 */
const RECORDING_PROXY = `
const { createServer } = require('node:http');
const target = process.argv[1];
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)) headers[k] = v;
    }
    const body = Buffer.concat(chunks);
    fetch(target + (req.url ?? '/'), { method: req.method, headers, ...(body.length > 0 ? { body } : {}) })
      .then(async (upstream) => {
        const text = await upstream.text();
        if (req.method === 'POST' && (req.url ?? '').split('?')[0].endsWith('/apiKey')) process.stdout.write(JSON.stringify({ created: text }) + '\\n');
        res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
`;

async function recordingProxy(onFinished: OnFinished, target: string): Promise<{ baseUrl: string; created: string[] }> {
  const child: ChildProcess = spawn(process.execPath, ['-e', RECORDING_PROXY, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  onFinished(() => {
    child.kill('SIGTERM');
  });
  const created: string[] = [];
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the recording proxy did not start')), 15_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const line = JSON.parse(out.slice(0, end)) as { port?: number; created?: string };
        out = out.slice(end + 1);
        if (line.created !== undefined) created.push(line.created);
        if (line.port !== undefined) {
          clearTimeout(timer);
          resolve({ baseUrl: `http://127.0.0.1:${line.port}`, created });
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`the recording proxy exited ${code}`)));
  });
}

interface SandboxInfo {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  subAccounts: string[];
}

/** `broker-console sandbox --json` in the background, as an operator would run it. */
async function backgroundSandbox(onFinished: OnFinished): Promise<SandboxInfo> {
  const child: ChildProcess = spawn(process.execPath, [bin, 'sandbox', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  onFinished(() => {
    child.kill('SIGTERM');
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 15_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as SandboxInfo);
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
}

/** The lines of a value shown under its label in the narrow layout (groups of 8, wrapped), joined without spaces. */
function groupedValueAfter(screen: string, label: string): { value: string; lines: string[] } {
  const all = lines(screen);
  const at = all.indexOf(label);
  expect(at, `no "${label}" line on\n${screen}`).toBeGreaterThanOrEqual(0);
  const taken: string[] = [];
  for (const line of all.slice(at + 1)) {
    // A value line: one unbroken value, or groups separated by single spaces; the next label ends it.
    if (line === 'API key' || line === 'Secret key' || !/^[0-9A-Za-z]+( [0-9A-Za-z]+)*$/.test(line)) break;
    taken.push(line);
  }
  return { value: taken.join(' ').split(' ').join(''), lines: taken };
}

// One console meets the create form's edges in turn, then the secret it makes, then SIGTERM on another's.
describe.skipIf(missing !== undefined).concurrent('the create form, then the secret screen (demo, mmbot5143)', () => {
  it('a pasted IP list with line breaks: each break becomes ", " (a newline in a paste is not an Enter); below 40x12 it says how big it needs to be and resumes, typed text intact; ctrl+p on the secret asks "Have you stored the secret key?" and stays, y then leaves; SIGTERM on a second secret exits 143 at once, the secret not left in the scrollback, the key named on leaving and on record as not confirmed stored', async ({
    onTestFinished,
  }) => {
    const pidFile = join(folder, 'create-form.pid');
    // The inner shell writes its pid, then becomes the console (exec): that pid is the console's.
    const s = owned(
      onTestFinished,
      TmuxSession.console(`sh -c 'echo $$ > ${pidFile}; exec node ${bin} --demo'; echo EXIT=$?; sleep 600`, folder, { home: 'create-form' }),
    );
    await s.waitFor('Choose a sub-account');
    await s.type('mmbot5143');
    await s.keys('Enter');
    await s.waitFor(/API keys of mmbot5143 · \d+ keys?/);
    await s.keys('n');
    await s.waitFor('New API key for mmbot5143');
    await s.keys('Space');
    await s.waitFor('(1 chosen');
    await s.write('\t\t');
    await s.waitFor('› Linked IPs');
    // tmux sends the line feeds as CR, as a terminal does for a paste.
    await s.paste('203.0.113.7\n198.51.100.20\n');
    // The whole paste in (a part of it may show first), then a moment for an Enter it might have caused.
    let screen = await s.waitFor('2/4');
    await sleep(300);
    const after = s.screen();
    // Still the form: the line break did not submit it.
    expect(after).toContain('New API key for mmbot5143');
    expect(after).not.toContain('exactly what will be sent');
    expect(fieldLine(after, 'Linked IPs'), screen).toMatch(/^› Linked IPs {2}203\.0\.113\.7, 198\.51\.100\.20 {2,}2\/4$/);
    expect(after).not.toContain('is not an IPv4 or IPv6 address');

    // A window below 40x12, with a note typed.
    await s.keys('Tab');
    await s.waitFor('› Note');
    await s.type('kept while small');
    await s.waitFor('› Note        kept while small');
    s.resize(30, 10);
    screen = await s.waitFor((x) => x.replace(/\s+/g, ' ').includes('needs at least 40x12'));
    expect(screen.replace(/\s+/g, ' ')).toContain('The window is 30x10');
    for (const line of lines(screen)) expect([...line].length).toBeLessThanOrEqual(30);
    expect(lines(screen).length).toBeLessThanOrEqual(10);
    s.resize(80, 24);
    screen = await s.waitFor('› Note        kept while small');
    expect(screen).toContain('New API key for mmbot5143');
    expect(screen).not.toContain('needs at least');

    // ctrl+p on the secret screen.
    await s.keys('Enter');
    await s.waitFor('exactly what will be sent');
    await s.keys('Enter');
    screen = await s.waitFor('Store the secret key now');
    const apiKey = /API key\s+(\S+)/.exec(screen)![1]!;

    await s.keys('C-p');
    await s.waitFor('Have you stored the secret key?');
    await sleep(400);
    screen = s.screen();
    // Still the secret screen: the key is there, the profiles switcher is not.
    expect(screen).toContain('Store the secret key now');
    expect(screen).toContain(apiKey);
    expect(screen).toContain('Have you stored the secret key?');

    // Any other key at the prompt stays: enter (the route that lost the secret), then ctrl+p + enter in one write.
    await s.keys('Enter');
    screen = await s.waitFor((x) => !x.includes('Have you stored the secret key?'));
    expect(screen).toContain('Store the secret key now');
    expect(screen).toContain(apiKey);
    await s.write('\x10\r');
    await sleep(400);
    screen = s.screen();
    expect(screen).toContain('Store the secret key now');
    expect(screen).toContain(apiKey);

    // ctrl+p again, then y: it leaves, to where ctrl+p goes (the profiles).
    await s.keys('C-p');
    await s.waitFor('Have you stored the secret key?');
    await s.keys('y');
    screen = await s.waitFor((x) => !x.includes('Store the secret key now'));
    expect(screen).not.toContain(apiKey);
    await s.waitFor(/› Profiles\n/);

    // SIGTERM still ends the console on the secret screen (the acknowledgment guards keys, not signals), and the
    // terminal comes back as it was: a second key, its secret shown.
    await s.keys('Escape');
    await s.waitFor(/API keys of mmbot5143 · \d+ keys?/);
    await createKeyFromList(s, 'mmbot5143', 'sigterm');
    await s.keys('v');
    const shown = await s.waitFor(/Secret key\s+[0-9a-f]{16}/);
    const secret = /Secret key\s+([0-9a-f]+)/.exec(shown)![1]!;
    const sigtermKey = /API key\s+(\S+)/.exec(shown)![1]!;
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
    const ended = await s.waitFor('EXIT=');
    expect(ended).toContain('EXIT=143');
    expect(s.history()).not.toContain(secret.slice(0, 16));
    // Ended before y: said on the terminal once the screen closed, and on record as not confirmed stored.
    // The terminal wraps it at 80 columns, mid-word.
    expect(s.history().replace(/\n/g, '')).toContain(
      `key ${sigtermKey} for mmbot5143: the console closed before you confirmed its secret was stored: if you do not have the secret, delete this key`,
    );
    const { entries } = await readAuditTrail(join(folder, 'create-form'));
    const fates = entries.filter((e) => e.outcome === 'created').map((e) => [e.note, e.apiKey, e.secret ?? 'confirmed']);
    expect(fates).toEqual([
      ['kept while small', `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`, 'confirmed'],
      ['sigterm', `${sigtermKey.slice(0, 4)}…${sigtermKey.slice(-4)}`, 'unconfirmed'],
    ]);
  }, 90_000);
});

const OSC52 = '\x1b]52;c;cm0gLXJmIH4K\x07'; // "rm -rf ~" to the clipboard
const TITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J\x1b[H';
const RLO = '\u202E';
const T0 = 1_763_726_400_000;

describe.skipIf(missing !== undefined).concurrent('a hostile service, with tmux set-clipboard on', () => {
  let server: HostileServer;
  beforeAll(async () => {
    if (missing) return;
    server = await startHostileServer();
    server.keys = [
      { note: `n1${OSC52}${TITLE}`, apiKey: `mx0v${OSC52}k1`, permissions: `SPOT_ACCOUNT_READ,${TITLE}${CLEAR}`, ip: '192.0.2.1', creatTime: T0 },
      { note: `abc${RLO}txt.exe${CLEAR}`, apiKey: `mx0v${TITLE}k2`, permissions: `${OSC52}SPOT_DEAL_READ`, ip: '192.0.2.2', creatTime: T0 + 1 },
    ];
    const row = { fromAccount: 'desk', toAccount: 'desk', clientTranId: 'c', fromAccountType: 'SPOT', toAccountType: 'FUTURE', fromSymbol: '', toSymbol: '' };
    server.transfers = [
      { ...row, tranId: '1001', asset: `X${OSC52}`, amount: '1.5', status: 'SUCCESS', timestamp: T0 },
      { ...row, tranId: '1002', asset: 'USDT', amount: '2', status: `${TITLE}${RLO}x`, timestamp: T0 - 1000 },
      { ...row, tranId: '1003', asset: `B${CLEAR}`, amount: '3', status: 'SUCCESS', timestamp: T0 - 2000 },
      { ...row, tranId: '1004', asset: 'USDT', amount: '4', status: `${OSC52}`, timestamp: T0 - 3000 },
    ];
  });
  afterAll(async () => {
    await server?.close();
  });

  it('key list, key detail, an error line, transfers and totals: no clipboard write, no title change, visible marks', async ({ onTestFinished }) => {
    const s = owned(
      onTestFinished,
      TmuxSession.console('bash --norc --noprofile', folder, { columns: 160, rows: 40, home: 'hostile', env: { PS1: '$ ', ...server.env } }),
    );
    s.setOption('set-clipboard', 'on');
    await s.waitFor('$');

    // The check works: the same sequences printed by the shell do reach tmux (a buffer, a title).
    await s.type(`printf '\\033]52;c;Y29udHJvbA==\\007\\033]0;control-title\\007'`);
    await s.keys('Enter');
    await s.waitFor(() => s.title() === 'control-title');
    expect(s.buffers().join('\n')).toContain('control');
    s.deleteBuffers();
    await s.type(`printf '\\033]0;bc-before\\007'; clear`);
    await s.keys('Enter');
    await s.waitFor(() => s.title() === 'bc-before');
    expect(s.buffers()).toEqual([]);

    await s.type(`node ${bin}; echo EXIT=$?`);
    await s.keys('Enter');
    await s.waitFor('Choose a sub-account');
    await s.type('desk');
    await s.keys('Enter');

    // The key list.
    let screen = await s.waitFor(/API keys of desk · 2 keys/);
    expect(screen).toContain('␛');
    const seen: string[] = [screen];

    // The key detail of each key.
    await s.keys('Enter');
    screen = await s.waitFor((x) => x.includes('n1␛]52;c;cm0gLXJmIH4K␇'));
    seen.push(screen);
    await s.keys('Escape');
    await s.waitFor(/API keys of desk · 2 keys/);
    await s.keys('j', 'Enter');
    screen = await s.waitFor((x) => x.includes('<U+202E>txt.exe'));
    seen.push(screen);
    await s.keys('Escape');
    await s.waitFor(/API keys of desk · 2 keys/);

    // An error line whose msg is hostile.
    server.failure = { status: 400, body: JSON.stringify({ code: 700002, msg: `bad${OSC52}${TITLE}${CLEAR}${RLO}sig` }) };
    await s.keys('r');
    screen = await s.waitFor((x) => x.includes('bad␛]52'));
    seen.push(screen);
    server.failure = undefined;

    // Transfers: results and totals.
    await s.keys('C-t');
    await s.waitFor('Universal transfers: filter');
    await s.keys('Enter');
    await s.waitFor(/Page totals/);
    await sleep(300);
    screen = s.screen();
    seen.push(screen);
    expect(screen).toContain('X␛]52;c;cm0gLXJmIH4K␇');
    expect(screen).toContain('␛]0;pwned␇<U+202E>x');
    // The totals line names the hostile asset with its marks.
    expect(lines(screen).find((l) => l.includes('Page totals'))).toContain('X␛]52');

    // The detail of the transfer whose status is hostile.
    await s.keys('j');
    await s.waitFor((x) => lines(x).some((l) => l.startsWith('›') && l.includes('USDT')));
    await s.keys('Enter');
    screen = await s.waitFor((x) => x.includes('1002') && x.includes('␛]0;pwned␇<U+202E>x') && !x.includes('TIME '));
    seen.push(screen);
    await s.keys('Escape');
    await s.waitFor('Page totals');

    // Nothing got through: no buffer, the title is the one set before the console started.
    expect(s.buffers()).toEqual([]);
    expect(s.title()).toBe('bc-before');
    const everything = seen.join('\n');
    expect(everything).not.toContain('\u202e');
    expect(everything).toContain('<U+202E>');
    expect(everything).toContain('␛[2J␛[H');

    // c on a key whose id holds escapes copies nothing, and says so (over the refresh's error line, for a while).
    for (let i = 0; i < 3 && !s.screen().includes('API keys of desk'); i += 1) {
      await s.keys('Escape');
      await sleep(200);
    }
    await s.waitFor('API keys of desk');
    await s.keys('c');
    await s.waitFor('was not copied');
    await sleep(300);
    expect(s.buffers()).toEqual([]);

    // The console's own copy of a plain value (transfer 1002's id, OSC 52 with base64 inside) does reach tmux:
    // the checks above could see a write.
    await s.keys('C-t');
    await s.waitFor('Universal transfers: filter');
    await s.keys('Enter');
    await s.waitFor(/Page totals/);
    await s.keys('j');
    await s.waitFor((x) => lines(x).some((l) => l.startsWith('›') && l.includes('USDT')));
    await s.keys('Enter');
    await s.waitFor((x) => x.includes('1002') && !x.includes('TIME '));
    await s.keys('c');
    await s.waitFor(() => s.buffers().length === 1);
    expect(s.title()).toBe('bc-before');

    await s.keys('C-c');
    await s.waitFor(/EXIT=\d+/);
    expect(s.buffers()).toHaveLength(1);
    expect(s.title()).toBe('bc-before');
  }, 90_000);
});

describe.skipIf(missing !== undefined).concurrent('CI and NO_COLOR on a real terminal', () => {
  it('CI=1: the console still draws live frames (the picker shows and follows typing); stderr to a file gets no escape', async ({ onTestFinished }) => {
    const s = startConsole(onTestFinished, '--demo 2>ci-stderr.txt; echo console-exited $?', { home: 'ci', env: { CI: '1' } });
    let screen = await s.waitFor('Choose a sub-account');
    expect(screen).toContain('gridbot2901');
    await s.type('grid');
    screen = await s.waitFor('Sub-account: grid');
    expect(screen).toMatch(/Demo sub-accounts \(1\)/);
    await s.type('x');
    await s.waitFor('Sub-account: gridx');
    // The terminal's cursor is shown again on the terminal, not written into a file stderr was sent to.
    await s.keys('C-c');
    await s.waitFor('console-exited 130');
    expect(readFileSync(join(folder, 'ci-stderr.txt'), 'utf8')).toBe('');
  }, 60_000);

  it('NO_COLOR=1: the text cursor and the selected row are in reverse video, and nothing is coloured', async ({ onTestFinished }) => {
    const s = startConsole(onTestFinished, '--demo', { home: 'nocolor', env: { NO_COLOR: '1' } });
    await s.waitFor('Choose a sub-account');
    await s.type('grid');
    await s.waitFor('Sub-account: grid');
    let raw = s.screenWithAttributes();
    const field = raw.split('\n').find((l) => l.includes('Sub-account: grid'))!;
    // The cell after "grid" (the text cursor) is reverse video.
    expect(field).toMatch(/grid(\x1b\[[0-9;]*m)*\x1b\[7m/);
    await s.keys('Down');
    await s.waitFor('› gridbot2901');
    raw = s.screenWithAttributes();
    const row = raw.split('\n').find((l) => l.includes('› gridbot2901'))!;
    expect(row).toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*› gridbot2901/);
    // No foreground or background colour anywhere (39/49 are "default").
    expect(raw).not.toMatch(/\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|4[0-7]|10[0-7]|38;|48;)[0-9;]*m/);
  }, 60_000);
});

// Concurrent with the others: the sandbox and the recording proxy are processes of their own.
describe.skipIf(missing !== undefined).concurrent('the secret (LIVE, against the sandbox)', () => {
  it('at 50x15, v shows the whole secret in groups; rebuilt from the lines it equals the 200-column one and what the sandbox sent', async ({
    onTestFinished,
  }) => {
    const sandbox = await backgroundSandbox(onTestFinished);
    const proxy = await recordingProxy(onTestFinished, sandbox.baseUrl);
    const sub = sandbox.subAccounts.includes('gridbot2901') ? 'gridbot2901' : sandbox.subAccounts[0]!;
    const s = startConsole(onTestFinished, '', {
      home: 'secret',
      env: { BROKER_BASE_URL: proxy.baseUrl, BROKER_API_KEY: sandbox.apiKey, BROKER_API_SECRET: sandbox.secretKey },
    });
    let screen = await s.waitFor('Choose a sub-account');
    expect(screen).toContain('LIVE');
    await s.type(sub);
    await s.keys('Enter');
    await s.waitFor(new RegExp(`API keys of ${sub} · \\d+ keys?`));
    await s.keys('n');
    await s.waitFor(`New API key for ${sub}`);
    await s.keys('Space');
    await s.waitFor('(1 chosen');
    await s.keys('Tab');
    await s.waitFor('› Other');
    await s.keys('Tab');
    await s.waitFor('› Linked IPs');
    // An IP: a LIVE key without one would first ask for the sub-account's name.
    await s.type('203.0.113.7');
    await s.waitFor('1/4');
    await s.keys('Tab');
    await s.waitFor('› Note');
    await s.type('e2e secret check');
    await s.waitFor('› Note        e2e secret check');
    await s.keys('Enter');
    await s.waitFor('exactly what will be sent');
    await s.keys('Enter');
    await s.waitFor('Store the secret key now');
    // One key was made. A loaded machine may first meet a refusal the client answers by sending again (a
    // timestamp outside recvWindow after the clock is measured again), which makes no key.
    const madeKeys = proxy.created.filter((answer) => answer.includes('"secretKey"'));
    expect(madeKeys, proxy.created.join('\n')).toHaveLength(1);
    const sent = JSON.parse(madeKeys[0]!) as { apiKey: string; secretKey: string };

    // 200x50: the API key and the secret on one line each.
    s.resize(200, 50);
    await s.waitFor(() => s.size() === '200x50');
    await s.keys('v');
    screen = await s.waitFor(/^Secret key\s+\S{20,}$/m);
    const wideSecret = /^Secret key\s+(\S+)$/m.exec(screen)![1]!;
    const wideKey = /^API key\s+(\S+)$/m.exec(screen)![1]!;
    await s.keys('v');
    await s.waitFor('(v shows it)');

    // 50x15: v shows the secret in groups of 8 that wrap; nothing is cut.
    s.resize(50, 15);
    await s.waitFor((x) => s.size() === '50x15' && x.includes('Store the secret now'));
    await s.keys('v');
    screen = await s.waitFor((x) => groupedValueAfter(x, 'Secret key').value.length >= wideSecret.length);
    const all = lines(screen);
    expect(all.length).toBeLessThanOrEqual(15);
    for (const line of all) expect([...line].length).toBeLessThanOrEqual(50);
    const narrow = groupedValueAfter(screen, 'Secret key');
    expect(narrow.lines.length).toBeGreaterThan(1);
    for (const group of narrow.lines.join(' ').split(' ').slice(0, -1)) expect(group).toHaveLength(8);
    const narrowKey = groupedValueAfter(screen, 'API key').value;

    // Character by character: the narrow reconstruction, the wide line and the sandbox's answer agree.
    expect([...narrow.value]).toEqual([...wideSecret]);
    expect(narrow.value).toBe(sent.secretKey);
    expect(wideSecret).toBe(sent.secretKey);
    expect(narrowKey).toBe(wideKey);
    expect(wideKey).toBe(sent.apiKey);

    // The API key shown is the one the sandbox lists for the sub-account afterwards.
    const listed = await runBuiltCli(['keys', 'list', '--sub', sub, '--json'], {
      BROKER_BASE_URL: sandbox.baseUrl,
      BROKER_API_KEY: sandbox.apiKey,
      BROKER_API_SECRET: sandbox.secretKey,
      BROKER_CONSOLE_HOME: join(folder, 'secret-cli'),
    });
    expect(listed.code, listed.stderr).toBe(0);
    const keys = JSON.parse(listed.stdout) as Array<{ apiKey: string; note: string }>;
    expect(keys.filter((k) => k.apiKey === wideKey)).toEqual([expect.objectContaining({ apiKey: wideKey, note: 'e2e secret check' })]);

    // Enter and y in one write: the prompt, and the y typed ahead with it is no answer; a y after it leaves, the
    // secret gone.
    s.resize(80, 24);
    await s.waitFor((x) => s.size() === '80x24' && x.includes('Store the secret key now'));
    await s.write('\ry');
    await s.waitFor('Have you stored the secret key?');
    await sleep(300);
    expect(s.screen()).toContain('Store the secret key now');
    await s.keys('y');
    screen = await s.waitFor(new RegExp(`API keys of ${sub} · ${keys.length} keys`));
    // The new key is the highlighted row.
    expect(lines(screen).find((l) => l.startsWith('›'))).toContain(`${wideKey.slice(0, 4)}…${wideKey.slice(-4)}`);
    expect(screen).not.toContain(sent.secretKey.slice(0, 8));
  }, 90_000);
});
