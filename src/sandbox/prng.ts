// A small seeded PRNG (mulberry32) and the helpers the seeded data is drawn with. Same seed, same data.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform 32-bit unsigned integer. */
  uint32(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  shuffle<T>(items: readonly T[]): T[];
  /** A string of `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string;
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';

/** mulberry32: 32-bit state, fast, good enough for demo data. Returns unsigned 32-bit integers. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Independent streams per purpose, so adding draws to one does not shift the others. */
export function createRng(seed: number, stream: number): Rng {
  const uint32 = mulberry32(Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b));
  const next = (): number => uint32() / 4294967296;
  const codes: number[] = [];
  const rng: Rng = {
    next,
    uint32,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    weighted: <T>(items: readonly (readonly [T, number])[]): T => weightedPicker(items)(next()),
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
    chars: (alphabet, length) => {
      // Several characters per draw: as many as the alphabet size fits into 32 bits.
      const base = alphabet.length;
      const perDraw = Math.max(1, Math.floor(32 / Math.log2(base)));
      codes.length = length;
      let i = 0;
      while (i < length) {
        let draw = uint32();
        for (let k = 0; k < perDraw && i < length; k++, i++) {
          codes[i] = alphabet.charCodeAt(draw % base);
          draw = Math.floor(draw / base);
        }
      }
      return String.fromCharCode(...codes);
    },
  };
  return rng;
}

/** Precomputes cumulative weights once; the returned function maps a uniform draw in [0, 1) to an item. */
export function weightedPicker<T>(items: readonly (readonly [T, number])[]): (draw: number) => T {
  const values = items.map((item) => item[0]);
  const edges: number[] = [];
  let total = 0;
  for (const item of items) edges.push((total += item[1]));
  const last = values.length - 1;
  return (draw) => {
    const r = draw * total;
    for (let i = 0; i < last; i++) if (r < (edges[i] as number)) return values[i] as T;
    return values[last] as T;
  };
}
