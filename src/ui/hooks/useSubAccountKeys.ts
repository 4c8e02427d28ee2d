import { useServices } from '../services';
import { useResource, type Resource } from './useResource';
import type { SubAccountKey } from '../../api/types';

/** The keys of one sub-account; reloads when the refresh token changes (e.g. after a key was created). */
export function useSubAccountKeys(subAccount: string, refreshToken = 0): Resource<SubAccountKey[]> {
  const { api } = useServices();
  return useResource((signal) => api.listSubAccountKeys(subAccount, { signal }), [api, subAccount, refreshToken]);
}
