// While a load tries again after a failed try, its spinner says so: the status bar's "✗ … 503" is then no
// contradiction of a "Loading…" that goes on.
import { useRef, useSyncExternalStore } from 'react';
import type { ExchangeInfo } from '../../api/contract';
import { useServices } from '../services';

/** " — trying again (try 1 answered 503)" while `loading` and a try of `operation` made since it began failed; else ''. */
export function useTryingAgain(operation: string, loading: boolean): string {
  const { exchanges } = useServices();
  // The exchange in hand when this load began: a failure from before it is not this load's.
  const began = useRef<{ loading: boolean; last?: ExchangeInfo | undefined }>({ loading: false });
  if (loading && !began.current.loading) began.current = { loading: true, last: exchanges.last() };
  if (!loading) began.current = { loading: false };
  // The words, not the exchange: another request recorded draws no frame here unless they change.
  return useSyncExternalStore(exchanges.subscribe, () => tryingAgain(operation, began.current, exchanges.last()));
}

function tryingAgain(operation: string, began: { loading: boolean; last?: ExchangeInfo | undefined }, last: ExchangeInfo | undefined): string {
  if (!began.loading || last === undefined || last === began.last || last.ok || last.cancelled || last.operation !== operation) return '';
  return ` — trying again (try ${last.attempt} ${last.status === undefined ? 'had no answer' : `answered ${last.status}`})`;
}
