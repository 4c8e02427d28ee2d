// Domain types: what the rest of the program sees. Wire shapes live in schemas.ts and stop at api/.

/**
 * A time as the service sent it: whole Unix ms a Date can hold, as a number; any other number (beyond
 * ±8.64e15 ms or 2^53, a fraction) as its exact text. serviceTime.ts reads, shows and orders both.
 */
export type ServiceTime = number | string;

/** An API key of a sub-account, as listed (the list never carries the secret). */
export interface SubAccountKey {
  note: string;
  apiKey: string;
  permissions: string[];
  ips: string[];
  /** Creation time, Unix ms (or its text when a Date cannot hold it). */
  createdAt: ServiceTime;
}

/** A freshly created key: the only record that ever carries the secret. */
export interface CreatedKey {
  subAccount: string;
  note: string;
  apiKey: string;
  secretKey: string;
  permissions: string[];
  ips: string[];
  createdAt: ServiceTime;
  /** The answer was not valid UTF-8: secretKey is not the service's exact secret. */
  secretUnreadable?: true;
}

export interface NewKeyRequest {
  subAccount: string;
  permissions: string[];
  ips?: string[];
  note: string;
}

export interface Transfer {
  tranId: string;
  fromAccount: string;
  toAccount: string;
  clientTranId: string;
  asset: string;
  /** Decimal in a string, exactly as the service sent it; never a float. */
  amount: string;
  fromAccountType: string;
  toAccountType: string;
  fromSymbol: string;
  toSymbol: string;
  status: string;
  /** Transfer time, Unix ms (or its text when a Date cannot hold it). */
  timestamp: ServiceTime;
}

export interface TransferQuery {
  fromAccountType: string;
  toAccountType: string;
  fromAccount?: string;
  toAccount?: string;
  startTime?: number;
  endTime?: number;
  clientTranId?: string;
  page?: number;
  limit?: number;
}

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 500;
export const MAX_LINKED_IPS = 4;

/** The service's docs (its FAQ): a key with no linked IP expires this many days after it is made. */
export const NO_IP_LIFETIME_DAYS = 90;
export const MAX_KEYS_PER_SUB_ACCOUNT = 30;

/** Known values are offered; others are accepted (the service knows more than it documents). */
export const KNOWN_PERMISSIONS = [
  'SPOT_ACCOUNT_READ',
  'SPOT_ACCOUNT_WRITE',
  'SPOT_DEAL_READ',
  'SPOT_DEAL_WRITE',
  'CONTRACT_ACCOUNT_READ',
  'CONTRACT_ACCOUNT_WRITE',
  'CONTRACT_DEAL_READ',
  'CONTRACT_DEAL_WRITE',
  'SPOT_WITHDRAW_READ',
  'SPOT_WITHDRAW_WRITE',
  'SPOT_TRANSFER_READ',
  'SPOT_TRANSFER_WRITE',
  'SPOT_DEPOSIT_READ',
  'SPOT_DEPOSIT_WRITE',
] as const;

/** The account types offered: the documented request values. Others are accepted and sent as typed. */
export const KNOWN_ACCOUNT_TYPES = ['SPOT', 'FUTURES'] as const;
/** The futures account as the service's answers spell it; accepted in a filter as well. */
export const ANSWERED_FUTURES_TYPE = 'FUTURE';

/** The permission each operation needs on the master key: the specification's, and the broker docs' (docs/live-service.md). */
export const OPERATION_PERMISSIONS = {
  listSubAccountKeys: 'SPOT_ACCOUNT_READ',
  createSubAccountKey: 'SPOT_ACCOUNT_WRITE',
  listUniversalTransfers: 'SPOT_TRANSFER_READ',
} as const;
