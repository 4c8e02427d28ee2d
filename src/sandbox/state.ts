// Everything the sandbox serves: accounts seeded at start, the transfer history laid out on its first use
// (so a large `--transfers N` does not slow the start); created keys are added for the server's lifetime.
import { buildTransferIndex, type TransferIndex } from './transferIndex';
import type { MasterAccount, WireKey } from './model';
import { seedAccounts } from './seedAccounts';
import { SEEDED_TRANSFER_COUNT, seedTransfers, type TransferTable } from './seedTransfers';

export interface SandboxState {
  master: MasterAccount;
  /** Sub-account name → its keys, in creation order. */
  subAccounts: Map<string, WireKey[]>;
  /** Sub-accounts that exist but are forbidden: every operation on one answers 140002. */
  frozenSubAccounts: ReadonlySet<string>;
  /** Laid out on first use, from the seed, the anchor and the count given at creation. */
  readonly transfers: TransferTable;
  readonly transferIndex: TransferIndex;
}

export function createState(seed: number, anchorMs: number, transferCount: number = SEEDED_TRANSFER_COUNT): SandboxState {
  const { master, subAccounts, frozen } = seedAccounts(seed, anchorMs);
  const names = [...subAccounts.keys()];
  let table: TransferTable | undefined;
  let index: TransferIndex | undefined;
  const transfers = (): TransferTable => (table ??= seedTransfers(seed, anchorMs, master.name, names, transferCount));
  return {
    master,
    subAccounts,
    frozenSubAccounts: new Set(frozen),
    get transfers() {
      return transfers();
    },
    get transferIndex() {
      return (index ??= buildTransferIndex(transfers()));
    },
  };
}
