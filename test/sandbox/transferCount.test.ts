// A sandbox size you can set: `sandbox --transfers N` holds N transfers, the same ones
// for the same seed and N; the history is laid out on first use, so a large N does not slow the start.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { runSandboxCommand } from '../../src/commands/sandbox';
import type { WireTransfer } from '../../src/sandbox/model';
import { MAX_SEEDED_TRANSFERS, SEEDED_TRANSFER_COUNT, seedTransfers } from '../../src/sandbox/seedTransfers';
import { createState } from '../../src/sandbox/state';
import { runCli } from '../commands/helpers';
import { listTransfers, ownSandbox } from './helpers';

const ANCHOR = Date.UTC(2025, 5, 1);
const DAY = 86_400_000;

const sample = (seed: number, count: number): WireTransfer[] => {
  const { transfers } = createState(seed, ANCHOR, count);
  const picks = [0, 1, Math.floor(count / 3), Math.floor(count / 2), count - 2, count - 1];
  return picks.map((i) => transfers.at(i));
};

describe('the number of seeded transfers', () => {
  test('N transfers, newest first within the last 120 days, unique ids; the default is 24,000', () => {
    expect(createState(1, ANCHOR).transfers.count).toBe(SEEDED_TRANSFER_COUNT);
    expect(SEEDED_TRANSFER_COUNT).toBe(24_000);
    for (const n of [0, 1, 5000, 40_000]) {
      const { transfers } = createState(1, ANCHOR, n);
      expect(transfers.count).toBe(n);
      if (n === 0) continue;
      const all = Array.from({ length: n }, (_, i) => transfers.at(i));
      expect(new Set(all.map((t) => t.tranId)).size).toBe(n);
      expect(all.every((t, i) => i === 0 || all[i - 1]!.timestamp >= t.timestamp)).toBe(true);
      expect(all[0]!.timestamp).toBeLessThan(ANCHOR);
      expect(all.at(-1)!.timestamp).toBeGreaterThan(ANCHOR - 120 * DAY);
    }
  });

  test('deterministic: the same seed and N give the same transfers; another seed or N, others', () => {
    expect(sample(1, 50_000)).toEqual(sample(1, 50_000));
    expect(sample(7, 300_000)).toEqual(sample(7, 300_000));
    expect(sample(2, 50_000)).not.toEqual(sample(1, 50_000));
    // The default N is the history it always was.
    expect(sample(1, SEEDED_TRANSFER_COUNT)).toEqual(sample(1, 24_000));
    expect(createState(1, ANCHOR, 50_001).transfers.at(0)).not.toEqual(createState(1, ANCHOR, 50_000).transfers.at(0));
  });

  test('a large history: records built when served (memory stays flat), the same each time', () => {
    const { transfers } = createState(3, ANCHOR, 400_000);
    const first = transfers.at(123_456);
    expect(transfers.at(123_456)).toEqual(first);
    expect(transfers.at(123_456)).not.toBe(first);
    // The usual sizes keep what they built.
    const small = createState(3, ANCHOR, 1000).transfers;
    expect(small.at(5)).toBe(small.at(5));
  });

  test('laid out on first use: creating a state with a million transfers is instant, laying them out bounded', () => {
    let started = performance.now();
    const state = createState(4, ANCHOR, 1_000_000);
    const created = performance.now() - started;
    started = performance.now();
    expect(
      state.transferIndex.count({ fromAccount: state.master.name, toAccount: state.master.name, fromAccountType: 'SPOT', toAccountType: 'FUTURE' }),
    ).toBeGreaterThan(100_000);
    const laidOut = performance.now() - started;
    console.log(`1,000,000 transfers laid out and indexed in ${laidOut.toFixed(0)} ms`);
    expect(laidOut).toBeLessThan(5000);
    // Nothing was laid out at creation: it took a small part of what laying out took (not a fixed number of ms,
    // which a pause of the process alone can pass).
    expect(created).toBeLessThan(laidOut / 4);
  });

  test('out of range: refused before anything listens', async () => {
    for (const bad of [-1, 1.5, MAX_SEEDED_TRANSFERS + 1, Number.NaN]) {
      await expect(ownSandbox({ transfers: bad })).rejects.toThrow(/transfers: must be a whole number from 0 to 4000000/);
      expect(() => seedTransfers(1, ANCHOR, 'm', ['s1', 's2'], bad)).toThrow(RangeError);
    }
  });
});

describe('sandbox --transfers N', () => {
  test('serves N transfers: an empty history at 0; pages of a large one', async () => {
    const out = new PassThrough();
    const empty = await runSandboxCommand({ transfers: 0, seed: 1 }, out, { handleSignals: false });
    try {
      const r = await listTransfers(empty, [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'FUTURE'],
      ]);
      expect(r.status).toBe(200);
      expect(r.json).toEqual([]);
    } finally {
      await empty.close();
    }
    let printed = '';
    out.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const large = await runSandboxCommand({ transfers: 96_000, seed: 1 }, out, { handleSignals: false });
    try {
      expect(printed).toContain('(sandbox with seed 1 and 96,000 transfers;');
      const page = (n: number) =>
        listTransfers(large, [
          ['fromAccountType', 'SPOT'],
          ['toAccountType', 'FUTURE'],
          ['page', n],
          ['limit', 500],
        ]);
      const [first, far] = [await page(1), await page(20)];
      expect((first.json as unknown[]).length).toBe(500);
      expect((far.json as unknown[]).length).toBe(500);
    } finally {
      await large.close();
    }
  });

  test('the command line: --transfers is a whole number from 0 to 4,000,000, named in --help', async () => {
    const help = await runCli(['sandbox', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--transfers <n> transfers in the seeded history (default 24000; at most 4000000)');
    for (const bad of ['-5', 'many', '4000001', '1e5']) {
      const r = await runCli(['sandbox', '--transfers', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--transfers.*must be a whole number from 0 to 4000000/);
    }
  }, 20_000);
});
