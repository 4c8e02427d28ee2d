// What a handler produces; the server decides how (or whether) it goes on the wire.
import { envelope, type SandboxHttpError } from './errors';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json;charset=utf-8';

export function jsonReply(value: unknown, status = 200): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(value) };
}

export function rawJsonReply(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body };
}

export function errorReply(error: SandboxHttpError): Reply {
  return rawJsonReply(error.status, envelope(error.code, error.message), { ...error.headers });
}
