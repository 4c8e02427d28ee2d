// `npm run screencast`: the console's tour, recorded. The built console runs in a real pseudo-terminal
// (tmux, 100x30) with the demo's clock pinned (--demo-clock), and is driven key by key at a human pace:
// the first-run welcome, the picker, a sub-account's keys and a key's detail, a new key (five addresses
// refused, two accepted), the review, the one-time secret revealed and acknowledged, the new key selected
// in the list, transfers with a filter, the next page, a jump, the page totals, an export of all pages,
// help, and quit.
//
// It writes
//   docs/demo.cast         asciicast v2 (`asciinema play docs/demo.cast`)
//   docs/demo.svg          the same recording as an SVG animation (svg-term), shown in the README
//   docs/screens/NN-*.txt  a still of each screen (capture-pane, trailing spaces trimmed)
// and puts each still in docs/console.md between <!-- screen:NN-name --> and <!-- /screen -->.
//
// Every screen has a marker text; a screen that does not show its marker in time fails the run, naming it.
// Two runs give the same files: the data, "now", the created key and the latencies shown are pinned by the
// demo clock, and the cast is made of the screens tmux shows after each key (only the lines that changed),
// stamped with the tour's planned pace rather than the wall clock. The bytes the console wrote are
// recorded too (pipe-pane), to check it entered the alternate screen and left it.
//
// Options: --fast (do not wait the planned pace between keys: a quick check, same files).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'dist', 'broker-console.js');
const DOCS = join(ROOT, 'docs');
const SCREENS = join(DOCS, 'screens');
/** The console's reference page, which holds a block for each still. */
const SCREENS_PAGE = join(DOCS, 'console.md');

const COLUMNS = 100;
const ROWS = 30;
/** The demo's pinned clock: every time on screen follows it. */
const DEMO_CLOCK = '2026-11-21T09:30:00Z';
/** The console's current folder, where the export lands; its path is on screen, so it is fixed. */
const EXPORT_DIR = '/tmp/broker-console-demo';
const FAST = process.argv.includes('--fast');

// ---------------------------------------------------------------------------------------------------
// The tour. A step presses a key (tmux key name) or types text (one key per character); `until` is the
// marker the screen must show before the tour goes on; `still` saves the screen under that name; `pause` is
// the planned think time before the step (ms), `hold` the reading time after a still.

const tour = [
  { still: '01-welcome', until: 'No profile is set up yet.', hold: 2600 },
  { key: 'Enter', until: 'Demo sub-accounts (15)', still: '02-picker', hold: 2600 },
  { type: 'gridbot2901' },
  { key: 'Enter', until: 'API keys of gridbot2901 · 6 keys', still: '03-keys', hold: 2600 },
  { key: 'Down', until: '› tax export' },
  { key: 'Enter', until: '(local) ·', still: '04-key-detail', hold: 2600 },
  { key: 'Enter', until: 'API keys of gridbot2901 · 6 keys' },
  { key: 'n', until: 'New API key for gridbot2901' },
  { key: 'Space', until: '[x] SPOT_ACCOUNT_READ' },
  { key: 'Right' },
  { key: 'Space', until: '[x] SPOT_ACCOUNT_WRITE' },
  { key: 'Tab' },
  { key: 'Tab', until: '› Linked IPs' },
  { type: '203.0.113.7, 203.0.113.8, 198.51.100.20, 192.0.2.44, 2001:db8::1', until: '5/4' },
  { key: 'Enter', until: 'at most 4 addresses (got 5)', still: '05-new-key-refused', hold: 2800 },
  { key: 'C-u', until: '0/4' },
  { type: '203.0.113.7, 2001:db8::1', until: '2/4' },
  { key: 'Tab', until: '› Note' },
  { type: 'market-maker bot', until: (s) => s.includes('2/4') && s.includes('market-maker bot'), still: '06-new-key-accepted', hold: 2000 },
  { key: 'Enter', until: 'Review: this is exactly what will be sent', still: '07-review', hold: 2600 },
  { key: 'Enter', until: 'Key created for gridbot2901', still: '08-secret', hold: 2400 },
  { key: 'v', until: 'demo0000', still: '09-secret-revealed', hold: 2400 },
  { key: 'Enter', until: 'Have you stored the secret key?', still: '10-secret-acknowledge', hold: 2400 },
  { key: 'y', until: (s) => s.includes('7 keys') && s.includes('› market-maker'), still: '11-new-key-selected', hold: 2600 },
  { key: 'C-t', until: 'Universal transfers: filter' },
  { key: 'Tab', until: '› To type' },
  { key: 'Tab', until: '› From account' },
  { key: 'Tab', until: '› To account' },
  { key: 'Tab', until: '› Since' },
  { type: '30d', until: /30d +=\s*2026-10-22 09:30:00/ },
  { key: 'Tab', until: '› Until' },
  { key: 'Tab', until: '› Client id' },
  { key: 'Tab', until: '› Page size' },
  { key: 'C-u' },
  { type: '100', until: '› Page size     100', still: '12-transfer-filter', hold: 2200 },
  { key: 'Enter', until: 'Page 1 · 100 per page', still: '13-transfers', hold: 2800 },
  { key: 'n', until: 'Page 2 · 100 per page', still: '14-next-page', hold: 2200 },
  { key: 'g', until: 'enter go' },
  { type: '7' },
  { key: 'Enter', until: (s) => s.includes('Page 7 · 100 per page') && s.includes('Page totals'), still: '15-jump-and-totals', hold: 3000 },
  { key: 'x', until: 'Export transfers' },
  { key: 'a', until: /›\s*all pages/ },
  { key: 'Enter', until: '✓ Wrote 902 rows (2 pages)', timeoutMs: 30_000, still: '16-export-all-pages', hold: 2800 },
  { key: 'Enter', until: (s) => !s.includes('Export transfers') },
  { key: '?', until: 'press ? or esc to close', still: '17-help', hold: 3200 },
  { key: 'Escape', until: (s) => !s.includes('press ? or esc to close') },
  { key: 'q', exits: true },
];

// ---------------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
const fail = (message) => {
  console.error(`screencast: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
};

/** mulberry32: the typing rhythm is the same in every run. */
function rhythm(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Pane {
  constructor() {
    this.socket = `broker-screencast-${process.pid}`;
    this.name = 'tour';
  }
  tmux(...args) {
    return execFileSync('tmux', ['-u', '-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { ...process.env, TMUX: '' } });
  }
  start(command, cwd, rawFile, statusFile) {
    const gate = `${this.name}-go`;
    this.statusFile = statusFile;
    // The console starts only once the recording of its bytes is in place (tmux wait-for); its exit code
    // is written down by the shell that ran it (tmux does not always know it).
    const wrapped = `tmux -L ${quote(this.socket)} wait-for ${quote(gate)}; ${command}; echo $? > ${quote(statusFile)}`;
    this.tmux(
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(COLUMNS),
      '-y',
      String(ROWS),
      '-c',
      cwd,
      wrapped,
      ';',
      'set-option',
      '-g',
      'remain-on-exit',
      'on',
      ';',
      'pipe-pane',
      '-o',
      '-t',
      this.name,
      `cat >> ${quote(rawFile)}`,
    );
    try {
      this.tmux('set-option', '-g', 'remain-on-exit-format', '');
    } catch {
      // older tmux: the "Pane is dead" line is dropped from the last screen below
    }
    this.tmux('wait-for', '-S', gate);
  }
  text() {
    return this.tmux('capture-pane', '-p', '-t', this.name)
      .split('\n')
      .slice(0, ROWS)
      .map((l) => l.replace(/\s+$/, ''))
      .filter((l) => !l.startsWith('Pane is dead'));
  }
  styled() {
    const lines = this.tmux('capture-pane', '-p', '-e', '-t', this.name).split('\n').slice(0, ROWS);
    while (lines.length < ROWS) lines.push('');
    return lines.map((l) => (l.startsWith('Pane is dead') ? '' : l));
  }
  send(key, literal = false) {
    this.tmux('send-keys', '-t', this.name, ...(literal ? ['-l'] : []), key);
  }
  /** undefined while the console runs, then its exit code. */
  exitCode() {
    try {
      const text = readFileSync(this.statusFile, 'utf8');
      return text.endsWith('\n') ? Number(text) : undefined;
    } catch {
      return undefined;
    }
  }
  close() {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

/** A screen as asciicast output: only the rows that changed, each drawn whole from the attributes it starts with. */
function frameDiff(previous, next) {
  let out = '';
  const sgr = new Attributes(); // capture-pane -e carries attributes from one row to the next
  next.starts = [];
  for (let row = 0; row < ROWS; row++) {
    const line = next[row] ?? '';
    const start = sgr.sequence();
    next.starts[row] = start;
    if (previous === undefined || previous[row] !== line || previous.starts[row] !== start) {
      out += `\u001b[${row + 1};1H\u001b[0m\u001b[2K${start}${line}`;
    }
    for (const m of line.matchAll(/\u001b\[([0-9;:]*)m/g)) sgr.apply(m[1]);
  }
  return out === '' ? '' : `${out}\u001b[0m`;
}

/** The SGR attributes in force, as far as tmux writes them (capture-pane -e), and the one sequence that sets them. */
class Attributes {
  constructor() {
    this.reset();
  }
  reset() {
    this.flags = new Set();
    this.fg = undefined;
    this.bg = undefined;
  }
  apply(params) {
    const codes = params === '' ? ['0'] : params.split(';');
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      const [base, sub] = code.split(':');
      const n = Number(base);
      if (n === 0) this.reset();
      else if (n === 4 && sub !== undefined) this.flags[sub === '0' ? 'delete' : 'add']('4');
      else if ([1, 2, 3, 4, 5, 7, 8, 9].includes(n)) this.flags.add(String(n));
      else if (n === 22) ['1', '2'].forEach((flag) => this.flags.delete(flag));
      else if ([23, 24, 25, 27, 28, 29].includes(n)) this.flags.delete(String(n - 20));
      else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.fg = code;
      else if (n === 39) this.fg = undefined;
      else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.bg = code;
      else if (n === 49) this.bg = undefined;
      else if (n === 38 || n === 48) {
        const take = codes[i + 1] === '5' ? 2 : codes[i + 1] === '2' ? 4 : 0;
        const value = codes.slice(i, i + 1 + take).join(';');
        i += take;
        if (n === 38) this.fg = value;
        else this.bg = value;
      }
    }
  }
  sequence() {
    const codes = [...[...this.flags].sort(), ...(this.fg ? [this.fg] : []), ...(this.bg ? [this.bg] : [])];
    return codes.length === 0 ? '' : `\u001b[${codes.join(';')}m`;
  }
}

async function main() {
  if (spawnSync('tmux', ['-V']).status !== 0) fail('tmux is needed (apt-get install tmux)');
  if (!existsSync(BIN)) fail(`${BIN} is missing: run npm run build first (npm run screencast does)`);

  const work = mkdtempSync(join(tmpdir(), 'broker-screencast-'));
  const home = join(work, 'config');
  const rawFile = join(work, 'raw.bin');
  const statusFile = join(work, 'status');
  mkdirSync(home);
  rmSync(EXPORT_DIR, { recursive: true, force: true });
  mkdirSync(EXPORT_DIR, { recursive: true });
  mkdirSync(SCREENS, { recursive: true });

  const env = [
    'env',
    '-u',
    'CI',
    '-u',
    'COLORTERM',
    '-u',
    'FORCE_COLOR',
    '-u',
    'NO_COLOR',
    '-u',
    'TMUX',
    '-u',
    'BROKER_API_KEY',
    '-u',
    'BROKER_API_SECRET',
    '-u',
    'BROKER_BASE_URL',
    '-u',
    'BROKER_PROFILE',
    '-u',
    'BROKER_DEMO_CLOCK',
    'TERM=xterm-256color',
    'TZ=UTC',
    'LANG=C.UTF-8',
    `BROKER_CONSOLE_HOME=${home}`,
  ];
  // No profile in a fresh config folder: the console opens on the welcome screen, whose Enter opens the demo.
  const command = [...env, process.execPath, BIN, '--demo-clock', DEMO_CLOCK].map(quote).join(' ');
  const pane = new Pane();
  const events = [];
  const stills = [];
  /** Each still and the time of the cast's frame that shows it. */
  const stillTimes = new Map();
  const random = rhythm(20261121);
  let planned = 0; // ms on the recording's clock
  let screen; // the last screen put in the cast
  const began = Date.now();

  const record = (at) => {
    const next = pane.styled();
    const data = frameDiff(screen, next);
    screen = next;
    if (data !== '') events.push([at, data]);
  };
  /** Waits for the screen to show `until` (or to change, when there is none) and then to stay still a moment. */
  const settle = async (before, step, name) => {
    const test =
      typeof step.until === 'function'
        ? step.until
        : step.until instanceof RegExp
          ? (s) => step.until.test(s)
          : step.until
            ? (s) => s.includes(step.until)
            : undefined;
    const quiet = step.type !== undefined ? 80 : 200;
    const limit = Date.now() + (step.timeoutMs ?? 10_000);
    let last = pane.text().join('\n');
    let changedAt = Date.now();
    const start = Date.now();
    for (;;) {
      await sleep(20);
      const now = pane.text().join('\n');
      if (now !== last) {
        last = now;
        changedAt = Date.now();
      }
      const ready = test ? test(now) : now !== before || Date.now() - start > 1500;
      if (ready && Date.now() - changedAt >= quiet) return now;
      if (Date.now() > limit) {
        fail(`the screen ${name ?? `after ${step.key ?? JSON.stringify(step.type)}`} did not appear: expected ${String(step.until)}; the screen was:\n${now}`);
      }
    }
  };
  /** Real time follows the planned pace (unless --fast), so the console sees a person's rhythm. */
  const pace = async () => {
    if (!FAST) await sleep(Math.max(0, began + planned - Date.now()));
  };

  try {
    pane.start(command, EXPORT_DIR, rawFile, statusFile);
    planned = 400;
    for (const step of tour) {
      let at = planned; // when the step's screen is in the cast
      if (step.type !== undefined) {
        for (const [i, ch] of [...step.type].entries()) {
          planned += 70 + Math.floor(random() * 80) + (/[ ,.:]/.test(ch) ? 90 : 0);
          await pace();
          const before = pane.text().join('\n');
          pane.send(ch, true);
          const last = i === step.type.length - 1;
          await settle(before, last ? step : { type: ch }, last ? step.still : undefined);
          at = planned + 30;
          record(at);
        }
      } else if (step.key !== undefined) {
        planned += step.pause ?? 650 + Math.floor(random() * 250);
        await pace();
        const before = pane.text().join('\n');
        pane.send(step.key);
        if (step.exits) {
          const limit = Date.now() + 5000;
          let status;
          while ((status = pane.exitCode()) === undefined && Date.now() < limit) await sleep(20);
          if (status === undefined) fail(`the console did not quit on q`);
          if (status !== 0) fail(`the console quit with exit code ${status}, not 0`);
          record(planned + 60);
          if (events.length > 0) events[events.length - 1][1] += '\u001b[?25h';
          continue;
        }
        await settle(before, step, step.still);
        at = planned + 40;
        record(at);
      } else {
        // The first screen: the console starting.
        await settle('', step, step.still);
        record(at);
      }
      if (step.still) {
        const text = pane.text();
        stills.push(step.still);
        stillTimes.set(step.still, at);
        writeFileSync(join(SCREENS, `${step.still}.txt`), `${text.join('\n')}\n`);
        planned += step.hold ?? 2000;
      }
    }
    // The last screen (the terminal as the console found it) stays a moment before the recording loops.
    events.push([planned + 1500, '']);
    const raw = readFileSync(rawFile, 'latin1');
    if (!raw.includes('\u001b[?1049h')) fail('the console did not enter the alternate screen (no ESC[?1049h in what it wrote)');
    if (!raw.slice(raw.lastIndexOf('\u001b[?1049h')).includes('\u001b[?1049l'))
      fail('the console did not leave the alternate screen (no ESC[?1049l after it entered)');
  } finally {
    pane.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(EXPORT_DIR, { recursive: true, force: true });
  }

  // Stills from an earlier tour that this one no longer takes would mislead: they go.
  for (const file of readdirSync(SCREENS)) if (file.endsWith('.txt') && !stills.includes(file.slice(0, -4))) rmSync(join(SCREENS, file));

  const header = { version: 2, width: COLUMNS, height: ROWS, title: 'broker-console: the demo tour', env: { TERM: 'xterm-256color', SHELL: '/bin/sh' } };
  const cast = [
    JSON.stringify(header),
    ...events.map(([ms, data], i) => JSON.stringify([Number((ms / 1000).toFixed(3)), 'o', i === 0 ? `\u001b[?25l\u001b[H\u001b[2J${data}` : data])),
  ].join('\n');
  writeFileSync(join(DOCS, 'demo.cast'), `${cast}\n`);
  checkReplay(cast, stills, stillTimes);
  writeFileSync(join(DOCS, 'demo.svg'), await renderSvg(cast));

  const missing = updateScreensPage(stills);
  console.log(`screencast: ${stills.length} screens, ${events.length} frames, ${(planned / 1000).toFixed(1)} s → docs/demo.cast, docs/demo.svg, docs/screens/`);
  if (missing.length > 0) fail(`docs/console.md has no block for ${missing.join(', ')}: add <!-- screen:NAME --> and <!-- /screen --> where it belongs`);
}

/**
 * svg-term renders the cast. Its release on npm requires React 16 from its own dependencies while its style
 * helper (@stiligita/react) would find this project's React 19, so it is bundled with both pointed at the React
 * svg-term's own require('react') finds (resolved from its entry, as Node resolves it: no file of it is read).
 */
async function renderSvg(cast) {
  const { build } = await import('esbuild');
  const require = createRequire(import.meta.url);
  const entry = require.resolve('svg-term');
  const own = createRequire(entry);
  const react = dirname(own.resolve('react/package.json'));
  const reactDom = dirname(own.resolve('react-dom/package.json'));
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    alias: { react, 'react-dom': reactDom },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', bundled.outputFiles[0].text)(module, module.exports, require);
  return `${module.exports.render(cast, { paddingX: 4, paddingY: 4, window: true, cursor: false })}\n`;
}

/** Plays the cast in a terminal emulator (load-asciicast, the one svg-term uses) and checks each still is on screen at its time. */
function checkReplay(cast, stills, stillTimes) {
  const { load } = createRequire(import.meta.url)('load-asciicast');
  const frames = load(cast).frames;
  for (const name of stills) {
    const at = (stillTimes.get(name) ?? 0) / 1000 + 0.0005;
    const found = frames.filter(([t]) => t <= at).pop();
    const lines = found?.[1]?.screen?.lines ?? found?.[1]?.lines ?? [];
    const shown = lines
      .map((line) =>
        line
          .map((c) => String.fromCodePoint(c[0]))
          .join('')
          .replace(/\s+$/, ''),
      )
      .join('\n')
      .replace(/\n+$/, '');
    const still = readFileSync(join(SCREENS, `${name}.txt`), 'utf8').replace(/\n+$/, '');
    if (shown !== still) fail(`the cast does not replay ${name}: at ${at.toFixed(3)} s it shows\n${shown}`);
  }
}

/** Puts each still between its markers in docs/console.md; returns the stills that have no block there. */
function updateScreensPage(stills) {
  let text = readFileSync(SCREENS_PAGE, 'utf8');
  const missing = [];
  for (const name of stills) {
    const still = readFileSync(join(SCREENS, `${name}.txt`), 'utf8');
    const block = new RegExp(`(<!-- screen:${name} -->\\n)[\\s\\S]*?(<!-- /screen -->)`);
    if (!block.test(text)) {
      missing.push(name);
      continue;
    }
    text = text.replace(block, (_, open, close) => `${open}\`\`\`text\n${still}\`\`\`\n${close}`);
  }
  writeFileSync(SCREENS_PAGE, text);
  return missing;
}

main().catch((error) => {
  if (process.exitCode !== 1) console.error(error);
  process.exitCode = 1;
});
