// The sandbox's records, kept in wire shape (as the service spells them) so handlers answer them as they are.

/** An API key as the list operation returns it (note the spelling creatTime). */
export interface WireKey {
  note: string;
  apiKey: string;
  permissions: string;
  ip: string;
  creatTime: number;
}

/** The create operation's answer, the id spelled `apiKey` as the broker docs' current page spells it; `ip` is left out when none was sent. */
export interface WireCreatedKey {
  subAccount: string;
  note: string;
  apiKey: string;
  secretKey: string;
  permissions: string;
  ip?: string;
  createTime: number;
}

export interface WireTransfer {
  tranId: string;
  fromAccount: string;
  toAccount: string;
  clientTranId: string;
  asset: string;
  amount: string;
  fromAccountType: string;
  toAccountType: string;
  fromSymbol: string;
  toSymbol: string;
  status: string;
  timestamp: number;
}

export interface MasterAccount {
  name: string;
  apiKey: string;
  secretKey: string;
}

export const DAY_MS = 86_400_000;
/** How far back the seeded transfer history reaches. */
export const HISTORY_DAYS = 120;
