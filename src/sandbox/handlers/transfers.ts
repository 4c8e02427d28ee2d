// Universal transfer history (spec §4.3): filters, then page/limit slicing over the seeded records.
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../api/types';
import { parseWholeNumber } from '../auth';
import { paramError } from '../errors';
import { jsonReply, type Reply } from '../reply';
import type { SandboxState } from '../state';

const CLIENT_TRAN_ID = /^[A-Za-z0-9]{32}$/;

export function listTransfers(state: SandboxState, params: URLSearchParams): Reply {
  const fromAccountType = required(params, 'fromAccountType');
  const toAccountType = required(params, 'toAccountType');
  const clientTranId = params.get('clientTranId') ?? undefined;
  if (clientTranId !== undefined && !CLIENT_TRAN_ID.test(clientTranId)) throw paramError('clientTranId');
  const startTime = optionalNumber(params, 'startTime');
  const endTime = optionalNumber(params, 'endTime');
  if (startTime !== undefined && endTime !== undefined && startTime > endTime) throw paramError('startTime');
  const page = optionalNumber(params, 'page') ?? 1;
  if (page < 1) throw paramError('page');
  const limit = optionalNumber(params, 'limit') ?? DEFAULT_PAGE_SIZE;
  if (limit < 1 || limit > MAX_PAGE_SIZE) throw paramError('limit');

  const rows = state.transferIndex.page({
    // Omitted accounts mean the master account (spec §4.3).
    fromAccount: nonEmpty(params.get('fromAccount')) ?? state.master.name,
    toAccount: nonEmpty(params.get('toAccount')) ?? state.master.name,
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
