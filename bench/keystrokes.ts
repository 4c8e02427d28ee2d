// Keystrokes: `j` on the console's 500-row transfers page against the same key on the minimal Ink list, both running
// in one tmux server (120x40), keys alternated between them. Latency: from handing tmux the key to the new frame's
// last line reaching the pane (p50, p95). CPU per key: the process's own CPU time (all threads, from the scheduler's
// nanosecond counters in /proc) over the run, divided by the keys.
import { TmuxProbe, cpuMs, sleep, tmuxMissing } from './tmuxProbe';
import { benchHome, buildMinimalInkList, commands, frameEnd } from './subjects';
import { percentile, row } from './util';

/** Keys sent no faster than this apart, so Ink's 30-fps render throttle never holds one back. */
const KEY_GAP_MS = 45;

const ms = (value: number): string => `${value.toFixed(1)} ms`;

export async function keystrokes(keys = 200): Promise<void> {
  const missing = tmuxMissing();
  if (missing) {
    console.log(`keystrokes: skipped (${missing})`);
    return;
  }
  const minimalBundle = await buildMinimalInkList();
  const { home, remove } = benchHome();
  const probe = await TmuxProbe.open({ columns: 120, rows: 40, cwd: home });
  try {
    // The console on its transfers page: ctrl+t opens the filter (SPOT → FUTURE, 500 a page), enter lists page 1.
    const console_ = await probe.start(commands.console(home));
    await probe.waitFor(console_.pane, (text) => frameEnd.console.test(text));
    await probe.keys(console_.pane, 'C-t');
    await probe.waitFor(console_.pane, (text) => text.includes('Page size'));
    await probe.keys(console_.pane, 'Enter');
    await probe.waitFor(console_.pane, (text) => /500 rows · row 1\b[\s\S]*\? help/.test(text));
    const minimal = await probe.start(commands.minimal(minimalBundle));
    await probe.waitFor(minimal.pane, (text) => frameEnd.minimal.test(text));
    await sleep(500);

    const subjects = [
      { name: 'console', pane: console_.pane, frame: (n: number) => new RegExp(`· row ${n}\\b[\\s\\S]*\\? help`), times: [] as number[], cpu: 0, idle: 0 },
      { name: 'minimal', pane: minimal.pane, frame: (n: number) => new RegExp(`row ${n} of 500[\\s\\S]*q quits`), times: [] as number[], cpu: 0, idle: 0 },
    ];
    const pids = await Promise.all(subjects.map((s) => probe.pid(s.pane)));
    // Idle CPU (timers, nothing pressed) over one second: what the key figures include that is not the key's.
    const idle0 = pids.map(cpuMs);
    await sleep(1000);
    subjects.forEach((s, i) => (s.idle = cpuMs(pids[i]!) - idle0[i]!));

    const warmUp = 20;
    let cpu0: number[] = [];
    for (let n = 2; n < 2 + warmUp + keys; n++) {
      if (n === 2 + warmUp) cpu0 = pids.map(cpuMs);
      for (const s of subjects) {
        const sent = await probe.keys(s.pane, 'j');
        const drawn = await probe.waitFor(s.pane, (text) => s.frame(n).test(text));
        if (n >= 2 + warmUp) s.times.push(drawn - sent);
        await sleep(KEY_GAP_MS + Math.random() * 10);
      }
    }
    subjects.forEach((s, i) => (s.cpu = (cpuMs(pids[i]!) - cpu0[i]!) / keys));

    const [ours, list] = subjects as [(typeof subjects)[0], (typeof subjects)[0]];
    for (const [label, p] of [
      ['p50', 0.5],
      ['p95', 0.95],
    ] as const) {
      const a = percentile(ours.times, p);
      const b = percentile(list.times, p);
      row(`key j, 500-row transfers page, ${label}`, ms(a), `min. Ink ${ms(b)}`, a / b);
    }
    row('CPU per keypress (j)', ms(ours.cpu), `min. Ink ${ms(list.cpu)}`, ours.cpu / list.cpu);
    console.log(`  ${keys} keys each, alternated; CPU idle over 1 s: console ${ms(ours.idle)}, minimal list ${ms(list.idle)}`);
  } finally {
    await probe.close();
    remove();
  }
}
