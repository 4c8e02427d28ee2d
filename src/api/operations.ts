// The three typed operations: each one describes its request and maps the wire answer to domain types.
import type { BrokerApi, ClientConfig } from './contract';
import { BrokerError } from './errors';
import { unreadableAnswers } from './answerShape';
import { createSignedClient } from './http';
import { WireCreatedKey, WireKeyList, type WireListedKeyOutput, WireTransferList, type WireTransferOutput, plainTransferList } from './schemas';
import { type CreatedKey, DEFAULT_PAGE_SIZE, type NewKeyRequest, type ServiceTime, type SubAccountKey, type Transfer } from './types';

export const API_KEY_PATH = '/api/v3/broker/sub-account/apiKey';
export const UNIVERSAL_TRANSFER_PATH = '/api/v3/broker/sub-account/universalTransfer';

/** Operation names as the operator reads them at the start of an error line. */
export const OPERATION_LABELS = {
  listSubAccountKeys: 'list keys',
  createSubAccountKey: 'create key',
  listUniversalTransfers: 'list transfers',
} as const;

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The most bytes each operation's answer may have; docs/design.md (Bounds) says why each is enough. Past it the
 * request is aborted and the command says so; memory never holds more than this (plus its parse).
 */
const ANSWER_LIMITS = {
  listSubAccountKeys: 1 * MiB,
  createSubAccountKey: 64 * KiB,
  listUniversalTransfers: 4 * MiB,
} as const;

/** Times kept as their text when parsing could change them: a time beyond 2^53 keeps its digits. */
const TIME_KEYS = ['creatTime', 'createTime'] as const;
/** A transfer's ids and time kept as their text when parsing could change them (beyond 2^53, a fraction). */
const TRANSFER_LONG_KEYS = ['tranId', 'clientTranId', 'timestamp'] as const;

/** "A, B,,C" → ["A", "B", "C"]: the service joins permissions and IPs with commas in one string. */
export function splitCommaList(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function joinCommaList(values: readonly string[] | undefined): string | undefined {
  const parts = (values ?? []).map((value) => value.trim()).filter((value) => value !== '');
  return parts.length === 0 ? undefined : parts.join(',');
}

export function toSubAccountKey(wire: WireListedKeyOutput): SubAccountKey {
  return {
    note: wire.note,
    // Either spelling; the schema makes sure one came.
    apiKey: (wire.apiKey ?? wire.apikey) as string,
    permissions: splitCommaList(wire.permissions),
    ips: splitCommaList(wire.ip),
    // Either spelling; the schema makes sure one came.
    createdAt: (wire.creatTime ?? wire.createTime) as ServiceTime,
  };
}

export function toTransfer(wire: WireTransferOutput): Transfer {
  return {
    tranId: wire.tranId,
    fromAccount: wire.fromAccount,
    toAccount: wire.toAccount,
    clientTranId: wire.clientTranId,
    asset: wire.asset,
    amount: wire.amount,
    fromAccountType: wire.fromAccountType,
    toAccountType: wire.toAccountType,
    fromSymbol: wire.fromSymbol,
    toSymbol: wire.toSymbol,
    status: wire.status,
    timestamp: wire.timestamp,
  };
}

export function createBrokerApi(config: ClientConfig): BrokerApi {
  const client = createSignedClient(config);

  return {
    async listSubAccountKeys(subAccount, options) {
      const wire = await client.request({
        operation: OPERATION_LABELS.listSubAccountKeys,
        method: 'GET',
        path: API_KEY_PATH,
        query: [['subAccount', subAccount]],
        schema: WireKeyList,
        maxBytes: ANSWER_LIMITS.listSubAccountKeys,
        longNumbersAsText: TIME_KEYS,
        signal: options?.signal,
        onExchange: options?.onExchange,
        onWait: options?.onWait,
        onSending: options?.onSending,
      });
      return wire.subAccount.map(toSubAccountKey);
    },

    async createSubAccountKey(request: NewKeyRequest, options): Promise<CreatedKey> {
      const permissions = joinCommaList(request.permissions);
      const wire = await client.request({
        operation: OPERATION_LABELS.createSubAccountKey,
        method: 'POST',
        path: API_KEY_PATH,
        nothingDone: 'no key was created',
        body: [
          ['subAccount', request.subAccount],
          ['permissions', permissions ?? ''],
          ['ip', joinCommaList(request.ips)],
          ['note', request.note],
        ],
        schema: WireCreatedKey,
        maxBytes: ANSWER_LIMITS.createSubAccountKey,
        longNumbersAsText: TIME_KEYS,
        signal: options?.signal,
        onExchange: options?.onExchange,
        onWait: options?.onWait,
        onSending: options?.onSending,
      });
      // The secret is shown once: fields the answer leaves out fall back to what was asked, never to an error.
      return {
        subAccount: wire.subAccount ?? request.subAccount,
        note: wire.note ?? request.note,
        apiKey: wire.apiKey ?? wire.apikey ?? '',
        secretKey: wire.secretKey,
        permissions: wire.permissions == null ? splitCommaList(permissions) : splitCommaList(wire.permissions),
        // The service's own sample answer has no ip field: the key was asked for with these.
        ips: splitCommaList(wire.ip ?? joinCommaList(request.ips)),
        createdAt: wire.createTime ?? wire.creatTime ?? client.serverNow(),
        ...(unreadableAnswers.has(wire) ? { secretUnreadable: true as const } : {}),
      };
    },

    async listUniversalTransfers(query, options) {
      const wire = await client.request({
        operation: OPERATION_LABELS.listUniversalTransfers,
        method: 'GET',
        path: UNIVERSAL_TRANSFER_PATH,
        query: [
          ['clientTranId', query.clientTranId],
          ['fromAccount', query.fromAccount],
          ['toAccount', query.toAccount],
          ['fromAccountType', query.fromAccountType],
          ['toAccountType', query.toAccountType],
          ['startTime', query.startTime],
          ['endTime', query.endTime],
          ['page', query.page],
          ['limit', query.limit],
        ],
        schema: WireTransferList,
        plainRead: plainTransferList,
        maxBytes: ANSWER_LIMITS.listUniversalTransfers,
        // An amount sent as a JSON number keeps its digits as written (0.10 stays "0.10"); ids and times beyond 2^53 too.
        numbersAsText: ['amount'],
        longNumbersAsText: TRANSFER_LONG_KEYS,
        signal: options?.signal,
        onExchange: options?.onExchange,
        onWait: options?.onWait,
        onSending: options?.onSending,
      });
      // The service sends at most the page size asked for (default and maximum 500): more is its error.
      const pageSize = query.limit ?? DEFAULT_PAGE_SIZE;
      if (wire.length > pageSize) {
        throw new BrokerError({
          kind: 'malformed',
          operation: OPERATION_LABELS.listUniversalTransfers,
          status: 200,
          serviceMessage: `a page of ${wire.length} transfers, more than the ${pageSize} asked for: the service did not keep to the page size`,
        });
      }
      return wire.map(toTransfer);
    },

    clockOffsetMs: () => client.clockOffsetMs(),
    reportCutShort: () => client.reportCutShort(),
    heldBack: (operation) => client.heldBack(OPERATION_LABELS[operation]),
    close: () => client.close(),
  };
}
