import { useRef } from 'react';
import type { Transfer, TransferQuery } from '../../api/types';
import { subAccountsInPage } from '../../export/transferNames';
import { useServices } from '../services';
import { useResource, type Resource } from './useResource';

/**
 * One page of transfers for the filter; a new page, size or filter cancels the request in flight. Back to the page
 * last shown (esc while another loaded), its rows are in hand: shown at once, not asked again (under a rate limit
 * that request could wait many seconds).
 */
export function useTransfers(query: TransferQuery, page: number, limit: number, reloadToken: number): Resource<Transfer[]> {
  const { api, discovered } = useServices();
  const shown = useRef<{ key: string; rows: Transfer[] } | undefined>(undefined);
  const key = `${JSON.stringify(query)} ${page} ${limit} ${reloadToken}`;
  return useResource(
    (signal) => {
      if (shown.current?.key === key) return Promise.resolve(shown.current.rows);
      return api.listUniversalTransfers({ ...query, page, limit }, { signal }).then((rows) => {
        if (!signal.aborted) shown.current = { key, rows };
        // The sub-accounts a page names join the picker's discovered ones; remembered in the background, never awaited.
        const seen = subAccountsInPage(query, rows);
        if (seen.length > 0) discovered.note(seen).catch(() => undefined);
        return rows;
      });
    },
    [api, key],
  );
}
