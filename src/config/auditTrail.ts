// The audit trail: every create-key attempt that was sent — created, refused by the
// service, or of unknown outcome — appended as one JSON line to audit.jsonl in the config folder (mode
// 0600, O_APPEND, never rewritten). A line names the shortened new API key, never a secret.
import { join } from 'node:path';
import * as v from 'valibot';
import { BrokerError, firstLineOf } from '../api/errors';
import { systemErrorWords } from '../terminal/systemError';
import type { CreatedKey, NewKeyRequest } from '../api/types';
import { apiKeyDigest, shortenApiKey } from '../api/redact';
import { appendNoFollow } from './logFile';
import { fsPromises, nodeCrypto } from '../lazyBuiltins';
import { appendWholeLine } from './wholeLine';
import { processIdentity, processStartedAt, uptimeSeconds } from './processStart';

export const AUDIT_FILE = 'audit.jsonl';

/**
 * 'not-sent' only closes an attempt recorded ahead that never left (a refused connection): reading drops both.
 * 'not-created' closes an unknown one the key list has since shown was not carried out.
 */
const AUDIT_OUTCOMES = ['created', 'refused', 'unknown', 'not-sent', 'not-created'] as const;
type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * A created key whose secret the operator may not have: it could not be written, it was not valid text, or the
 * console showed it and the operator has not (or never) confirmed it stored.
 */
const SECRET_FATES = ['not-delivered', 'unreadable', 'unconfirmed'] as const;
export type SecretFate = (typeof SECRET_FATES)[number];

export const SECRET_FATE_TEXT: Record<SecretFate, string> = {
  'not-delivered': 'created, secret not delivered',
  unreadable: 'created, secret unreadable',
  unconfirmed: 'created, secret shown but not confirmed stored',
};

/** One line of audit.jsonl (optional fields are left out of the line when absent). */
export interface AuditEntry {
  /** ISO time of the answer (or of its failure). */
  time: string;
  /** Profile name, or "environment", "session", "demo". */
  profile: string;
  /** Host (and port) of the base URL. */
  host: string;
  subAccount: string;
  /** The created key shortened (mx0v…a1b2); only when one was created. */
  apiKey?: string;
  /** The created key's digest (apiKeyDigest): its short form is not enough to tell keys apart. */
  keyDigest?: string;
  permissions: string[];
  ips: string[];
  note: string;
  outcome: AuditOutcome;
  /** refused: the service's code and message. */
  code?: number | string;
  message?: string;
  /** unknown: why the outcome is not known; created with a secretFate: why the secret was lost. */
  reason?: string;
  /** created: the secret never reached the operator. */
  secret?: SecretFate;
  /** Lines about one attempt share this (written ahead of the request, then its outcome): the last one counts. */
  attempt?: string;
  /** The line written ahead: the process sending it and its machine, so a reader can tell "still waiting" from "ended". */
  pid?: number;
  machine?: string;
  /** The sending process as the system names it (processIdentity): a reused pid or a reboot is told apart exactly. */
  sender?: string;
}

/** What became of a create request: the key (and what became of its secret), or the error it failed with. */
export type CreateResult = { created: CreatedKey; secret?: SecretFate; reason?: string } | { error: unknown };

/** Why an attempt of unknown outcome was closed as not created. */
export const NOT_CREATED_REASON = 'no matching key in the key list once the request could no longer arrive';
/** Why one was closed as created, its secret never delivered. */
export const MADE_UNANSWERED_REASON = 'its answer never came; the key list shows the key it made';

/** The reason an attempt recorded ahead keeps when no outcome follows it (the process ended first). */
export const NO_OUTCOME_REASON = 'sent; the command ended before the answer came (interrupted or killed): the key may exist';

/** Where the attempt went: the profile label and the host. */
export interface AuditTarget {
  profile: string;
  host: string;
}

export function auditPath(folder: string): string {
  return join(folder, AUDIT_FILE);
}

/**
 * The entry for an attempt, or undefined when nothing was sent (a request that could not be built, a
 * connection refused before anything was written, an error that is not the client's).
 */
export function auditEntry(target: AuditTarget, request: NewKeyRequest, result: CreateResult, at: Date): AuditEntry | undefined {
  const base = {
    time: at.toISOString(),
    profile: target.profile,
    host: target.host,
    subAccount: request.subAccount,
  };
  const rest = { permissions: [...request.permissions], ips: [...(request.ips ?? [])], note: request.note };
  if ('created' in result) {
    const fate =
      result.secret === undefined ? {} : { reason: `${SECRET_FATE_TEXT[result.secret]}${result.reason ? `: ${result.reason}` : ''}`, secret: result.secret };
    const key = result.created.apiKey;
    return { ...base, apiKey: shortenApiKey(key), keyDigest: apiKeyDigest(key), ...rest, outcome: 'created', ...fate };
  }
  const error = result.error;
  if (!(error instanceof BrokerError)) return undefined;
  // A 418 that answered the create refused it; one that held it back sent nothing, as a wait the client kept did not.
  if (error.kind === 'service' && error.sent === false) return undefined;
  if (error.kind === 'service' || (error.kind === 'banned' && error.sent === true)) {
    return {
      ...base,
      ...rest,
      outcome: 'refused',
      ...(error.code !== undefined ? { code: error.code } : error.status !== undefined ? { code: error.status } : {}),
      message: error.serviceMessage ?? error.toLine(),
    };
  }
  const sent = error.kind === 'outcome-unknown' || (error.stage !== undefined && error.stage !== 'connect' && error.kind !== 'invalid-request');
  if (!sent) return undefined;
  return { ...base, ...rest, outcome: 'unknown', reason: error.toLine() };
}

const withSender = (sender: string | undefined): { sender?: string } => (sender === undefined ? {} : { sender });

/** This process as a line written ahead names it: its identity and the uptime (whole seconds) it wrote at. */
function senderNow(): string | undefined {
  const identity = processIdentity(process.pid);
  const uptime = uptimeSeconds();
  return identity === undefined ? undefined : uptime === undefined ? identity : `${identity}/${Math.floor(uptime)}`;
}

/** One line: the fields in a fixed order, JSON-escaped (a line break in a note cannot start a line). */
function auditLine(entry: AuditEntry): string {
  const ordered: AuditEntry = {
    time: entry.time,
    profile: entry.profile,
    host: entry.host,
    subAccount: entry.subAccount,
    ...(entry.apiKey !== undefined ? { apiKey: entry.apiKey } : {}),
    ...(entry.keyDigest !== undefined ? { keyDigest: entry.keyDigest } : {}),
    permissions: entry.permissions,
    ips: entry.ips,
    note: entry.note,
    outcome: entry.outcome,
    ...(entry.code !== undefined ? { code: entry.code } : {}),
    ...(entry.message !== undefined ? { message: entry.message } : {}),
    ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
    ...(entry.secret !== undefined ? { secret: entry.secret } : {}),
    ...(entry.attempt !== undefined ? { attempt: entry.attempt } : {}),
    ...(entry.pid !== undefined ? { pid: entry.pid } : {}),
    ...(entry.machine !== undefined ? { machine: entry.machine } : {}),
    ...withSender(entry.sender),
  };
  return `${JSON.stringify(ordered)}\n`;
}

/** Appends one entry (creating the folder and the file, mode 0600). Rejects when it cannot be written. */
export async function appendAudit(folder: string, entry: AuditEntry): Promise<void> {
  await fsPromises().mkdir(folder, { recursive: true, mode: 0o700 });
  const handle = await fsPromises().open(auditPath(folder), appendNoFollow(), 0o600);
  try {
    // An existing file is made private too (a file of someone else's: leave it be).
    await handle.chmod(0o600).catch(() => undefined);
    await appendWholeLine(handle, auditLine(entry));
  } finally {
    await handle.close();
  }
}

/** Writes an attempt's outcome as the attempt recorded ahead; `attempt` is its id in the trail. */
export type AttemptRecorder = ((result: CreateResult) => Promise<boolean>) & { attempt: string };

/** Records attempts against one target, and reads back what the trail holds for it. */
export interface AuditRecorder {
  /** Appends the attempt; resolves to false when the line could not be written (never rejects). */
  (request: NewKeyRequest, result: CreateResult): Promise<boolean>;
  /**
   * Records the attempt as unknown before it is sent (synced), so a process that ends mid-request leaves it on
   * record; the returned recorder writes its outcome as the same attempt. Resolves to undefined when it could not
   * be written.
   */
  ahead(request: NewKeyRequest): Promise<AttemptRecorder | undefined>;
  /** Writes a later outcome of an attempt `ahead` recorded (a secret confirmed stored); false when it could not. */
  again(attempt: string, result: CreateResult): Promise<boolean>;
  /**
   * Closes an attempt of unknown outcome (its last line, with an attempt id) by what the key list showed: the key it
   * made (`made`: created, its secret never delivered), or none once it could no longer arrive (not-created). The
   * line keeps the attempt's time. False when it could not be written or has no attempt id.
   */
  closeUnknown(unknown: AuditEntry, made?: { apiKey: string }): Promise<boolean>;
  /** The last `count` entries for a sub-account on this target's host, newest first; none when the trail cannot be read. */
  recentFor(subAccount: string, count: number): Promise<AuditEntry[]>;
  /** Every entry on this target's host, oldest first (read once for many sub-accounts); none when unreadable. */
  onHost(): Promise<AuditEntry[]>;
  /** Called after each line this recorder appended; returns the way to stop. */
  subscribe(listener: () => void): () => void;
  /** Why the last line that could not be written was not (a full disk, a symbolic link at its name), in words. */
  problem(): string | undefined;
}

/** The last `count` of `entries` (one host's, oldest first) for a sub-account, newest first. */
export function recentOf(entries: readonly AuditEntry[], subAccount: string, count: number): AuditEntry[] {
  if (count <= 0) return [];
  return entries
    .filter((e) => e.subAccount === subAccount)
    .slice(-count)
    .reverse();
}

/**
 * `target`: may be known later (the demo's port, once its sandbox listens); `now`: the entries' time (the pinned
 * demo's clock keeps two takes of a screencast identical).
 */
export function createAuditRecorder(
  folder: string,
  target: AuditTarget | Promise<AuditTarget>,
  now: () => Date = () => new Date(),
  options: { thisRunOnly?: boolean } = {},
): AuditRecorder {
  // The attempts this recorder wrote: all a run reads back where a target lives for one run (the demo's sandbox).
  const written = new Set<string>();
  // Appends go one after another: an attempt's later line never lands before its earlier one.
  let appended: Promise<unknown> = Promise.resolve();
  // The lines this recorder was given and has not written yet (from the call on, not only once queued).
  const writing = new Set<Promise<unknown>>();
  const writes =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const started = work(...args);
      const done = started.catch(() => undefined);
      writing.add(done);
      void done.then(() => writing.delete(done));
      return started;
    };
  const onHost = async (): Promise<AuditEntry[]> => {
    try {
      // What this recorder was given to write is read back too: a form opened right after a create sees its
      // outcome, not the line written ahead of it.
      while (writing.size > 0) await Promise.all([...writing]);
      // The same name on another service is another sub-account: the host must match too.
      const { host } = await target;
      const { entries } = await readAuditTrail(folder);
      return entries.filter((e) => e.host === host && (options.thisRunOnly !== true || (e.attempt !== undefined && written.has(e.attempt))));
    } catch {
      return [];
    }
  };
  const listeners = new Set<() => void>();
  const append = (entry: AuditEntry): Promise<void> => {
    const next = appended.then(() => appendAudit(folder, entry));
    appended = next.catch(() => undefined);
    return next;
  };
  /** The requests of the attempts recorded ahead, for the lines that follow. */
  const requests = new Map<string, NewKeyRequest>();
  /** When each attempt's answer was recorded: a later line of it (the secret confirmed stored) keeps that time. */
  const answeredAt = new Map<string, Date>();
  let problem: string | undefined;
  const failed = (error: unknown): undefined => {
    problem = (error as { code?: unknown } | undefined)?.code === 'ELOOP' ? 'it is a symbolic link' : (systemErrorWords(error) ?? firstLineOf(error));
    return undefined;
  };
  const record = writes(async (request: NewKeyRequest, result: CreateResult, attempt?: string): Promise<boolean> => {
    const at = (attempt === undefined ? undefined : answeredAt.get(attempt)) ?? now();
    if (attempt !== undefined) answeredAt.set(attempt, at);
    let known: AuditTarget;
    try {
      known = await target;
    } catch (error) {
      failed(error);
      return false;
    }
    const found = auditEntry(known, request, result, at);
    // An attempt recorded ahead that turned out not sent is closed, so it does not stay unknown.
    const entry = found ?? (attempt === undefined ? undefined : { ...notSent(known, request, at) });
    if (!entry) return true;
    // A recorder that reads back only its own lines names even a line of its own (no line ahead) as an attempt.
    const id = attempt ?? (options.thisRunOnly === true ? nodeCrypto().randomBytes(8).toString('hex') : undefined);
    if (id !== undefined) written.add(id);
    try {
      await append(id === undefined ? entry : { ...entry, attempt: id });
    } catch (error) {
      failed(error);
      return false;
    }
    for (const listener of listeners) listener();
    return true;
  });
  return Object.assign((request: NewKeyRequest, result: CreateResult) => record(request, result), {
    ahead: writes(async (request: NewKeyRequest): Promise<AttemptRecorder | undefined> => {
      const attempt = nodeCrypto().randomBytes(8).toString('hex');
      let known: AuditTarget;
      try {
        known = await target;
        const at = now();
        const entry: AuditEntry = {
          ...notSent(known, request, at),
          outcome: 'unknown',
          reason: NO_OUTCOME_REASON,
          attempt,
          pid: process.pid,
          machine: process.getBuiltinModule('node:os').hostname(),
          ...withSender(senderNow()),
        };
        await append(entry);
      } catch (error) {
        return failed(error);
      }
      requests.set(attempt, request);
      written.add(attempt);
      for (const listener of listeners) listener();
      return Object.assign((result: CreateResult) => record(request, result, attempt), { attempt });
    }),
    async again(attempt: string, result: CreateResult): Promise<boolean> {
      const request = requests.get(attempt);
      if (request === undefined) return false;
      // A secret confirmed stored is the attempt's last line.
      if ('created' in result && result.secret === undefined) requests.delete(attempt);
      return record(request, result, attempt);
    },
    closeUnknown: writes(async (unknown: AuditEntry, made?: { apiKey: string }): Promise<boolean> => {
      if (unknown.outcome !== 'unknown' || unknown.attempt === undefined) return false;
      const { apiKey: _k, keyDigest: _d, code: _c, message: _m, reason: _r, secret: _s, pid: _p, machine: _h, sender: _n, ...same } = unknown;
      const closed: AuditEntry =
        made === undefined
          ? { ...same, outcome: 'not-created', reason: NOT_CREATED_REASON }
          : {
              ...same,
              apiKey: shortenApiKey(made.apiKey),
              keyDigest: apiKeyDigest(made.apiKey),
              outcome: 'created',
              secret: 'not-delivered',
              reason: `${SECRET_FATE_TEXT['not-delivered']}: ${MADE_UNANSWERED_REASON}`,
            };
      try {
        await append(closed);
      } catch (error) {
        failed(error);
        return false;
      }
      for (const listener of listeners) listener();
      return true;
    }),
    recentFor: async (subAccount: string, count: number): Promise<AuditEntry[]> => recentOf(await onHost(), subAccount, count),
    onHost,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    problem: () => problem,
  });
}

function notSent(target: AuditTarget, request: NewKeyRequest, at: Date): AuditEntry {
  return {
    time: at.toISOString(),
    profile: target.profile,
    host: target.host,
    subAccount: request.subAccount,
    permissions: [...request.permissions],
    ips: [...(request.ips ?? [])],
    note: request.note,
    outcome: 'not-sent',
  };
}

/** A line of the trail as it may be read (what it does not name is left out; anything else damages it). */
const AuditLine = v.object({
  time: v.string(),
  profile: v.string(),
  host: v.string(),
  subAccount: v.string(),
  apiKey: v.optional(v.string()),
  keyDigest: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/))),
  permissions: v.array(v.string()),
  ips: v.array(v.string()),
  note: v.string(),
  outcome: v.picklist(AUDIT_OUTCOMES),
  code: v.optional(v.union([v.string(), v.number()])),
  message: v.optional(v.string()),
  reason: v.optional(v.string()),
  secret: v.optional(v.picklist(SECRET_FATES)),
  attempt: v.optional(v.string()),
  pid: v.optional(v.pipe(v.number(), v.safeInteger())),
  machine: v.optional(v.string()),
  sender: v.optional(v.string()),
});

/** A parsed line, or undefined when it is damaged (not JSON, or not an entry's shape). */
export function parseAuditLine(line: string): AuditEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(AuditLine, value);
  return parsed.success ? parsed.output : undefined;
}

/**
 * The longest a sender waits for a create's answer: three tries (the create, a resend after 700003, one after
 * 700002) of the longest --timeout, 600 s, and their pacing. A line ahead older than this has no sender left;
 * a process with its pid now is another one.
 */
export const SENDER_WAITS_AT_MOST_MS = 60 * 60_000;
/** A process's start time is known to the second, and the line's time is taken after the process started. */
const START_SLACK_MS = 2000;

/**
 * The process still waiting for an attempt's answer, if one is: a line written ahead whose sender (another
 * process on this machine) is running. Its outcome is not unknown yet, only not in. A line naming its sender
 * exactly (boot and start, whatever the wall clock did since) has it only while that process runs; a line that
 * does not, by the clock: a process that started after it, or a line older than any sender waits, is another's.
 */
export function stillSending(entry: AuditEntry, now = Date.now()): number | undefined {
  if (entry.outcome !== 'unknown' || entry.reason !== NO_OUTCOME_REASON || entry.pid === undefined || entry.pid === process.pid) return undefined;
  if (entry.machine !== process.getBuiltinModule('node:os').hostname()) return undefined;
  try {
    process.kill(entry.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as { code?: unknown }).code !== 'EPERM') return undefined;
  }
  // The sender named exactly (boot and start): it is the process with that pid now, or it has ended; and it waits
  // no longer than any sender does, by the machine's uptime (a clock no one sets).
  const holder = entry.sender === undefined ? undefined : processIdentity(entry.pid);
  if (entry.sender !== undefined && holder !== undefined) {
    const [boot, ticks, wroteAt] = entry.sender.split('/');
    if (`${boot}/${ticks}` !== holder) return undefined;
    const uptime = uptimeSeconds();
    const waited = wroteAt === undefined || uptime === undefined ? 0 : (uptime - Number(wroteAt)) * 1000;
    return waited > SENDER_WAITS_AT_MOST_MS ? undefined : entry.pid;
  }
  // Else by the clock: a line older than any sender waits, or a process started after the line, is another's.
  const written = Date.parse(entry.time);
  if (!Number.isFinite(written) || now - written > SENDER_WAITS_AT_MOST_MS) return undefined;
  const started = processStartedAt(entry.pid);
  return started !== undefined && started > written + START_SLACK_MS ? undefined : entry.pid;
}

/** What a reader says of an attempt whose sender still waits. */
export const stillSendingReason = (pid: number): string => `in progress: broker-console (pid ${pid}) is still waiting for the service's answer`;

/** One entry per attempt, oldest first: an attempt's last line stands for it, and attempts never sent are left out. */
export function settleAttempts(lines: readonly AuditEntry[]): AuditEntry[] {
  const last = new Map<string, number>();
  lines.forEach((entry, i) => {
    if (entry.attempt !== undefined) last.set(entry.attempt, i);
  });
  return lines.filter((entry, i) => entry.outcome !== 'not-sent' && (entry.attempt === undefined || last.get(entry.attempt) === i));
}

/** Reading keeps at most the last this many bytes of the file (about 20,000 entries). */
const AUDIT_READ_LIMIT_BYTES = 8 * 1024 * 1024;

interface AuditRead {
  /** Oldest first. */
  entries: AuditEntry[];
  /** Lines that were damaged and skipped. */
  skipped: number;
  /** The file was longer than the bound: only its end was read. */
  truncated: boolean;
}

/** The entries of the trail (none when there is no file yet); damaged lines are skipped and counted. */
export async function readAuditTrail(folder: string, maxBytes = AUDIT_READ_LIMIT_BYTES): Promise<AuditRead> {
  let handle;
  try {
    handle = await fsPromises().open(auditPath(folder), fsPromises().constants.O_RDONLY | (fsPromises().constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], skipped: 0, truncated: false };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    // One byte more than the bound: when it is a line's end, the line after it is whole and kept.
    const start = Math.max(0, size - maxBytes - 1);
    const length = size - start;
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    let lines = buffer.subarray(0, read).toString('utf8').split('\n');
    // Started mid-file: the first piece is the end of a line cut by the bound (empty when the cut fell on a line's end).
    if (start > 0) lines = lines.slice(1);
    const entries: AuditEntry[] = [];
    let skipped = 0;
    for (const line of lines) {
      if (line.trim() === '') continue;
      const entry = parseAuditLine(line);
      if (entry) entries.push(entry);
      else skipped += 1;
    }
    return { entries: settleAttempts(entries), skipped, truncated: start > 0 };
  } finally {
    await handle.close();
  }
}
