// Which sub-accounts a page of transfers names, read with the query that asked for it. The service's docs have no list of
// sub-accounts, but every transfer names its two accounts. Who is the master: the service's docs say an account left
// blank in the query is the master, so the value the service writes on a blank side is the master's own name
// (the sandbox writes "master"; another service may write its id, or nothing) and is never listed.
import { timeOrder } from '../api/serviceTime';
import type { Transfer, TransferQuery } from '../api/types';

/** What pages of transfers taught so far: sub-accounts with their latest transfer, and the master's names. */
export class AccountSightings {
  private readonly subs = new Map<string, number>();
  private readonly master = new Set<string>();
  /** Pairs of accounts where one is the master, not yet known which (see `add`): the latest time per pair. */
  private readonly undecided = new Map<string, { a: string; b: string; at: number }>();

  /**
   * Reads one page. A side named in the query is that account (a sub-account, unless it is the master's own
   * name). A blank side is the master, with one exception: when both sides were blank and a transfer goes
   * between two different accounts, the service answered more than "master to master" (as a similar
   * exchange's history does: both blank means "from the master, to anyone"), so one of the two is a
   * sub-account; which one is decided once the master's name is known.
   */
  add(query: Pick<TransferQuery, 'fromAccount' | 'toAccount'>, rows: readonly Transfer[]): void {
    const fromNamed = isNamed(query.fromAccount);
    const toNamed = isNamed(query.toAccount);
    for (const row of rows) {
      const at = timeOrder(row.timestamp);
      if (!fromNamed && !toNamed && row.fromAccount !== row.toAccount) {
        const key = `${row.fromAccount}\u0000${row.toAccount}`;
        const before = this.undecided.get(key);
        if (!before || at > before.at) this.undecided.set(key, { a: row.fromAccount, b: row.toAccount, at });
        continue;
      }
      this.side(row.fromAccount, fromNamed, at);
      this.side(row.toAccount, toNamed, at);
    }
  }

  /** Sub-accounts seen, most recently active first (the master's names left out). */
  subAccounts(): Array<{ name: string; lastTransferTime: number }> {
    const found = new Map(this.subs);
    for (const { a, b, at } of this.undecided.values()) {
      const sub = this.master.has(a) ? b : this.master.has(b) ? a : undefined;
      if (sub !== undefined && sub !== '') found.set(sub, Math.max(at, found.get(sub) ?? -Infinity));
    }
    for (const name of this.master) found.delete(name);
    return [...found]
      .map(([name, lastTransferTime]) => ({ name, lastTransferTime }))
      .sort((x, y) => y.lastTransferTime - x.lastTransferTime || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }

  /** How many sub-accounts are known now (cheap enough for every page's progress). */
  get count(): number {
    return this.subAccounts().length;
  }

  private side(value: string, named: boolean, at: number): void {
    if (value === '') return;
    if (!named) {
      this.master.add(value);
      return;
    }
    const before = this.subs.get(value);
    if (before === undefined || at > before) this.subs.set(value, at);
  }
}

function isNamed(account: string | undefined): boolean {
  return account !== undefined && account.trim() !== '';
}

/** The sub-accounts one page names (for pages fetched by the transfer browser): empty when it names none. */
export function subAccountsInPage(
  query: Pick<TransferQuery, 'fromAccount' | 'toAccount'>,
  rows: readonly Transfer[],
): Array<{ name: string; lastTransferTime: number }> {
  const sightings = new AccountSightings();
  sightings.add(query, rows);
  return sightings.subAccounts();
}
