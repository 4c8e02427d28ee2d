// List and create the API keys of a sub-account , with the service's validation codes.
import { isIP } from 'node:net';
import { KNOWN_PERMISSIONS, MAX_KEYS_PER_SUB_ACCOUNT, MAX_LINKED_IPS } from '../../api/types';
import { ERR, paramError, SandboxHttpError } from '../errors';
import type { WireCreatedKey, WireKey } from '../model';
import { jsonReply, type Reply } from '../reply';
import type { SandboxState } from '../state';
import { nodeCrypto } from '../../lazyBuiltins';

/** Makes the API key and secret of a created key: random ones, or the pinned demo's counted ones. */
export type KeyMaker = () => { apiKey: string; secretKey: string };

const randomBytes = (size: number): Buffer => nodeCrypto().randomBytes(size);
export const randomKey: KeyMaker = () => ({ apiKey: `mx0v${randomBytes(14).toString('hex')}`, secretKey: randomBytes(32).toString('hex') });

/** The service's sub-account name rule (730601): 8 to 32 letters and digits. */
const SUB_ACCOUNT_NAME = /^[A-Za-z0-9]{8,32}$/;

const ACCEPTED_PERMISSIONS: ReadonlySet<string> = new Set<string>([...KNOWN_PERMISSIONS, 'read_only']);

export function listKeys(state: SandboxState, params: URLSearchParams): Reply {
  const keys = keysOf(state, params.get('subAccount') ?? undefined);
  return jsonReply({ subAccount: keys.map((k): WireKey => ({ ...k })) });
}

/** `now` is the key's creation time (the server clock, or the pinned demo's); `makeKey` is asked only once all checks passed. */
export function createKey(state: SandboxState, rawBody: string, now: number, makeKey: KeyMaker = randomKey): Reply {
  const parsed = parseBody(rawBody);
  // The broker docs list a create's parameters as "Body Request Parameter", and a live create that sent them in
  // the query with no body failed (docs/live-service.md): only the body is read, whatever the query carries.
  const field = (name: string): string | undefined => stringField(parsed, name);
  const subAccount = field('subAccount');
  // A create names the sub-account by the service's rule; a name outside it cannot be one.
  if (subAccount !== undefined && subAccount !== '' && !SUB_ACCOUNT_NAME.test(subAccount))
    throw new SandboxHttpError(ERR.subAccountNameRule, `(${subAccount})`);
  const keys = keysOf(state, subAccount);
  const note = field('note');
  if (note === undefined || note.trim() === '') throw new SandboxHttpError(ERR.noteMissing);
  const permissions = splitList(field('permissions'));
  if (permissions.length === 0) throw new SandboxHttpError(ERR.permissionsMissing);
  const unknown = permissions.find((p) => !ACCEPTED_PERMISSIONS.has(p));
  if (unknown !== undefined) throw new SandboxHttpError(ERR.permissionUnknown, `(${unknown})`);
  const ips = splitList(field('ip'));
  if (ips.length > MAX_LINKED_IPS) throw new SandboxHttpError(ERR.tooManyIps);
  const badIp = ips.find((ip) => isIP(ip) === 0);
  if (badIp !== undefined) throw new SandboxHttpError(ERR.badIp, `(${badIp})`);
  if (keys.length >= MAX_KEYS_PER_SUB_ACCOUNT) throw new SandboxHttpError(ERR.tooManyKeys);

  const { apiKey, secretKey } = makeKey();
  const record: WireKey = { note, apiKey, permissions: permissions.join(','), ip: ips.join(','), creatTime: now };
  keys.push(record);
  const created: WireCreatedKey = {
    subAccount: subAccount as string,
    note,
    apiKey,
    secretKey,
    permissions: record.permissions,
    ...(ips.length > 0 ? { ip: record.ip } : {}),
    createTime: now,
  };
  return jsonReply(created);
}

function keysOf(state: SandboxState, subAccount: string | undefined): WireKey[] {
  if (subAccount === undefined || subAccount === '') throw new SandboxHttpError(ERR.subAccountMissing);
  if (state.frozenSubAccounts.has(subAccount)) throw new SandboxHttpError(ERR.subAccountForbidden, `(${subAccount})`);
  const keys = state.subAccounts.get(subAccount);
  if (!keys) throw new SandboxHttpError(ERR.subAccountUnknown, `(${subAccount})`);
  return keys;
}

/** A JSON object body (the server has refused any other content type). */
function parseBody(rawBody: string): Record<string, unknown> {
  if (rawBody.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw paramError('body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw paramError('body');
  return parsed as Record<string, unknown>;
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw paramError(name);
  return value;
}

function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
