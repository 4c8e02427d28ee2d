import type { Transfer, TransferQuery } from '../../api/types';
import { useServices } from '../services';
import { useResource, type Resource } from './useResource';

/** One page of transfers for the filter; a new page, size or filter cancels the request in flight. */
export function useTransfers(query: TransferQuery, page: number, limit: number, reloadToken: number): Resource<Transfer[]> {
  const { api } = useServices();
  return useResource(
    (signal) => api.listUniversalTransfers({ ...query, page, limit }, { signal }),
    [api, JSON.stringify(query), page, limit, reloadToken],
  );
}
