// Reading sub-account names out of transfer pages: a blank side of the query is the master (the service's docs) and is
// never listed; a service that answers "both blank" with transfers to other accounts still yields them.
import { describe, expect, it } from 'vitest';
import { AccountSightings, subAccountsInPage } from '../../src/export/transferNames';
import { transfer } from './transfer';

const row = (fromAccount: string, toAccount: string, timestamp: number) => transfer({ fromAccount, toAccount, timestamp });

describe('sub-accounts named by transfer pages', () => {
  it('a named side is the sub-account, the blank side the master, the latest time kept', () => {
    expect(subAccountsInPage({ toAccount: 'desk01' }, [row('master', 'desk01', 5), row('master', 'desk01', 9)])).toEqual([
      { name: 'desk01', lastTransferTime: 9 },
    ]);
    expect(subAccountsInPage({ fromAccount: 'desk01' }, [row('desk01', '', 4)])).toEqual([{ name: 'desk01', lastTransferTime: 4 }]);
    expect(subAccountsInPage({}, [row('master', 'master', 4), row('', '', 5)])).toEqual([]);
    expect(subAccountsInPage({ toAccount: 'x' }, [])).toEqual([]);
  });

  it('the master is never listed, even when typed as a name', () => {
    const s = new AccountSightings();
    s.add({ toAccount: 'master' }, [row('master', 'master', 3)]);
    s.add({ toAccount: 'b' }, [row('master', 'b', 2)]);
    expect(s.subAccounts()).toEqual([{ name: 'b', lastTransferTime: 2 }]);
  });

  it('"both blank" answered with transfers to others: the one that is not the master is listed, once the master is known', () => {
    const s = new AccountSightings();
    s.add({}, [row('root', 'alpha', 10), row('root', 'beta', 20), row('gamma', 'delta', 30)]);
    // Which side is the master is not known yet.
    expect(s.subAccounts()).toEqual([]);
    s.add({ toAccount: 'beta' }, [row('root', 'beta', 15)]);
    expect(s.subAccounts()).toEqual([
      { name: 'beta', lastTransferTime: 20 },
      { name: 'alpha', lastTransferTime: 10 },
    ]);
    expect(s.count).toBe(2);
  });
});
