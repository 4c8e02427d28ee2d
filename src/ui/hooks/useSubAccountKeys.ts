import { useEffect } from 'react';
import { isUnknownSubAccount } from '../../api/errors';
import { useServices } from '../services';
import { useResource, type Resource } from './useResource';
import type { SubAccountKey } from '../../api/types';

/**
 * The keys of one sub-account; reloads when the refresh token changes (e.g. after a key was created). The
 * name joins the recent list only once the service listed its keys, and leaves it when the service says
 * there is no such sub-account: a typo is never offered again.
 */
export function useSubAccountKeys(subAccount: string, refreshToken = 0): Resource<SubAccountKey[]> {
  const { api, recent } = useServices();
  const keys = useResource((signal) => api.listSubAccountKeys(subAccount, { signal }), [api, subAccount, refreshToken]);
  const found = keys.status === 'ready';
  const missing = keys.status === 'error' && isUnknownSubAccount(keys.error);
  useEffect(() => {
    if (found) void recent.remember(subAccount).catch(() => undefined);
    else if (missing) void recent.forget(subAccount).catch(() => undefined);
  }, [found, missing, recent, subAccount]);
  return keys;
}
