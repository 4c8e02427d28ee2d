import type { Transfer, TransferQuery } from '../../api/types';
import { subAccountsInPage } from '../../export/transferNames';
import { useServices } from '../services';
import { useResource, type Resource } from './useResource';

/** One page of transfers for the filter; a new page, size or filter cancels the request in flight. */
export function useTransfers(query: TransferQuery, page: number, limit: number, reloadToken: number): Resource<Transfer[]> {
  const { api, discovered } = useServices();
  return useResource(
    (signal) =>
      api.listUniversalTransfers({ ...query, page, limit }, { signal }).then((rows) => {
        // The sub-accounts a page names join the picker's discovered ones; remembered in the background, never awaited.
        const seen = subAccountsInPage(query, rows);
        if (seen.length > 0) discovered.note(seen).catch(() => undefined);
        return rows;
      }),
    [api, JSON.stringify(query), page, limit, reloadToken],
  );
}
