// The transfers tour in a real terminal (tmux, 80x24, the built binary, LIVE against a sandbox started here): search (/)
// in the key list and in the transfers results, sort (o) of the transfers page, and the chart (v), whose totals
// equal what `transfers --summary --json` prints for the same filter against the same sandbox; then, the sandbox made
// slow, n tapped three times while the pages load is three pages on, and ]] typed as one chunk is two more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import type { SummaryDocument } from '../../src/commands/transferSummary';
import type { RunningSandbox } from '../../src/sandbox/types';
import { displayWidth } from '../../src/terminal/text';
import { keySearchText } from '../../src/ui/keySearch';
import { buildCli, runBuiltCli, sandboxEnv, transferPagesRequested } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';
import { ownSandbox } from '../sandbox/helpers';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e transfers tour: ${missing}`);

let bin = '';
let folder = '';
let sandbox: RunningSandbox | undefined;
let session: TmuxSession | undefined;

beforeAll(async () => {
  if (missing) return;
  bin = await buildCli();
  folder = mkdtempSync(join(tmpdir(), 'bc-e2e-tour-'));
  sandbox = await ownSandbox({ seed: 7 });
});

afterAll(async () => {
  session?.kill();
  await sandbox?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The screen's lines, trailing spaces removed. */
const lines = (screen: string): string[] =>
  screen
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => l.trimEnd());

/** Nothing wider than the window, and fewer lines than its rows (the console never fills the last one). */
function expectFits(screen: string): void {
  const all = lines(screen);
  expect(all.filter((l) => displayWidth(l) > 80)).toEqual([]);
  while (all.length > 0 && all.at(-1) === '') all.pop();
  expect(all.length).toBeLessThanOrEqual(23);
}

/** The transfer rows of the results table: amount and status, the last two columns. */
function transferRows(screen: string): Array<{ line: string; amount: string; status: string }> {
  return lines(screen)
    .filter((l) => /^[› ] \d{4}-\d\d-\d\d \d\d:\d\d /.test(l))
    .map((line) => {
      const m = /\s(-?[\d.]+)\s+(\S+)$/.exec(line);
      return { line, amount: m?.[1] ?? '', status: m?.[2] ?? '' };
    });
}

/** The asset line of the chart: asset, exact total, transfers. */
function chartAsset(screen: string): { asset: string; volume: string; count: number } | undefined {
  const m = /^(\S+) (-?[\d.]+) · ([\d,]+) transfers?:/m.exec(screen);
  return m ? { asset: m[1]!, volume: m[2]!, count: Number(m[3]!.replace(/,/g, '')) } : undefined;
}

describe.skipIf(missing !== undefined)('search, sort and the chart, then keys during loads, in tmux (80x24, LIVE against a sandbox)', () => {
  it('walks / in the key list, / and o in the transfers results, and v, whose totals equal transfers --summary', async () => {
    const target = sandbox!;
    const env = { ...sandboxEnv(target), TZ: 'UTC' };
    // What the command prints for the filter the walk will use, against the same (unchanging) sandbox: run while the console walks.
    const summaryRun = runBuiltCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--summary', '--json'], env);
    summaryRun.catch(() => undefined);
    // The sub-account with the most keys, and a note only some of its keys have.
    const api = createBrokerApi({ baseUrl: target.baseUrl, apiKey: target.apiKey, secretKey: target.secretKey });
    let sub = '';
    let keys: Awaited<ReturnType<typeof api.listSubAccountKeys>> = [];
    const lists = await Promise.all(target.subAccounts.map((name) => api.listSubAccountKeys(name)));
    for (const [i, list] of lists.entries()) if (list.length > keys.length) [sub, keys] = [target.subAccounts[i]!, list];
    await api.close();
    const needle = keys
      .map((k) => k.note)
      .find((note) => {
        const n = keys.filter((k) => keySearchText(k).toLowerCase().includes(note.toLowerCase())).length;
        return n > 0 && n < keys.length;
      })!;
    expect(needle).toBeDefined();
    const matchingKeys = keys.filter((k) => keySearchText(k).toLowerCase().includes(needle.toLowerCase()));

    session = TmuxSession.console(`node ${bin}; sleep 600`, folder, { env });
    const s = session;
    let screen = await s.waitFor('Choose a sub-account');
    expect(screen).toContain('LIVE');
    await s.type(sub);
    await s.keys('Enter');
    await s.waitFor(new RegExp(`API keys of ${sub} · ${keys.length} keys`));

    // / in the key list: the keys with that note, "N of M", the footer of the filter line; esc clears.
    await s.keys('/');
    await s.waitFor('enter keep');
    await s.type(needle.toUpperCase());
    screen = await s.waitFor(`${matchingKeys.length} of ${keys.length}`);
    expectFits(screen);
    // The rows are those keys (their API keys shown shortened at 80 columns).
    for (const k of matchingKeys) expect(screen).toContain(`${k.apiKey.slice(0, 4)}…${k.apiKey.slice(-4)}`);
    expect(lines(screen).filter((l) => /^[› ] \S.* mx0v…/.test(l))).toHaveLength(matchingKeys.length);
    await s.keys('Escape');
    await s.waitFor((x) => x.includes(`API keys of ${sub} · ${keys.length} keys`) && !x.includes(` of ${keys.length}`));

    // The transfers: the filter's defaults (SPOT → FUTURES), then the first page.
    await s.keys('C-t');
    await s.waitFor('Universal transfers: filter');
    await s.keys('Enter');
    await s.waitFor(/Page 1 · 500 per page · 500 rows/);

    // / in the results: only BTC rows, "N of 500 rows"; enter keeps the filter.
    await s.keys('/');
    await s.waitFor('enter keep');
    await s.type('btc');
    screen = await s.waitFor(/Page 1 · 500 per page · \d+ of 500 rows/);
    const kept = Number(/(\d+) of 500 rows/.exec(screen)![1]);
    expect(kept).toBeGreaterThan(5);
    await s.keys('Enter');
    // The whole frame, not one caught half drawn (tmux may show a frame while its lines are still being written).
    screen = await s.waitFor((x) => !x.includes('enter keep') && transferRows(x).length > 3 && transferRows(x).every((row) => / BTC /.test(row.line)));
    expect(transferRows(screen).length).toBeGreaterThan(3);
    for (const row of transferRows(screen)) expect(row.line).toMatch(/ BTC /);

    // o sorts the page: by amount, largest first, said in the header and the column title.
    await s.keys('o');
    screen = await s.waitFor('sorted by amount ↓');
    expect(screen).toContain('AMOUNT ↓');
    expectFits(screen);
    const amounts = transferRows(screen).map((r) => new Big(r.amount));
    expect(amounts.length).toBeGreaterThan(3);
    for (let i = 1; i < amounts.length; i += 1) expect(amounts[i - 1]!.gte(amounts[i]!)).toBe(true);
    for (const row of transferRows(screen)) expect(row.line).toMatch(/ BTC /);

    // What the command printed for the same filter, against the same sandbox.
    const run = await summaryRun;
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as SummaryDocument;
    const byAsset = new Map(summary.assets.map((a) => [a.asset, a]));

    // v with the "btc" text kept: every page, only the BTC transfers, the total equal to the command's.
    await s.keys('v');
    screen = await s.waitFor((x) => /All \d+ pages · [\d,]+ transfers · [\d,]+ matches for “btc”/.test(x) && x.includes('esc close'), 15_000);
    expectFits(screen);
    expect(screen).toContain('Chart: BTC · SUCCESS volume per day (UTC)');
    expect(screen).toContain(`All ${summary.pages} pages · ${summary.rows.toLocaleString('en-US')} transfers`);
    expect(chartAsset(screen)).toEqual({ asset: 'BTC', volume: byAsset.get('BTC')!.volume, count: byAsset.get('BTC')!.count });
    // The newest days first, each with its exact sum and a bar.
    const newest = summary.days.at(-1)!;
    expect(screen).toMatch(
      new RegExp(`^${newest.day} +${(newest.assets.find((a) => a.asset === 'BTC')?.volume ?? '0').replace('.', '\\.')}( [▏▎▍▌▋▊▉█]+)?$`, 'm'),
    );
    expect(screen).toContain('esc close');

    // Closed, the filter cleared: v charts every asset; → turns them, each total equal to the command's.
    await s.keys('Escape');
    await s.waitFor('sorted by amount ↓');
    await s.keys('Escape');
    await s.waitFor(/Page 1 · 500 per page · 500 rows/);
    await s.keys('v');
    await s.waitFor(new RegExp(`Chart: \\S+ 1/${summary.assets.length}`));
    await s.waitFor((x) => /All \d+ pages/.test(x) && x.includes('r refetch'), 15_000);
    for (let i = 0; i < summary.assets.length; i += 1) {
      screen = await s.waitFor(new RegExp(`Chart: \\S+ ${i + 1}/${summary.assets.length}`));
      expectFits(screen);
      const shown = chartAsset(screen)!;
      expect(shown).toEqual({ asset: summary.assets[i]!.asset, volume: summary.assets[i]!.volume, count: summary.assets[i]!.count });
      await s.keys('Right');
    }
    // esc: back to the page as it was.
    await s.keys('Escape');
    await s.waitFor(/Page 1 · 500 per page · 500 rows/);
  }, 90_000);

  // Every key counts on a slow service, in the same console on page 1: the sandbox answers each request 300 ms late.
  it('nnn tapped on a slow service is three pages on; ]] in one write two more; Ctrl-C ends the console', async () => {
    const target = sandbox!;
    const s = session!;
    const asked = transferPagesRequested(target).length;
    target.setFaultRates({ latencyMs: 300 });
    // Tapped faster than a page comes: the second and third wait for the page before them.
    await s.keys('n', 'n', 'n');
    await s.waitFor(/Page 4 · 500 per page · 500 rows/, 15_000);
    await s.write(']]');
    const screen = await s.waitFor(/Page 6 · 500 per page · 500 rows/, 15_000);
    target.setFaultRates({});
    expect(screen).not.toContain('no more pages');
    // Each page came from the slow service.
    expect(transferPagesRequested(target).slice(asked)).toEqual(expect.arrayContaining(['2', '3', '4', '5', '6']));
    // Nothing more comes: six pages on is where the keys end.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(s.screen()).toMatch(/Page 6 · 500 per page · 500 rows/);
    await s.keys('C-c');
    await s.waitFor((x) => !x.includes('Page 6 ·'));
  }, 60_000);
});
