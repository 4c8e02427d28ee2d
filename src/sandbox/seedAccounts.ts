// Seeded master credentials, sub-accounts and their API keys: natural-looking, deterministic per seed.
import { KNOWN_PERMISSIONS } from '../api/types';
import { createRng, HEX, LOWER_ALNUM, type Rng } from './prng';
import { DAY_MS, type MasterAccount, type WireKey } from './model';

const MASTER_ACCOUNT_NAME = 'master';
/** A sub-account every seed has, frozen: every operation on it answers 140002 (it has no keys and no transfers). */
export const FROZEN_SUB_ACCOUNT = 'frozendesk01';

const NAME_STEMS = [
  'deskalpha',
  'deskbeta',
  'deskgamma',
  'mmbot',
  'arbdesk',
  'otcdesk',
  'treasury',
  'hedgebook',
  'gridbot',
  'quantlab',
  'liquidity',
  'clientvip',
  'retailpool',
  'custody',
  'makerbot',
  'delta',
  'fundingarb',
  'basisdesk',
  'payouts',
  'settlement',
  'apacdesk',
  'emeadesk',
  'latamdesk',
  'research',
] as const;

const NOTES = [
  'trading bot',
  'read-only reporting',
  'market making EU',
  'market making APAC',
  'grid strategy',
  'tax export',
  'backup key',
  'quant team',
  'risk monitor',
  'rebalancer',
  'accounting sync',
  'arbitrage engine',
  'dashboard',
  'ops on-call',
  'hedging service',
  'settlement job',
] as const;

/** Typical permission sets; some keys get a random mix instead. */
const PERMISSION_SETS: readonly (readonly string[])[] = [
  ['SPOT_ACCOUNT_READ'],
  ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_READ'],
  ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_READ', 'SPOT_DEAL_WRITE'],
  ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE', 'SPOT_DEAL_READ', 'SPOT_DEAL_WRITE'],
  ['CONTRACT_ACCOUNT_READ', 'CONTRACT_DEAL_READ', 'CONTRACT_DEAL_WRITE'],
  ['SPOT_TRANSFER_READ', 'SPOT_ACCOUNT_READ'],
  ['SPOT_DEPOSIT_READ', 'SPOT_WITHDRAW_READ'],
];

interface SeededAccounts {
  master: MasterAccount;
  /** Sub-account name → its keys, oldest first. */
  subAccounts: Map<string, WireKey[]>;
  /** Sub-accounts the service forbids (140002): named apart, so the seeded data of the others stays as it was. */
  frozen: string[];
}

/** An API key id as the service shapes them: "mx0v" and 28 lowercase letters and digits. */
function apiKeyFrom(rng: Rng): string {
  return `mx0v${rng.chars(LOWER_ALNUM, 28)}`;
}

function seedMaster(seed: number): MasterAccount {
  const rng = createRng(seed, 0);
  return { name: MASTER_ACCOUNT_NAME, apiKey: apiKeyFrom(rng), secretKey: rng.chars(HEX, 64) };
}

/** The sub-accounts' names, the first draws of a seed's accounts (the same names whatever the anchor). */
function drawNames(rng: Rng): string[] {
  const count = rng.int(12, 15);
  const stems = rng.shuffle(NAME_STEMS).slice(0, count);
  return stems.map((stem) => {
    const digits = rng.weighted([
      [2, 3],
      [3, 1],
      [4, 2],
    ] as const);
    const width = Math.max(digits, 8 - stem.length);
    return stem + String(rng.int(1, 10 ** Math.min(digits, width) - 1)).padStart(width, '0');
  });
}

/** A seed's sub-account names, in the sandbox's order, without seeding the rest (the demo's first frame). */
export function seededSubAccountNames(seed: number): string[] {
  return drawNames(createRng(seed, 1));
}

/** The demo's offered names: the seeded ones, then the frozen one (so the demo shows what 140002 looks like). */
export function demoSubAccountNames(seed: number): string[] {
  return [...seededSubAccountNames(seed), FROZEN_SUB_ACCOUNT];
}

export function seedAccounts(seed: number, anchorMs: number): SeededAccounts {
  const rng = createRng(seed, 1);
  const names = drawNames(rng);
  // Every seed shows an empty sub-account and a busy one.
  const keyCounts = names.map(() => rng.int(0, 6));
  const [emptyAt, busyAt] = rng.shuffle(names.map((_, i) => i));
  keyCounts[emptyAt as number] = 0;
  keyCounts[busyAt as number] = 6;

  const subAccounts = new Map<string, WireKey[]>();
  names.forEach((name, i) => {
    const keys: WireKey[] = [];
    for (let k = 0; k < (keyCounts[i] ?? 0); k++) keys.push(seedKey(rng, anchorMs));
    keys.sort((a, b) => a.creatTime - b.creatTime);
    subAccounts.set(name, keys);
  });
  return { master: seedMaster(seed), subAccounts, frozen: [FROZEN_SUB_ACCOUNT] };
}

function seedKey(rng: Rng, anchorMs: number): WireKey {
  const permissions = rng.chance(0.7) ? rng.pick(PERMISSION_SETS) : KNOWN_PERMISSIONS.filter(() => rng.chance(0.25));
  const ipCount = rng.weighted([
    [0, 4],
    [1, 3],
    [2, 2],
    [3, 1],
    [4, 1],
  ] as const);
  const ips: string[] = [];
  for (let i = 0; i < ipCount; i++) ips.push(seedIp(rng));
  return {
    note: rng.pick(NOTES),
    apiKey: apiKeyFrom(rng),
    permissions: (permissions.length > 0 ? permissions : ['SPOT_ACCOUNT_READ']).join(','),
    ip: ips.join(','),
    creatTime: anchorMs - rng.int(DAY_MS, 400 * DAY_MS),
  };
}

/** Addresses from the documentation ranges (RFC 5737 / RFC 3849): realistic and harmless. */
function seedIp(rng: Rng): string {
  if (rng.chance(0.1)) return `2001:db8::${rng.int(1, 0xffff).toString(16)}`;
  const net = rng.pick(['192.0.2', '198.51.100', '203.0.113'] as const);
  return `${net}.${rng.int(1, 254)}`;
}
