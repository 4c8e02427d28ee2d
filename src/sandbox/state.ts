// Everything the sandbox serves: seeded once at start; created keys are added for the server's lifetime.
import { buildTransferIndex, type TransferIndex } from './transferIndex';
import type { MasterAccount, WireKey } from './model';
import { seedAccounts } from './seedAccounts';
import { seedTransfers, type TransferTable } from './seedTransfers';

export interface SandboxState {
  master: MasterAccount;
  /** Sub-account name → its keys, in creation order. */
  subAccounts: Map<string, WireKey[]>;
  transfers: TransferTable;
  transferIndex: TransferIndex;
}

export function createState(seed: number, anchorMs: number): SandboxState {
  const { master, subAccounts } = seedAccounts(seed, anchorMs);
  const transfers = seedTransfers(seed, anchorMs, master.name, [...subAccounts.keys()]);
  return { master, subAccounts, transfers, transferIndex: buildTransferIndex(transfers) };
}
