// Reading answers: a success through its schema, an error of any shape as a BrokerError, and a body within its limit.
import * as v from 'valibot';
import { sanitize } from '../terminal/sanitize';
import { BrokerError, oneLine } from './errors';
import { describeIssues } from './schemas';

type Headers = Record<string, string | string[] | undefined>;

export function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    // A UTF-8 byte order mark some servers put first is not part of the JSON.
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Codes given as digit strings become numbers, so `code === 700002` holds for either envelope. */
function normaliseCode(code: unknown): number | string | undefined {
  if (typeof code === 'number' && Number.isFinite(code)) return code;
  if (typeof code === 'string') {
    const trimmed = code.trim();
    if (/^-?\d{1,15}$/.test(trimmed)) return Number(trimmed);
    return trimmed === '' ? undefined : oneLine(trimmed, 40);
  }
  return undefined;
}

/** An error envelope: {"code":int,"msg":…} or {"code":"0","message":"",…}. */
function readEnvelope(value: unknown): { code?: number | string; message?: string } | undefined {
  if (!isRecord(value)) return undefined;
  if (!('code' in value) && !('msg' in value) && !('message' in value)) return undefined;
  const text = typeof value.msg === 'string' ? value.msg : typeof value.message === 'string' ? value.message : undefined;
  return { code: normaliseCode(value.code), message: text === undefined || text.trim() === '' ? undefined : text };
}

/** One short line from a non-JSON body: an HTML page's title, or its text without tags. */
export function shortLineFromText(text: string, max = 120): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
  const line = oneLine(plain, max);
  return line === '' ? undefined : line;
}

/**
 * The code and message of an envelope whose JSON was cut (an error answer longer than ERROR_BODY_LIMIT):
 * read with patterns, as far as they go.
 */
function salvageEnvelope(text: string): { code?: number | string; message?: string } | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  const code = /"code"\s*:\s*"?(-?\d{1,15})"?/.exec(text)?.[1];
  const raw = /"(?:msg|message)"\s*:\s*"((?:[^"\\]|\\.){0,2000})/.exec(text)?.[1];
  if (code === undefined && raw === undefined) return undefined;
  let message = raw;
  if (raw !== undefined) {
    try {
      message = JSON.parse(`"${raw.replace(/\\$/, '')}"`) as string;
    } catch {
      // keep the raw text
    }
  }
  return { code: normaliseCode(code), message: message === undefined || message.trim() === '' ? undefined : message };
}

/** The typed error for an error answer of any shape: JSON envelope, other JSON, HTML page, or nothing. */
export function serviceErrorFromBody(operation: string, status: number, text: string, retryAfterMs?: number, hint?: string): BrokerError {
  const parsed = parseJson(text);
  const envelope = parsed.ok ? readEnvelope(parsed.value) : salvageEnvelope(text);
  if (envelope) {
    return new BrokerError({ kind: 'service', operation, status, code: envelope.code, serviceMessage: envelope.message, retryAfterMs, hint });
  }
  const line = parsed.ok ? shortLineFromText(typeof parsed.value === 'string' ? parsed.value : text) : shortLineFromText(text);
  return new BrokerError({ kind: 'service', operation, status, serviceMessage: line, retryAfterMs, hint });
}

/** A JSON number as written. */
const ANY_NUMBER = '-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
/** A JSON number parsing may change: more than 15 digits, a fraction or an exponent. */
const LONG_NUMBER = '-?(?=\\d{16}|\\d+[.eE])\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';

function quoteValues(text: string, keys: readonly string[], number: string): string {
  const names = keys.map((k) => k.replace(/[^A-Za-z0-9_]/g, '')).join('|');
  return text.replace(new RegExp(`("(?:${names})"\\s*:\\s*)(${number})(?=\\s*[,}\\]])`, 'g'), '$1"$2"');
}

/**
 * Quotes the JSON number values of the given keys ("amount": 0.10 → "amount": "0.10") so that parsing keeps
 * their digits as written; for `longKeys`, only the numbers parsing could change (more than 15 digits, a
 * fraction, an exponent). Safe on any valid JSON: a `"key":` with both quotes literal can only be a key
 * (inside a string every quote is escaped).
 */
export function quoteNumbers(text: string, keys: readonly string[] | undefined, longKeys: readonly string[] = []): string {
  const quoted = keys === undefined || keys.length === 0 ? text : quoteValues(text, keys, ANY_NUMBER);
  return longKeys.length === 0 ? quoted : quoteValues(quoted, longKeys, LONG_NUMBER);
}

/**
 * The first bytes of an answer as one short, terminal-safe text in quotes, with its size, for a message.
 * The value of any field named like a secret is hidden first (an unreadable create answer may carry one).
 */
export function answerExcerpt(text: string, bytes: number, complete: boolean, max = 60): string {
  const head = text.slice(0, 4 * max + 2000);
  const hidden = head.replace(/("[^"\\]*secret[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/gi, '$1"(hidden)"');
  const flat = hidden.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return `'${sanitize(cut, max + 1)}' (${complete ? '' : 'at least '}${bytes} bytes)`;
}

const SUCCESS_CODES = new Set<number | string>([0, 200]);

/**
 * Whether a parsed answer holds, under one of `keys`, a number parsing may have changed: not a safe integer
 * (beyond 2^53 neighbours share one double; a fraction may lose its form).
 */
function hasChangedNumber(value: unknown, keys: ReadonlySet<string>, depth = 0): boolean {
  if (depth > 4 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasChangedNumber(item, keys, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    if (typeof field === 'number' ? keys.has(key) && !Number.isSafeInteger(field) : hasChangedNumber(field, keys, depth + 1)) return true;
  }
  return false;
}

/**
 * A 2xx answer read with the operation's schema. Tolerated beyond the plain shape: a success envelope
 * {"code":0,"data":…} is unwrapped, and an error envelope sent with 200 becomes a service error.
 */
export function readSuccess<T>(
  operation: string,
  status: number,
  text: string,
  schema: v.GenericSchema<unknown, T>,
  plainRead?: (value: unknown) => T | undefined,
  longNumbersAsText: readonly string[] = [],
): T {
  let parsed = parseJson(text);
  if (!parsed.ok) {
    const kindOfBody = text.trim() === '' ? 'an empty body' : 'a body that is not JSON';
    throw new BrokerError({ kind: 'malformed', operation, status, serviceMessage: `HTTP ${status} with ${kindOfBody}` });
  }
  // Parsed again with those numbers quoted only when one was changed: quoting every page costs more than looking.
  if (longNumbersAsText.length > 0 && hasChangedNumber(parsed.value, new Set(longNumbersAsText))) parsed = parseJson(quoteNumbers(text, [], longNumbersAsText));
  if (!parsed.ok) throw new BrokerError({ kind: 'malformed', operation, status, serviceMessage: `HTTP ${status} with a body that is not JSON` });
  const plain = plainRead?.(parsed.value);
  if (plain !== undefined) return plain;
  const direct = v.safeParse(schema, parsed.value);
  if (direct.success) return direct.output;
  const envelope = readEnvelope(parsed.value);
  if (envelope && isRecord(parsed.value)) {
    if (envelope.code !== undefined && !SUCCESS_CODES.has(envelope.code)) {
      throw new BrokerError({ kind: 'service', operation, status, code: envelope.code, serviceMessage: envelope.message });
    }
    if ('data' in parsed.value) {
      const wrapped = v.safeParse(schema, parsed.value.data);
      if (wrapped.success) return wrapped.output;
    }
  }
  throw new BrokerError({ kind: 'malformed', operation, status, serviceMessage: describeIssues(direct.issues) });
}

// ---------------------------------------------------------------------------------------------------------
// Reading a body within its limit

interface BodyRead {
  bytes: Buffer;
  /** The answer had more than the limit: reading stopped there (bytes holds the first `limit`). */
  over: boolean;
}

/**
 * Reads a body as a stream, keeping at most `limit` bytes: memory stays flat whatever the service sends.
 * A declared Content-Length beyond the limit stops it before anything is read (unless `keepHead`, for error
 * pages, whose first bytes are still wanted). Leaving the loop early destroys the body, and with it the socket.
 */
export async function readBody(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
  declared: string | undefined,
  keepHead: boolean,
): Promise<BodyRead> {
  const length = declared !== undefined && /^\d{1,15}$/.test(declared.trim()) ? Number(declared) : undefined;
  if (length !== undefined && length > limit && !keepHead) {
    body.destroy();
    return { bytes: Buffer.alloc(0), over: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const room = limit - size;
    if (chunk.length > room) {
      if (keepHead && room > 0) chunks.push(chunk.subarray(0, room));
      return { bytes: keepHead ? Buffer.concat([...chunks], Math.min(limit, size + room)) : Buffer.alloc(0), over: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks, size), over: false };
}
