// State whose latest value key handlers can read at once: several keys in one chunk run before React
// re-renders, so a handler reading render-time state would act on stale values.
import { useCallback, useRef, useState } from 'react';

type SetSynced<T> = (next: T | ((previous: T) => T)) => void;

export function useSyncedState<T>(initial: T | (() => T)): [T, SetSynced<T>, { readonly current: T }] {
  const [state, setState] = useState<T>(initial);
  const ref = useRef<T>(state);
  const set = useCallback<SetSynced<T>>((next) => {
    ref.current = typeof next === 'function' ? (next as (previous: T) => T)(ref.current) : next;
    setState(ref.current);
  }, []);
  return [state, set, ref];
}
