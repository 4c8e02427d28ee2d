// The three operations the sandbox serves, by path and method (docs/sandbox.md).
import { OPERATION_PERMISSIONS } from '../api/types';

export type OperationName = keyof typeof OPERATION_PERMISSIONS;

export const API_KEY_PATH = '/api/v3/broker/sub-account/apiKey';
const TRANSFER_PATH = '/api/v3/broker/sub-account/universalTransfer';

const ROUTES: Readonly<Record<string, Readonly<Record<string, OperationName>>>> = {
  [API_KEY_PATH]: { GET: 'listSubAccountKeys', POST: 'createSubAccountKey' },
  [TRANSFER_PATH]: { GET: 'listUniversalTransfers' },
};

type RouteMatch = { kind: 'operation'; operation: OperationName } | { kind: 'not-found' } | { kind: 'wrong-method'; allow: string[] };

export function route(method: string, path: string): RouteMatch {
  const methods = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  if (!methods) return { kind: 'not-found' };
  const operation = Object.hasOwn(methods, method) ? methods[method] : undefined;
  return operation ? { kind: 'operation', operation } : { kind: 'wrong-method', allow: Object.keys(methods) };
}
