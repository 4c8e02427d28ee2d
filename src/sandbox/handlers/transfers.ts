// Universal transfer history: filters, then page/limit slicing over the seeded records.
import { ANSWERED_FUTURES_TYPE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../api/types';
import { parseWholeNumber } from '../auth';
import { ERR, SandboxHttpError, paramError } from '../errors';
import { jsonReply, type Reply } from '../reply';
import type { SandboxState } from '../state';

const CLIENT_TRAN_ID = /^[A-Za-z0-9]{32}$/;

// The documented request values, and the answers' spelling of the futures account: both ask for the same records.
const ACCOUNT_TYPES: ReadonlyMap<string, string> = new Map([
  ['SPOT', 'SPOT'],
  ['FUTURES', ANSWERED_FUTURES_TYPE],
  [ANSWERED_FUTURES_TYPE, ANSWERED_FUTURES_TYPE],
]);

export function listTransfers(state: SandboxState, params: URLSearchParams): Reply {
  const fromAccountType = accountType(params, 'fromAccountType');
  const toAccountType = accountType(params, 'toAccountType');
  const clientTranId = params.get('clientTranId') ?? undefined;
  if (clientTranId !== undefined && !CLIENT_TRAN_ID.test(clientTranId)) throw paramError('clientTranId');
  const startTime = optionalNumber(params, 'startTime');
  const endTime = optionalNumber(params, 'endTime');
  if (startTime !== undefined && endTime !== undefined && startTime > endTime) throw paramError('startTime');
  const page = optionalNumber(params, 'page') ?? 1;
  if (page < 1) throw paramError('page');
  const limit = optionalNumber(params, 'limit') ?? DEFAULT_PAGE_SIZE;
  if (limit < 1 || limit > MAX_PAGE_SIZE) throw paramError('limit');

  const fromAccount = nonEmpty(params.get('fromAccount'));
  const toAccount = nonEmpty(params.get('toAccount'));
  for (const name of [fromAccount, toAccount]) {
    if (name !== undefined && state.frozenSubAccounts.has(name)) throw new SandboxHttpError(ERR.subAccountForbidden, `(${name})`);
  }
  const rows = state.transferIndex.page({
    // Omitted accounts mean the master account (the service's documented rule).
    fromAccount: fromAccount ?? state.master.name,
    toAccount: toAccount ?? state.master.name,
    fromAccountType,
    toAccountType,
    startTime,
    endTime,
    clientTranId,
    page,
    limit,
  });
  return jsonReply(rows);
}

function required(params: URLSearchParams, name: string): string {
  const value = nonEmpty(params.get(name));
  if (value === undefined) throw paramError(name);
  return value;
}

/** A wrong account type fails loudly (the service's parameter error) rather than matching nothing. */
function accountType(params: URLSearchParams, name: string): string {
  const type = ACCOUNT_TYPES.get(required(params, name));
  if (type === undefined) throw paramError(name);
  return type;
}

function optionalNumber(params: URLSearchParams, name: string): number | undefined {
  const text = params.get(name);
  if (text === null) return undefined;
  const value = parseWholeNumber(text);
  if (value === undefined) throw paramError(name);
  return value;
}

function nonEmpty(value: string | null): string | undefined {
  return value === null || value === '' ? undefined : value;
}
