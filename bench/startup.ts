// Start-up: the console's first frame of --demo in tmux 120x40 against a bare `node -e` and a minimal bundled Ink
// app (the same run, alternated, medians), and --version / --help against bare node.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TmuxProbe, sleep, tmuxMissing } from './tmuxProbe';
import { benchHome, buildMinimalInkList, commands, frameEnd } from './subjects';
import { spawnSandbox } from './load';
import { BIN, median, row } from './util';

const ms = (value: number): string => `${value.toFixed(0)} ms`;

/** Time from handing tmux the command to the frame's last line reaching the pane. */
async function frameTime(probe: TmuxProbe, command: string, end: RegExp): Promise<number> {
  const { pane, startedAt } = await probe.start(command);
  try {
    return (await probe.waitFor(pane, (text) => end.test(text))) - startedAt;
  } finally {
    await probe.kill(pane);
    // Let the process go before the next one starts (2 shared cores).
    await sleep(80);
  }
}

export async function firstFrame(rounds = 15): Promise<void> {
  const missing = tmuxMissing();
  if (missing) {
    console.log(`first frame: skipped (${missing})`);
    return;
  }
  const minimal = await buildMinimalInkList();
  const { home, remove } = benchHome();
  const probe = await TmuxProbe.open({ columns: 120, rows: 40, cwd: home });
  try {
    // A first start writes the compile cache a moment after its first frame; the measured starts then use it.
    const { pane } = await probe.start(commands.console(home));
    await probe.waitFor(pane, (text) => frameEnd.console.test(text));
    await sleep(800);
    await probe.kill(pane);
    if (!existsSync(join(home, 'cache')) || readdirSync(join(home, 'cache')).length === 0)
      console.log('  (the compile cache was not written: those starts compile every time)');

    const times = { bare: [] as number[], minimal: [] as number[], console: [] as number[], cold: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      times.bare.push(await frameTime(probe, commands.bare, frameEnd.bare));
      times.minimal.push(await frameTime(probe, commands.minimal(minimal), frameEnd.minimal));
      times.console.push(await frameTime(probe, commands.console(home), frameEnd.console));
      // As on a first start after an install or a build: no cache yet (one is written, in a folder thrown away).
      const fresh = mkdtempSync(join(tmpdir(), 'bc-bench-cache-'));
      times.cold.push(await frameTime(probe, commands.console(home, `BROKER_CONSOLE_CACHE=${fresh}`), frameEnd.console));
      rmSync(fresh, { recursive: true, force: true });
    }
    const bare = median(times.bare);
    const list = median(times.minimal);
    const warm = median(times.console);
    const cold = median(times.cold);
    row('first frame: --demo, tmux 120x40', ms(warm), `node -e ${ms(bare)}`, warm / bare);
    row('first frame: --demo', ms(warm), `min. Ink ${ms(list)}`, warm / list);
    row('first frame: --demo, no compile cache yet', ms(cold), `node -e ${ms(bare)}`, cold / bare);
    row('first frame: min. Ink 500-row list', ms(list), `node -e ${ms(bare)}`, list / bare);
  } finally {
    await probe.close();
    remove();
  }
}

/** Wall time of whole runs, the subjects alternated, medians. */
function alternated(subjects: string[][], runs: number, env: NodeJS.ProcessEnv): number[] {
  const times = subjects.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    subjects.forEach((args, s) => {
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr.toString()}`);
      times[s]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return times.map(median);
}

export async function commandStart(runs = 21): Promise<void> {
  const { home, remove } = benchHome();
  try {
    const env = { ...process.env, BROKER_CONSOLE_HOME: home };
    // One run of each writes its compile cache.
    alternated(
      [
        [BIN, '--help'],
        [BIN, 'keys', 'list', '--help'],
      ],
      1,
      env,
    );
    const [bare, version, help, keysHelp] = alternated(
      [
        ['-e', "console.log('DEMO')"],
        [BIN, '--version'],
        [BIN, '--help'],
        [BIN, 'keys', 'list', '--help'],
      ],
      runs,
      env,
    );
    row('start-up: broker-console --version', ms(version!), `node -e ${ms(bare!)}`, version! / bare!);
    row('start-up: broker-console --help', ms(help!), `node -e ${ms(bare!)}`, help! / bare!);
    row('start-up: broker-console keys list --help', ms(keysHelp!), `node -e ${ms(bare!)}`, keysHelp! / bare!);
    // A whole command: start, one signed request to a sandbox in its own process, the table, exit.
    const sandbox = await spawnSandbox(BIN);
    try {
      const { baseUrl, apiKey, secretKey, subAccounts } = sandbox.target;
      const withCredentials = { ...env, BROKER_BASE_URL: baseUrl, BROKER_API_KEY: apiKey, BROKER_API_SECRET: secretKey };
      const list = [BIN, 'keys', 'list', '--sub', subAccounts[0] ?? ''];
      alternated([list], 1, withCredentials);
      const [bareAgain, keysList] = alternated([['-e', "console.log('DEMO')"], list], runs, withCredentials);
      row('a command: keys list against a sandbox', ms(keysList!), `node -e ${ms(bareAgain!)}`, keysList! / bareAgain!);
    } finally {
      await sandbox.stop();
    }
  } finally {
    remove();
  }
}
