// The one validation module for operator input: the commands and the Ink forms call the same
// functions, so the same input gets the same message everywhere. Pure: no I/O; "now" is passed in.
import { isIP } from 'node:net';
import { codePointName, firstMarked } from '../terminal/sanitize';
import { likelyTypo } from './didYouMean';
import { formatLocalTime, parseTime, shorten } from './timeInput';
import { ANSWERED_FUTURES_TYPE, KNOWN_ACCOUNT_TYPES, KNOWN_PERMISSIONS, MAX_LINKED_IPS, MAX_PAGE_SIZE, type NewKeyRequest, type TransferQuery } from './types';

export type FieldName =
  | 'subAccount'
  | 'permissions'
  | 'ip'
  | 'note'
  | 'clientTranId'
  | 'startTime'
  | 'endTime'
  | 'page'
  | 'limit'
  | 'fromAccountType'
  | 'toAccountType'
  | 'fromAccount'
  | 'toAccount';

/** message always starts with "<field>: ", e.g. "ip: at most 4 addresses (got 5)". */
export interface FieldError {
  field: FieldName;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: FieldError };
type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const MAX_SUB_ACCOUNT_LENGTH = 64;
const MAX_ACCOUNT_LENGTH = 64;
const MAX_NOTE_LENGTH = 100;
const MAX_PERMISSION_LENGTH = 64;
const MAX_ACCOUNT_TYPE_LENGTH = 32;
const CLIENT_TRAN_ID_LENGTH = 32;

const PERMISSION_TOKEN = /^[A-Za-z][A-Za-z0-9_]*$/;
const ACCOUNT_TYPE_TOKEN = /^[A-Za-z_]+$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const WHITESPACE = /\s/;

function ok<T>(value: T): Checked<T> {
  return { ok: true, value };
}
function fail<T>(field: FieldName, reason: string): Checked<T> {
  return { ok: false, error: { field, message: `${field}: ${reason}` } };
}
function length(text: string): number {
  return [...text].length;
}

/** A name-like value: trimmed, no whitespace or control characters inside, bounded. */
function checkName(field: FieldName, raw: string, max: number): Checked<string> {
  const value = raw.trim();
  if (value === '') return fail(field, 'required');
  if (CONTROL.test(value)) return fail(field, 'must not contain control characters');
  if (WHITESPACE.test(value)) return fail(field, `must not contain spaces ('${shorten(value)}')`);
  const n = length(value);
  if (n > max) return fail(field, `at most ${max} characters (got ${n})`);
  return ok(value);
}

/** A list of sub-accounts given as commas with no name between them (`--sub ,`). */
export const NO_NAME_IN_LIST = 'subAccount: no name in the list (give --sub A,B)';

export function checkSubAccount(raw: string): Checked<string> {
  // One name: a list given where one is asked for (keys list --sub A,B) is not sent as a name.
  if (raw.includes(',')) return fail('subAccount', `one sub-account, not a list ('${shorten(raw.trim())}')`);
  return checkName('subAccount', raw, MAX_SUB_ACCOUNT_LENGTH);
}

/** Optional source/destination account: blank means "the master account" (undefined). */
export function checkAccount(field: 'fromAccount' | 'toAccount', raw: string | undefined): Checked<string | undefined> {
  if (raw === undefined || raw.trim() === '') return ok(undefined);
  return checkName(field, raw, MAX_ACCOUNT_LENGTH);
}

const KNOWN_BY_UPPER = new Map<string, string>(KNOWN_PERMISSIONS.map((p) => [p, p]));

/**
 * One or more permissions, comma-separated or as a list. Trimmed and de-duplicated (first order kept).
 * A known permission in another case is given its known spelling; other well-formed tokens (e.g.
 * read_only) are accepted as written.
 */
export function checkPermissions(raw: string | readonly string[]): Checked<string[]> {
  // A list (from a form) may carry blank slots; in typed text an empty entry is a mistake worth naming.
  const entries = typeof raw === 'string' ? (raw.trim() === '' ? [] : raw.split(',')) : raw.filter((p) => p.trim() !== '').flatMap((p) => p.split(','));
  const result: string[] = [];
  for (const entry of entries) {
    const token = entry.trim();
    if (token === '') return fail('permissions', 'empty permission between commas');
    if (!PERMISSION_TOKEN.test(token)) {
      return fail('permissions', `'${shorten(token)}' is not a permission name (letters, digits and _, starting with a letter; e.g. SPOT_ACCOUNT_READ)`);
    }
    if (token.length > MAX_PERMISSION_LENGTH) {
      return fail('permissions', `'${shorten(token)}' is longer than ${MAX_PERMISSION_LENGTH} characters`);
    }
    const known = KNOWN_BY_UPPER.get(token.toUpperCase());
    const meant = known === undefined ? likelyTypo(token.toUpperCase(), KNOWN_PERMISSIONS) : undefined;
    if (meant !== undefined) return fail('permissions', `'${shorten(token)}' is not a known permission: did you mean ${meant}?`);
    const canonical = known ?? token;
    if (!result.includes(canonical)) result.push(canonical);
  }
  if (result.length === 0) return fail('permissions', 'at least one is required (e.g. SPOT_ACCOUNT_READ)');
  return ok(result);
}

/**
 * One text per address, whatever way it was written: IPv6 as eight lower-case hex groups without leading
 * zeros (so 2001:DB8:0:0:0:0:0:1 and 2001:db8::1 agree), an IPv4-mapped IPv6 address (::ffff:192.0.2.1,
 * ::ffff:c000:201) as its IPv4 address. Undefined for what is not a single address (isIP decides; an
 * address with a zone index is refused too).
 */
export function canonicalIp(text: string): string | undefined {
  const family = isIP(text);
  if (family === 4) return text;
  // A zone index (fe80::1%eth0) names a link, not an address the service can match.
  if (family !== 6 || text.includes('%')) return undefined;
  let address = text.toLowerCase();
  // A dotted IPv4 tail (::ffff:192.0.2.1, 64:ff9b::1.2.3.4) is two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const words = groups.map((g) => parseInt(g, 16));
  if (words.length !== 8 || words.some((w) => Number.isNaN(w))) return undefined;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    const [hi = 0, lo = 0] = words.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return words.map((w) => w.toString(16)).join(':');
}

/**
 * Linked IPs: comma-separated single IPv4/IPv6 addresses, at most MAX_LINKED_IPS; blank means none. Two
 * spellings of one address (2001:DB8::1 and 2001:db8:0:0:0:0:0:1, ::ffff:192.0.2.1 and 192.0.2.1) are a
 * duplicate, and count once. The addresses are kept as typed.
 */
export function checkIps(raw: string): Checked<string[]> {
  if (raw.trim() === '') return ok([]);
  const parts = raw.split(',');
  const ips: string[] = [];
  const seen = new Map<string, string>();
  for (const [index, part] of parts.entries()) {
    const ip = part.trim();
    if (ip === '') {
      const where = index === 0 ? 'before the first comma' : index === parts.length - 1 ? 'after the last comma' : 'between commas';
      return fail('ip', `empty address ${where}`);
    }
    if (ip.includes('/')) return fail('ip', `'${shorten(ip)}' is a range (CIDR); give single addresses`);
    if (ip.includes('%')) return fail('ip', `'${shorten(ip)}' has a zone index (%…); give the address alone`);
    const key = canonicalIp(ip);
    if (key === undefined && ip.split(/\s+/).every((part) => canonicalIp(part) !== undefined)) {
      return fail('ip', `'${shorten(ip)}' is several addresses: separate them with commas`);
    }
    if (key === undefined) return fail('ip', `'${shorten(ip)}' is not an IPv4 or IPv6 address`);
    const earlier = seen.get(key);
    if (earlier === ip) return fail('ip', `'${shorten(ip)}' is listed twice`);
    if (earlier !== undefined) return fail('ip', `'${shorten(ip)}' is the same address as '${shorten(earlier)}' (listed twice)`);
    seen.set(key, ip);
    ips.push(ip);
  }
  if (ips.length > MAX_LINKED_IPS) return fail('ip', `at most ${MAX_LINKED_IPS} addresses (got ${ips.length})`);
  return ok(ips);
}

export function checkNote(raw: string): Checked<string> {
  const value = raw.trim();
  if (value === '') return fail('note', 'required (a short description of the key)');
  if (CONTROL.test(value)) return fail('note', 'must not contain control characters (tabs, line breaks)');
  // The console's fields drop these as they are typed; a note given on the command line is refused instead.
  const hidden = firstMarked(value);
  if (hidden !== undefined) {
    return fail('note', `must not contain invisible or text-direction characters (found ${codePointName(hidden)}): the note would read differently than it is`);
  }
  const n = length(value);
  if (n > MAX_NOTE_LENGTH) return fail('note', `at most ${MAX_NOTE_LENGTH} characters (got ${n})`);
  return ok(value);
}

export function checkClientTranId(raw: string): Checked<string> {
  const value = raw.trim();
  const bad = /[^A-Za-z0-9]/u.exec(value);
  if (bad) return fail('clientTranId', `only letters and digits allowed (found '${shorten(bad[0])}')`);
  if (value.length !== CLIENT_TRAN_ID_LENGTH) {
    return fail('clientTranId', `must be exactly ${CLIENT_TRAN_ID_LENGTH} letters and digits (got ${value.length})`);
  }
  return ok(value);
}

/** Account types: letters and underscore, upper-cased (SPOT, FUTURES, the answers' FUTURE, …; others are accepted). */
export function checkAccountType(field: 'fromAccountType' | 'toAccountType', raw: string): Checked<string> {
  const value = raw.trim();
  if (value === '') return fail(field, 'required (e.g. SPOT, FUTURES)');
  if (!ACCOUNT_TYPE_TOKEN.test(value)) {
    return fail(field, `'${shorten(value)}' is not an account type (letters and _ only, e.g. SPOT, FUTURES)`);
  }
  if (value.length > MAX_ACCOUNT_TYPE_LENGTH) return fail(field, `at most ${MAX_ACCOUNT_TYPE_LENGTH} characters (got ${value.length})`);
  const upper = value.toUpperCase();
  // FUTURE, the answers' spelling, is known too, but the documented values are the ones suggested.
  const meant = likelyTypo(upper, KNOWN_ACCOUNT_TYPES, [...KNOWN_ACCOUNT_TYPES, ANSWERED_FUTURES_TYPE]);
  if (meant !== undefined) return fail(field, `'${shorten(value)}' is not a known account type: did you mean ${meant}?`);
  return ok(upper);
}

function checkWholeNumber(field: FieldName, raw: string, min: number, max: number): Checked<number> {
  const value = raw.trim();
  const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
  if (!/^\d+$/.test(value)) return fail(field, `must be a whole number ${range} (got '${shorten(value)}')`);
  const n = Number(value);
  // With no bound of its own, a number too large is past what a number holds exactly: say that bound.
  if (!Number.isSafeInteger(n) && max === Number.MAX_SAFE_INTEGER) return fail(field, `must be at most ${max} (got ${shorten(value)})`);
  if (!Number.isSafeInteger(n) || n < min || n > max) return fail(field, `must be a whole number ${range} (got ${shorten(value)})`);
  return ok(n);
}

export function checkPage(raw: string): Checked<number> {
  return checkWholeNumber('page', raw, 1, Number.MAX_SAFE_INTEGER);
}

export function checkLimit(raw: string): Checked<number> {
  return checkWholeNumber('limit', raw, 1, MAX_PAGE_SIZE);
}

/**
 * A time as the operator types it → Unix ms: 2026-11-01 (local midnight), 2026-11-01T12:00[:ss][Z|±hh:mm]
 * (also with a space), epoch milliseconds, "now", or 30m / 24h / 7d / 2w meaning that long before now.
 */
export function parseTimeInput(field: 'startTime' | 'endTime', raw: string, now: number): Checked<number> {
  const parsed = parseTime(raw, now);
  return parsed.ok ? ok(parsed.ms) : fail(field, parsed.reason);
}

// ---- whole forms -------------------------------------------------------------------------------

interface NewKeyInput {
  subAccount: string;
  permissions: string | readonly string[];
  /** Blank or absent: no linked IPs. */
  ip?: string;
  note: string;
}

/** Every field is checked; all errors are returned, in form order. */
export function validateNewKey(input: NewKeyInput): Validated<NewKeyRequest> {
  const sub = checkSubAccount(input.subAccount);
  const permissions = checkPermissions(input.permissions);
  const ips = checkIps(input.ip ?? '');
  const note = checkNote(input.note);
  if (sub.ok && permissions.ok && ips.ok && note.ok) {
    const request: NewKeyRequest = { subAccount: sub.value, permissions: permissions.value, note: note.value };
    if (ips.value.length > 0) request.ips = ips.value;
    return { ok: true, value: request };
  }
  return { ok: false, errors: collect(sub, permissions, ips, note) };
}

/** Raw strings as typed; absent or blank optional fields are left out of the query. */
interface TransferQueryInput {
  fromAccountType: string;
  toAccountType: string;
  fromAccount?: string;
  toAccount?: string;
  start?: string;
  end?: string;
  clientTranId?: string;
  page?: string;
  limit?: string;
}

/** A start time: no transfer can have come after one in the future, and an empty answer would read as "none happened". */
function checkStart(raw: string, now: number): Checked<number> {
  const start = parseTimeInput('startTime', raw, now);
  if (start.ok && start.value > now)
    return fail('startTime', `is in the future (${formatLocalTime(start.value, true)}; now ${formatLocalTime(now, true)}): no transfer can match`);
  return start;
}

export function validateTransferQuery(input: TransferQueryInput, now: number): Validated<TransferQuery> {
  const fromType = checkAccountType('fromAccountType', input.fromAccountType);
  const toType = checkAccountType('toAccountType', input.toAccountType);
  const fromAccount = checkAccount('fromAccount', input.fromAccount);
  const toAccount = checkAccount('toAccount', input.toAccount);
  const start = optional(input.start, (raw) => checkStart(raw, now));
  const end = optional(input.end, (raw) => parseTimeInput('endTime', raw, now));
  const clientTranId = optional(input.clientTranId, checkClientTranId);
  const page = optional(input.page, checkPage);
  const limit = optional(input.limit, checkLimit);
  const order: Checked<unknown> =
    start.ok && end.ok && start.value !== undefined && end.value !== undefined && start.value > end.value
      ? fail('endTime', `must not be before startTime (${formatLocalTime(end.value, true)} is before ${formatLocalTime(start.value, true)})`)
      : ok(undefined);
  const errors = collect(fromType, toType, fromAccount, toAccount, start, end, order, clientTranId, page, limit);
  if (!fromType.ok || !toType.ok || errors.length > 0) return { ok: false, errors };
  const query: TransferQuery = { fromAccountType: fromType.value, toAccountType: toType.value };
  if (fromAccount.ok && fromAccount.value !== undefined) query.fromAccount = fromAccount.value;
  if (toAccount.ok && toAccount.value !== undefined) query.toAccount = toAccount.value;
  if (start.ok && start.value !== undefined) query.startTime = start.value;
  if (end.ok && end.value !== undefined) query.endTime = end.value;
  if (clientTranId.ok && clientTranId.value !== undefined) query.clientTranId = clientTranId.value;
  if (page.ok && page.value !== undefined) query.page = page.value;
  if (limit.ok && limit.value !== undefined) query.limit = limit.value;
  return { ok: true, value: query };
}

// ---- per-field live use (forms) ------------------------------------------------------------------

/**
 * The error for one field as typed, or undefined when it is acceptable — the same rule the whole-form
 * validators apply (optional fields may be blank). For live feedback in the forms. `now` matters only for
 * startTime/endTime; pass it to stay pure.
 */
export function fieldError(field: FieldName, raw: string, now: number = Date.now()): FieldError | undefined {
  const result = checkField(field, raw, now);
  return result.ok ? undefined : result.error;
}

function checkField(field: FieldName, raw: string, now: number): Checked<unknown> {
  switch (field) {
    case 'subAccount':
      return checkSubAccount(raw);
    case 'permissions':
      return checkPermissions(raw);
    case 'ip':
      return checkIps(raw);
    case 'note':
      return checkNote(raw);
    case 'fromAccountType':
    case 'toAccountType':
      return checkAccountType(field, raw);
    case 'fromAccount':
    case 'toAccount':
      return checkAccount(field, raw);
    case 'clientTranId':
      return optional(raw, checkClientTranId);
    case 'startTime':
      return optional(raw, (text) => checkStart(text, now));
    case 'endTime':
      return optional(raw, (text) => parseTimeInput(field, text, now));
    case 'page':
      return optional(raw, checkPage);
    case 'limit':
      return optional(raw, checkLimit);
  }
}

/** Lines for stderr: "error: <field>: <reason>". */
function optional<T>(raw: string | undefined, check: (raw: string) => Checked<T>): Checked<T | undefined> {
  if (raw === undefined || raw.trim() === '') return ok(undefined);
  return check(raw);
}

function collect(...results: Checked<unknown>[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const r of results) if (!r.ok) errors.push(r.error);
  return errors;
}

// Wire names that only a field can mean (not plain words such as "note" or "page"), longest first.
const WIRE_NAMES = /\b(fromAccountType|toAccountType|fromAccount|toAccount|subAccount|clientTranId|startTime|endTime)\b/g;

/**
 * A validation message in the words of the front end that shows it (a command's flags, the console's labels):
 * the field's wire name, and any wire name in the reason ("must not be before startTime"), become `names`'s,
 * never inside a quoted value the operator typed ('…').
 */
export function sayFieldError(error: FieldError, names: Readonly<Record<FieldName, string>>): string {
  return `${names[error.field]}: ${fieldErrorReason(error, names)}`;
}

/** The reason alone, its wire names in `names`'s words (for a line under the field's own label). */
export function fieldErrorReason(error: FieldError, names: Readonly<Record<FieldName, string>>): string {
  const prefix = `${error.field}: `;
  const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return reason
    .split(/('[^']*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(WIRE_NAMES, (name) => names[name as FieldName])))
    .join('');
}
