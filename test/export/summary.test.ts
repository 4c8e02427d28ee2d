// The summary behind the chart and `transfers --summary`: its sums equal an independent big.js sum
// of the same transfers, per asset, per status and per local day, whatever the decimals, the statuses and the
// way the rows come in pages; the days of the range without transfers are there, at 0.
import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transfer } from '../../src/api/types';
import { MAX_EMPTY_RANGE_DAYS, SummaryBuilder, daysFrom, localDay, summarize } from '../../src/export/summary';
import { barText } from '../../src/ui/chartBars';
import { transfer } from './transfer';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 20, 5, 17);

/** A decimal with up to 40 places and 30 digits before the point, sometimes signed, sometimes with an exponent. */
const decimal = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 40 }), fc.constantFrom('', '', '', '-', '+'), fc.constantFrom('', '', '', '', 'e-3', 'E+2'))
  .map(([digits, places, sign, exponent]) => {
    const text = digits.toString().padStart(places + 1, '0');
    return `${sign}${places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`}${exponent}`;
  });
const notDecimal = fc.constantFrom('1,5', 'NaN', '', '0x10', ' 1', 'Infinity', '1e999');

const transfers = fc.array(
  fc.record({
    asset: fc.constantFrom('BTC', 'USDT', 'ETH', 'Ü', '币🚀', 'A\u001b]0;x\u0007'),
    amount: fc.oneof({ weight: 9, arbitrary: decimal }, { weight: 1, arbitrary: notDecimal }),
    status: fc.constantFrom('SUCCESS', 'SUCCESS', 'success', 'FAILED', 'WAIT', 'PROCESSING'),
    timestamp: fc.integer({ min: START, max: START + 40 * DAY }),
  }),
  { maxLength: 300 },
);

/** The amount as big.js reads it, by a rule of this test's own; undefined for what is not a decimal (or beyond 1e±100). */
function independentValue(amount: string): Big | undefined {
  const m = /^[+-]?(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?$/.exec(amount);
  if (!m || amount.length > 100 || Math.abs(Number(m[2] ?? 0)) > 100) return undefined;
  return new Big(amount.replace(/^\+/, ''));
}

/** The local calendar day by another road: the Swedish locale writes dates as YYYY-MM-DD. */
const dayOf = (ms: number): string => new Date(ms).toLocaleDateString('sv-SE');

function rows(list: Array<{ asset: string; amount: string; status: string; timestamp: number }>): Transfer[] {
  return list.map((t, i) => transfer({ ...t, tranId: String(i) }));
}

describe('the summary equals an independent sum of the same transfers', () => {
  it('per asset, per status, per day: counts of every status, volume of SUCCESS only, exact to the last place', () => {
    fc.assert(
      fc.property(transfers, (list) => {
        const all = rows(list);
        const s = summarize(all, { startTime: START, endTime: START + 40 * DAY, now: START + 41 * DAY });
        // Every comparison is made; the mismatches are asserted once (an expect() per value cost more than the sums).
        const wrong: string[] = [];
        const same = (what: string, actual: unknown, wanted: unknown): void => {
          if (actual !== wanted) wrong.push(`${what}: ${String(actual)} ≠ ${String(wanted)}`);
        };
        same('rows', s.rows, all.length);
        same('unparsable', s.unparsable, all.filter((t) => independentValue(t.amount) === undefined).length);
        const assets = [...new Set(all.map((t) => t.asset))].sort();
        expect(s.assets.map((a) => a.asset)).toEqual(assets);
        for (const a of s.assets) {
          const mine = all.filter((t) => t.asset === a.asset);
          let volume = new Big(0);
          for (const t of mine) if (t.status.toUpperCase() === 'SUCCESS') volume = volume.plus(independentValue(t.amount) ?? 0);
          same(`${a.asset} volume equals`, new Big(a.volume).eq(volume), true);
          same(`${a.asset} volume`, a.volume, volume.toFixed());
          same(`${a.asset} count`, a.count, mine.length);
          for (const st of a.statuses) {
            const of = mine.filter((t) => t.status === st.status);
            same(`${a.asset} ${st.status} count`, st.count, of.length);
            same(`${a.asset} ${st.status} sum`, st.sum, of.reduce((sum, t) => sum.plus(independentValue(t.amount) ?? 0), new Big(0)).toFixed());
          }
          same(
            `${a.asset} statuses add up`,
            a.statuses.reduce((n, st) => n + st.count, 0),
            a.count,
          );
        }
        for (const st of s.statuses) same(`${st.status} count`, st.count, all.filter((t) => t.status === st.status).length);
        // Days: every day of the range in order, each asset's day sums exact, and adding up to its volume.
        expect(s.days.map((d) => d.day)).toEqual(daysFrom(dayOf(START), dayOf(START + 40 * DAY)));
        for (const d of s.days) {
          const that = all.filter((t) => dayOf(Number(t.timestamp)) === d.day);
          same(`${d.day} count`, d.count, that.length);
          for (const a of d.assets) {
            const cell = that.filter((t) => t.asset === a.asset);
            same(`${d.day} ${a.asset} count`, a.count, cell.length);
            const sum = cell.filter((t) => t.status.toUpperCase() === 'SUCCESS').reduce((x, t) => x.plus(independentValue(t.amount) ?? 0), new Big(0));
            same(`${d.day} ${a.asset} volume`, a.volume, sum.toFixed());
          }
        }
        for (const a of s.assets) {
          const byDays = s.days.reduce((x, d) => x.plus(d.assets.find((c) => c.asset === a.asset)?.volume ?? '0'), new Big(0));
          same(`${a.asset} days add up`, byDays.eq(new Big(a.volume)), true);
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('the same summary however the rows come in pages', () => {
    fc.assert(
      fc.property(transfers, fc.array(fc.nat({ max: 60 }), { maxLength: 8 }), (list, cuts) => {
        const all = rows(list);
        const range = { now: START + 41 * DAY };
        const paged = new SummaryBuilder();
        let at = 0;
        for (const cut of cuts) {
          paged.add(all.slice(at, at + cut));
          at += cut;
        }
        paged.add(all.slice(at));
        expect(paged.result(range)).toEqual(summarize(all, range));
      }),
      { numRuns: 60 },
    );
  });
});

describe('the days of the range', () => {
  it('days without transfers are there with nothing, from the start of the range to its end', () => {
    const s = summarize(
      [transfer({ timestamp: START + 2 * DAY, amount: '1.5' }), transfer({ timestamp: START + 2 * DAY + 60_000, amount: '2.25', asset: 'BTC' })],
      {
        startTime: START,
        now: START + 4 * DAY,
      },
    );
    expect(s.days.map((d) => [d.day, d.count])).toEqual([
      [dayOf(START), 0],
      [dayOf(START + DAY), 0],
      [dayOf(START + 2 * DAY), 2],
      [dayOf(START + 3 * DAY), 0],
      [dayOf(START + 4 * DAY), 0],
    ]);
    expect(s.days[2]!.assets).toEqual([
      { asset: 'BTC', count: 1, volume: '2.25' },
      { asset: 'USDT', count: 1, volume: '1.5' },
    ]);
    expect(s.days[0]!.assets).toEqual([]);
  });

  it('an end at local midnight (--end as a bare date) lists no day of its own, unless a transfer came at that instant', () => {
    const midnight = new Date(2026, 10, 25).getTime();
    const range = { startTime: new Date(2026, 10, 24).getTime(), endTime: midnight, now: midnight + 5 * DAY };
    expect(summarize([transfer({ timestamp: midnight - 60_000 })], range).days.map((d) => [d.day, d.count])).toEqual([['2026-11-24', 1]]);
    expect(summarize([transfer({ timestamp: midnight })], range).days.map((d) => [d.day, d.count])).toEqual([
      ['2026-11-24', 0],
      ['2026-11-25', 1],
    ]);
    expect(summarize([], { ...range, endTime: midnight + 1 }).days.map((d) => d.day)).toEqual(['2026-11-24', '2026-11-25']);
  });

  it('without a start, the days begin at the oldest transfer; a start decades back begins there too', () => {
    const list = [transfer({ timestamp: START + DAY }), transfer({ timestamp: START + 3 * DAY })];
    const first = summarize(list, { now: START + 3 * DAY }).days;
    expect(first.map((d) => d.day)).toEqual([dayOf(START + DAY), dayOf(START + 2 * DAY), dayOf(START + 3 * DAY)]);
    const far = summarize(list, { startTime: 0, now: START + 3 * DAY }).days;
    expect(far).toEqual(first);
    expect(daysFrom('1970-01-01', '2026-11-21')).toBeUndefined();
    expect(daysFrom('2026-01-01', '2026-12-31')).toHaveLength(365);
    expect(daysFrom('2015-01-01', '2026-01-01', MAX_EMPTY_RANGE_DAYS)).toBeUndefined();
  });

  it('an end in the future lists no day after today (no years of empty days)', () => {
    const s = summarize([transfer({ timestamp: START + DAY })], { startTime: START, endTime: START + 3 * 365 * DAY, now: START + 2 * DAY });
    expect(s.days.map((d) => [d.day, d.count])).toEqual([
      [dayOf(START), 0],
      [dayOf(START + DAY), 1],
      [dayOf(START + 2 * DAY), 0],
    ]);
  });

  it('a transfer after the end of the range (a clock ahead) still gets its day; no transfers and no start: no days', () => {
    const s = summarize([transfer({ timestamp: START + 2 * DAY })], { startTime: START, endTime: START, now: START });
    expect(s.days.at(-1)!.day).toBe(dayOf(START + 2 * DAY));
    expect(summarize([], { now: START }).days).toEqual([]);
    expect(localDay(START)).toBe(dayOf(START));
  });
});

describe('the bars', () => {
  it('scale to the cells in eighths: the largest fills them, a value not zero is never empty, zero is', () => {
    expect(barText(new Big(8), new Big(8), 10)).toBe('█'.repeat(10));
    expect(barText(new Big(4), new Big(8), 10)).toBe('█'.repeat(5));
    expect(barText(new Big(1), new Big(8), 2)).toBe('▎');
    expect(barText(new Big('1e-30'), new Big(8), 10)).toBe('▏');
    expect(barText(new Big(0), new Big(8), 10)).toBe('');
    expect(barText(new Big(-8), new Big(8), 3)).toBe('███');
    expect(barText(new Big(1), new Big(0), 3)).toBe('');
  });

  it('never longer than the cells, and longer for a larger value', () => {
    fc.assert(
      fc.property(decimal, decimal, decimal, fc.integer({ min: 1, max: 200 }), (a, b, m, cells) => {
        const [x, y] = [new Big(a.replace(/^\+/, '')).abs(), new Big(b.replace(/^\+/, '')).abs()].sort((p, q) => p.cmp(q)) as [Big, Big];
        const max = [x, y, new Big(m.replace(/^\+/, '')).abs()].reduce((p, q) => (q.gt(p) ? q : p));
        const eighths = (bar: string) => [...bar].reduce((n, ch) => n + (ch === '█' ? 8 : ['▏', '▎', '▍', '▌', '▋', '▊', '▉'].indexOf(ch) + 1), 0);
        const small = barText(x, max, cells);
        const large = barText(y, max, cells);
        expect([...large].length).toBeLessThanOrEqual(cells);
        expect(eighths(small)).toBeLessThanOrEqual(eighths(large));
      }),
    );
  });
});
