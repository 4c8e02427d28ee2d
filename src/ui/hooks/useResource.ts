// One resource, loaded with cancellation: {status, data, error, reload}; the spinner shows only after 100 ms.
import { useCallback, useEffect, useRef, useState } from 'react';
import { BrokerError } from '../../api/errors';

export type ResourceStatus = 'loading' | 'ready' | 'error';

export interface Resource<T> {
  status: ResourceStatus;
  data: T | undefined;
  error: BrokerError | Error | undefined;
  /** True once a load has taken longer than the spinner delay. */
  slow: boolean;
  reload: () => void;
}

export const SPINNER_DELAY_MS = 100;

export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const [state, setState] = useState<{ status: ResourceStatus; data: T | undefined; error: Error | undefined }>({
    status: 'loading',
    data: undefined,
    error: undefined,
  });
  const [slow, setSlow] = useState(false);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data, error: undefined }));
    setSlow(false);
    const spinner = setTimeout(() => setSlow(true), SPINNER_DELAY_MS);
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data, error: undefined });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => ({ status: 'error', data: s.data, error: error instanceof Error ? error : new Error(String(error)) }));
      },
    ).finally(() => clearTimeout(spinner));
    return () => {
      clearTimeout(spinner);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, slow, reload };
}

/** One line for any error the console shows. */
export function errorLine(error: Error | undefined): string {
  if (!error) return '';
  return error instanceof BrokerError ? error.toLine() : error.message.split('\n')[0] ?? 'unexpected error';
}
