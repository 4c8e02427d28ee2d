// Wire shapes of the three responses (docs/design.md, the wire quirks). They stop at api/: operations.ts
// maps them to the domain types. Unknown extra fields are ignored; messages never echo received values.
import * as v from 'valibot';
import { DATE_RANGE_MS, NUMBER_TEXT, isDateMs, serviceTimeFromText } from './serviceTime';
import type { ServiceTime } from './types';

/**
 * A time: Unix ms as a number or as a number's text (the client quotes a time parsing would change, so digits
 * beyond 2^53 survive; some gateways quote longs too). Whole ms a Date holds become a number; any other number
 * (beyond the Date range, a fraction) is kept as its exact text, never failing the page.
 */
const Millis = v.union(
  [
    v.pipe(
      v.number('a number'),
      v.finite('a finite number'),
      v.transform((n): ServiceTime => (isDateMs(n) ? n : String(n))),
    ),
    v.pipe(v.string('a number'), v.maxLength(64, 'milliseconds as digits'), v.regex(NUMBER_TEXT, 'milliseconds as digits'), v.transform(serviceTimeFromText)),
  ],
  'Unix milliseconds',
);

/** A text field the service may leave out or send as null. */
const OptionalText = v.nullish(v.string('a string'), '');

/**
 * The amount, exactly as the service wrote it: a decimal in a string stays that string all the way to the
 * screen (never a float). Whatever else comes is kept too, never failing the page: a JSON number as its
 * text (the client quotes numeric amounts before parsing, so their digits survive), null or absent as '',
 * anything else as its JSON text. Whether it is a number at all is for decimal.ts (isDecimalAmount) to say.
 */
const AmountText = v.pipe(
  v.unknown(),
  v.transform((value): string => {
    if (typeof value === 'string') return value;
    if (value === null || value === undefined) return '';
    if (typeof value === 'number') return String(value);
    return JSON.stringify(value) ?? '';
  }),
);

/** An identifier that should be a string; a number is accepted and kept as its decimal text. */
const Id = v.union([v.string(), v.pipe(v.number(), v.transform(String))], 'an identifier');

/**
 * 2.1, one record of the list response. Note the spelling creatTime; createTime (the spelling of the
 * create answer and of the sibling endpoints' key lists) is read too. With both, creatTime is the one taken.
 * The id is apiKey in the service's sample answer (and its current field table), apikey in its older field table: either is read.
 */
const WireListedKey = v.pipe(
  v.object({
    note: OptionalText,
    apiKey: v.optional(v.string('a string')),
    apikey: v.optional(v.string('a string')),
    permissions: OptionalText,
    ip: OptionalText,
    creatTime: v.optional(Millis),
    createTime: v.optional(Millis),
  }),
  v.check((key) => key.apiKey !== undefined || key.apikey !== undefined, 'apiKey: missing (nor apikey)'),
  v.check((key) => key.creatTime !== undefined || key.createTime !== undefined, 'creatTime: missing (nor createTime)'),
);

/** 4.1 response: {"subAccount": [records]}. */
export const WireKeyList = v.object({ subAccount: v.array(WireListedKey, 'a list of keys') }, 'an object with subAccount');

/** A field of the created key that may be absent or odd: unreadable, it counts as absent. */
function lenient<T>(schema: v.GenericSchema<unknown, T>) {
  return v.fallback(v.nullish(schema), undefined);
}

/**
 * 4.2 response (2.2). Spelled createTime here (creatTime in a sibling's docs); the id comes as apiKey (the
 * service's current docs) or apikey (its older docs).
 * Only the key and its secret are required: the secret is shown once, so an otherwise odd answer (a number
 * for the note, an unreadable createTime) must not lose it; those fields fall back to what was asked.
 */
export const WireCreatedKey = v.pipe(
  v.object(
    {
      subAccount: lenient(v.string()),
      note: lenient(v.string()),
      apiKey: lenient(v.string()),
      apikey: lenient(v.string()),
      secretKey: v.pipe(v.string('a string'), v.minLength(1, 'a non-empty secret')),
      permissions: lenient(v.string()),
      ip: lenient(v.string()),
      createTime: lenient(Millis),
      creatTime: lenient(Millis),
    },
    'an object with the created key',
  ),
  v.check((key) => Boolean(key.apiKey ?? key.apikey), 'apiKey: missing'),
);

/**
 * 2.3, one record of the transfer history. The broker docs' sample spells fromSymbol/toSymbol and their field table
 * fromsymbol/tosymbol: either is read (the camel-case one first), and the output has the camel-case names only.
 */
export const WireTransfer = v.pipe(
  v.object({
    tranId: Id,
    fromAccount: OptionalText,
    toAccount: OptionalText,
    clientTranId: OptionalText,
    asset: v.string('a string'),
    amount: AmountText,
    fromAccountType: v.string('a string'),
    toAccountType: v.string('a string'),
    fromSymbol: OptionalText,
    toSymbol: OptionalText,
    fromsymbol: OptionalText,
    tosymbol: OptionalText,
    status: v.string('a string'),
    timestamp: Millis,
  }),
  v.transform(({ fromsymbol, tosymbol, ...record }) => ({
    ...record,
    fromSymbol: record.fromSymbol || fromsymbol,
    toSymbol: record.toSymbol || tosymbol,
  })),
);

/**
 * The transfer list inside {"result":[…],"totalCount":n} or {"rows":[…],"total":n}, or inside a one-element array of
 * either (a sibling's docs show [{"rows":[…],"total":2}]; no transfer record has such a field); anything else as it is.
 */
function resultList(value: unknown): unknown {
  const only = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
  if (typeof only !== 'object' || only === null || Array.isArray(only)) return value;
  const { result, rows } = only as Record<string, unknown>;
  return Array.isArray(result) ? result : Array.isArray(rows) ? rows : value;
}

/** 4.3 response: a JSON array of transfer records (or that array as {"result":[…]} or {"rows":[…]}, bare or alone in an array). */
export const WireTransferList = v.pipe(v.unknown(), v.transform(resultList), v.array(WireTransfer, 'a list of transfers'));

const QUICK_MS = /^(?:0|[1-9]\d{0,14})$/;
const TEXT_FIELDS = ['fromAccount', 'toAccount', 'clientTranId', 'fromSymbol', 'toSymbol'] as const;
const REQUIRED_TEXT = ['asset', 'fromAccountType', 'toAccountType', 'status'] as const;

/**
 * WireTransferList's output for the shape the service sends (every field a string or, where optional, null
 * or absent; the id and amount strings; the time whole, non-negative milliseconds a Date holds, as a number or
 * as up to 15 digits in a string), read without valibot: an export reads a million of them and valibot's
 * general checks cost more each. Anything else (a number id, a longer quoted time, a missing field, a wrong type): undefined, and
 * the schema reads it. test/api/plainTransfers.test.ts checks the
 * two give the same output whenever this one gives any.
 */
export function plainTransferList(answer: unknown): WireTransferOutput[] | undefined {
  const value = resultList(answer);
  if (!Array.isArray(value)) return undefined;
  const out: WireTransferOutput[] = new Array(value.length);
  for (let i = 0; i < value.length; i += 1) {
    const wire: unknown = value[i];
    if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) return undefined;
    const r = wire as Record<string, unknown>;
    const { tranId, amount, timestamp } = r;
    if (typeof tranId !== 'string' || typeof amount !== 'string') return undefined;
    // The field table's lowercase spellings: left to the schema.
    if (r.fromsymbol !== undefined || r.tosymbol !== undefined) return undefined;
    // A quoted time of up to 15 digits (no leading zero) always fits a Date and reads back as the same text.
    let ms: number;
    if (typeof timestamp === 'string' && QUICK_MS.test(timestamp)) ms = Number(timestamp);
    else if (typeof timestamp === 'number' && Number.isInteger(timestamp) && timestamp >= 0 && timestamp <= DATE_RANGE_MS) ms = timestamp;
    else return undefined;
    for (const key of REQUIRED_TEXT) if (typeof r[key] !== 'string') return undefined;
    for (const key of TEXT_FIELDS) {
      const text = r[key];
      if (typeof text !== 'string' && text !== null && text !== undefined) return undefined;
    }
    out[i] = {
      tranId,
      fromAccount: (r.fromAccount as string | null | undefined) ?? '',
      toAccount: (r.toAccount as string | null | undefined) ?? '',
      clientTranId: (r.clientTranId as string | null | undefined) ?? '',
      asset: r.asset as string,
      amount,
      fromAccountType: r.fromAccountType as string,
      toAccountType: r.toAccountType as string,
      fromSymbol: (r.fromSymbol as string | null | undefined) ?? '',
      toSymbol: (r.toSymbol as string | null | undefined) ?? '',
      status: r.status as string,
      timestamp: ms,
    };
  }
  return out;
}

export type WireListedKeyOutput = v.InferOutput<typeof WireListedKey>;
export type WireTransferOutput = v.InferOutput<typeof WireTransfer>;

/** One short line naming where the answer went wrong, e.g. "subAccount.0.creatTime: expected Unix milliseconds". */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (first === undefined) return 'unexpected shape';
  // Every schema above carries its own message naming what was expected; valibot's default messages would
  // quote the received value (possibly a secret), so they are replaced by the bare expectation.
  const expected = first.message.startsWith('Invalid ') ? (first.expected ?? 'another value') : first.message;
  const path = v.getDotPath(first);
  // A key the object needs and the answer left out: valibot reports it with the object's own message.
  const missing = first.kind === 'schema' && first.received === 'undefined' && path !== null && first.type === 'object';
  const text = first.type === 'check' ? first.message : missing ? `${path}: missing` : `${path ?? 'response'}: expected ${expected}`;
  return issues.length > 1 ? `${text} (and ${issues.length - 1} more)` : text;
}
