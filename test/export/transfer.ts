// A domain transfer for writer tests: a plain SPOT→FUTURE SUCCESS row, with what a test needs changed.
import type { Transfer } from '../../src/api/types';

export function transfer(overrides: Partial<Transfer> = {}): Transfer {
  return {
    tranId: '1',
    fromAccount: '',
    toAccount: 'desk',
    clientTranId: '',
    asset: 'USDT',
    amount: '-12.5',
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: 1_763_726_400_000,
    ...overrides,
  };
}
