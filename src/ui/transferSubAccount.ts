// Which sub-account a transfer is of, read with the query that found it: a side the query names is that account,
// a side it leaves blank is the master (the service's rule), so a blank source is the master even where the
// service answered more than master to master.
import type { Transfer, TransferQuery } from '../api/types';
import type { BindingContext } from './keyboard/bindings';

/** What K does on a transfer row or detail (K, not k: k moves, and in the detail scrolls). */
export const SUB_ACCOUNT_KEYS = "Keys of the transfer's sub-account (of two: the destination's)";
/** K stays bound master to master, to say why nothing opens. */
export const noSubAccountReason = ({ noSubAccount }: BindingContext) =>
  noSubAccount ? 'Both sides are the master account: no sub-account keys (K says so)' : undefined;

/** A filter that names neither account: every transfer it finds is the master's own (the service's rule). */
export function namesNoSubAccount(query: Pick<TransferQuery, 'fromAccount' | 'toAccount'>): boolean {
  return !query.fromAccount?.trim() && !query.toAccount?.trim();
}

type TransferSubAccount = { ok: true; subAccount: string } | { ok: false; reason: string };

export function subAccountOfTransfer(query: Pick<TransferQuery, 'fromAccount' | 'toAccount'>, transfer: Transfer): TransferSubAccount {
  const named = (account: string | undefined) => account !== undefined && account.trim() !== '';
  const from = named(query.fromAccount) && transfer.fromAccount !== '' ? transfer.fromAccount : undefined;
  // Both sides blank: the source is the master; a destination other than it is a sub-account.
  const to = named(query.toAccount) || (!named(query.fromAccount) && transfer.toAccount !== transfer.fromAccount) ? transfer.toAccount || undefined : undefined;
  // Between two sub-accounts: the destination, where the money went.
  const subAccount = to ?? from;
  return subAccount === undefined ? { ok: false, reason: 'both sides are the master account: no sub-account keys to show' } : { ok: true, subAccount };
}
