// Seeded universal-transfer history: 24,000 records over the last 120 days, newest first (or as many as
// `sandbox --transfers N` asks, over the same 120 days). Kept in columns (who, which types, when, a
// per-record seed); the rest of a record is derived from its seed only when it is served. The same seed
// and count give the same records.
import { ALNUM, createRng, weightedPicker, type Rng } from './prng';
import { DAY_MS, HISTORY_DAYS, type WireTransfer } from './model';

export const SEEDED_TRANSFER_COUNT = 24_000;
/**
 * The most transfers a sandbox holds: 4,000,000 (about 170 times the default), bounded so that laying them
 * out stays a matter of seconds and their columns and index of megabytes (the sandbox keeps them in memory).
 */
export const MAX_SEEDED_TRANSFERS = 4_000_000;
/** Records built when served are kept up to this many transfers; a larger history builds them each time. */
const KEEP_BUILT_UP_TO = 100_000;

/** Account type pairs by index: the `pair` column holds these. */
export const TYPE_PAIRS: readonly (readonly [string, string])[] = [
  ['SPOT', 'SPOT'],
  ['SPOT', 'FUTURE'],
  ['FUTURE', 'SPOT'],
  ['FUTURE', 'FUTURE'],
];
const pickPair = weightedPicker<number>([
  [0, 40],
  [1, 25],
  [2, 25],
  [3, 10],
]);

interface AssetProfile {
  min: number;
  max: number;
  maxDecimals: number;
}

const ASSETS: Readonly<Record<string, AssetProfile>> = {
  USDT: { min: 1, max: 250_000, maxDecimals: 4 },
  USDC: { min: 1, max: 150_000, maxDecimals: 4 },
  BTC: { min: 0.0001, max: 3, maxDecimals: 8 },
  ETH: { min: 0.001, max: 60, maxDecimals: 8 },
  SOL: { min: 0.05, max: 1_500, maxDecimals: 4 },
  MX: { min: 1, max: 80_000, maxDecimals: 2 },
};
const pickAsset = weightedPicker<string>([
  ['USDT', 40],
  ['BTC', 15],
  ['ETH', 15],
  ['USDC', 12],
  ['SOL', 10],
  ['MX', 8],
]);
// The statuses a universal transfer is documented to take (SUCCESS, FAILED, WAIT while processed): docs/live-service.md.
const pickStatus = weightedPicker<string>([
  ['SUCCESS', 94],
  ['FAILED', 6],
]);
const FUTURE_SYMBOLS: Readonly<Record<string, string>> = { BTC: 'BTCUSDT', ETH: 'ETHUSDT', SOL: 'SOLUSDT', MX: 'MXUSDT' };

export interface TransferTable {
  count: number;
  /** Account names by id; id 0 is the master account. */
  accounts: readonly string[];
  /** Newest first. */
  timestamps: Float64Array;
  from: Uint8Array;
  to: Uint8Array;
  /** Index into TYPE_PAIRS. */
  pair: Uint8Array;
  /** The full record at position i (newest first), built on first use and then kept. */
  at(i: number): WireTransfer;
}

/** What a seed draws for its history, whatever the anchor: ages (newest first), accounts, types, record seeds. */
interface SeededHistory {
  ages: Float64Array;
  from: Uint8Array;
  to: Uint8Array;
  pair: Uint8Array;
  seeds: Uint32Array;
  tranBase: number;
}

/**
 * The last few histories drawn in this process, by seed, accounts and count: the tests start hundreds of sandboxes
 * of the same seed, each at its own anchor. Only the usual sizes (a large history is drawn each time, memory flat).
 */
const drawn = new Map<string, SeededHistory>();
const DRAWN_KEPT = 4;

/** The next history is drawn afresh (the tests check a kept one is the one a fresh draw gives). */
export function forgetDrawnHistories(): void {
  drawn.clear();
}

function drawHistory(seed: number, subAccounts: readonly string[], count: number): SeededHistory {
  const key = `${seed}\u0000${count}\u0000${subAccounts.join('\u0000')}`;
  const known = drawn.get(key);
  if (known) return known;
  const rng = createRng(seed, 2);
  const span = HISTORY_DAYS * DAY_MS - 2_000;
  const ages = new Float64Array(count);
  for (let i = 0; i < count; i++) ages[i] = 1_000 + Math.floor(rng.next() * span);
  ages.sort(); // youngest first = newest first

  // Some sub-accounts are far busier than others.
  const pickSub = weightedPicker(rng.shuffle(subAccounts.map((_, i) => i + 1)).map((id, rank) => [id, 1 / (rank + 1)] as const));
  const tranBase = 660_000_000 + rng.int(0, 9_999_999);
  const from = new Uint8Array(count);
  const to = new Uint8Array(count);
  const pair = new Uint8Array(count);
  const seeds = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    seeds[i] = rng.uint32();
    const route = rng.next();
    if (route < 0.3) {
      pair[i] = rng.chance(0.5) ? 1 : 2; // master → master moves between SPOT and FUTURE
      continue;
    }
    pair[i] = pickPair(rng.next());
    if (route < 0.55) to[i] = pickSub(rng.next());
    else if (route < 0.8) from[i] = pickSub(rng.next());
    else {
      const a = pickSub(rng.next());
      let b = pickSub(rng.next());
      while (b === a) b = pickSub(rng.next());
      from[i] = a;
      to[i] = b;
    }
  }
  const history = { ages, from, to, pair, seeds, tranBase };
  if (count <= KEEP_BUILT_UP_TO) {
    if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value as string);
    drawn.set(key, history);
  }
  return history;
}

/**
 * Lays the history out back from `anchorMs` (the server clock at start): the same seed gives the same
 * records at the same distance from the anchor.
 */
export function seedTransfers(seed: number, anchorMs: number, master: string, subAccounts: readonly string[], count = SEEDED_TRANSFER_COUNT): TransferTable {
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_SEEDED_TRANSFERS) {
    throw new RangeError(`the transfer count must be a whole number from 0 to ${MAX_SEEDED_TRANSFERS} (got ${count})`);
  }
  // Shared between sandboxes of one process: never written after it is drawn.
  const { ages, from, to, pair, seeds, tranBase } = drawHistory(seed, subAccounts, count);
  const accounts = [master, ...subAccounts];
  const timestamps = new Float64Array(count);
  for (let i = 0; i < count; i++) timestamps[i] = anchorMs - (ages[i] as number);

  // Kept once built for the usual sizes; a large history builds them again (a few µs each), so memory stays flat.
  const built: (WireTransfer | undefined)[] | undefined = count <= KEEP_BUILT_UP_TO ? new Array(count) : undefined;
  const at = (i: number): WireTransfer => {
    const cached = built?.[i];
    if (cached) return cached;
    const types = TYPE_PAIRS[pair[i] as number] as readonly [string, string];
    const record = seedDetails(createRng(seeds[i] as number, 9), {
      seq: count - i, // older records get smaller ids
      tranBase,
      fromAccount: accounts[from[i] as number] as string,
      toAccount: accounts[to[i] as number] as string,
      types,
      timestamp: timestamps[i] as number,
      age: ages[i] as number,
    });
    if (built) built[i] = record;
    return record;
  };
  return { count, accounts, timestamps, from, to, pair, at };
}

interface RecordFrame {
  seq: number;
  tranBase: number;
  fromAccount: string;
  toAccount: string;
  types: readonly [string, string];
  timestamp: number;
  age: number;
}

function seedDetails(rng: Rng, f: RecordFrame): WireTransfer {
  const asset = pickAsset(rng.next());
  return {
    tranId: `${f.tranBase + f.seq * 41 + rng.int(0, 40)}${rng.chars('0123456789', 9)}`,
    fromAccount: f.fromAccount,
    toAccount: f.toAccount,
    clientTranId: rng.chars(ALNUM, 32),
    asset,
    amount: seedAmount(rng, ASSETS[asset] as AssetProfile),
    fromAccountType: f.types[0],
    toAccountType: f.types[1],
    fromSymbol: symbolFor(rng, f.types[0], asset),
    toSymbol: symbolFor(rng, f.types[1], asset),
    status: seedStatus(rng, f.age),
    timestamp: f.timestamp,
  };
}

/** Log-uniform size, varying precision, formatted from an integer so no float noise gets in. */
function seedAmount(rng: Rng, profile: AssetProfile): string {
  const value = Math.exp(Math.log(profile.min) + rng.next() * (Math.log(profile.max) - Math.log(profile.min)));
  const decimals = rng.int(Math.min(2, profile.maxDecimals), profile.maxDecimals);
  const units = Math.max(1, Math.round(value * 10 ** decimals));
  return formatUnits(units, decimals);
}

export function formatUnits(units: number, decimals: number): string {
  const digits = String(units).padStart(decimals + 1, '0');
  if (decimals === 0) return digits;
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function symbolFor(rng: Rng, accountType: string, asset: string): string {
  if (accountType !== 'FUTURE' || !rng.chance(0.15)) return '';
  return FUTURE_SYMBOLS[asset] ?? rng.pick(Object.values(FUTURE_SYMBOLS));
}

function seedStatus(rng: Rng, age: number): string {
  if (age < 3 * DAY_MS && rng.chance(0.08)) return 'WAIT';
  return pickStatus(rng.next());
}
