// One resource, loaded with cancellation: {status, data, error, reload}; the spinner shows only once it is slow.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BrokerError } from '../../api/errors';
import { sanitize } from '../../terminal/text';
import { useServices } from '../services';
import { useSyncedState } from './useSyncedState';
import { useClockUntil } from './useClockUntil';

type ResourceStatus = 'loading' | 'ready' | 'error';

export interface Resource<T> {
  status: ResourceStatus;
  data: T | undefined;
  error: BrokerError | Error | undefined;
  /** True once a load has taken longer than the spinner delay. */
  slow: boolean;
  reload: () => void;
  /** Loading, or a reload asked since this render (a key of the same chunk may have asked it): what keys wait for. */
  loadingNow: () => boolean;
}

const SPINNER_DELAY_MS = 100;

export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const [state, setState] = useState<{ request: number; status: ResourceStatus; data: T | undefined; error: Error | undefined }>({
    request: 0,
    status: 'loading',
    data: undefined,
    error: undefined,
  });
  // The request whose load has passed the spinner delay (keyed by request: a new one starts not slow, with no render).
  const [slowRequest, setSlowRequest] = useState(0);
  const [generation, setGeneration, generationRef] = useSyncedState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // Each set of deps is a new request; an answer counts only for the request it belongs to, so the render
  // right after a change (before the effect runs) already says "loading", never the old page as ready.
  const requests = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps are what makes a new request
  const request = useMemo(() => ++requests.current, [...deps, generation]);

  // Nothing is set as a load starts: the render for the new request already says "loading" (a state set here
  // drew the same frame a second time).
  useEffect(() => {
    const controller = new AbortController();
    const spinner = setTimeout(() => setSlowRequest(request), SPINNER_DELAY_MS);
    loadRef
      .current(controller.signal)
      .then(
        (data) => {
          if (!controller.signal.aborted) setState({ request, status: 'ready', data, error: undefined });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState((s) => ({ request, status: 'error', data: s.data, error: error instanceof Error ? error : new Error(String(error)) }));
        },
      )
      .finally(() => clearTimeout(spinner));
    return () => {
      clearTimeout(spinner);
      controller.abort();
    };
  }, [request]);

  const reload = useCallback(() => setGeneration((g) => g + 1), [setGeneration]);
  const current = state.request === request;
  const status = current ? state.status : 'loading';
  const loadingNow = () => status === 'loading' || generationRef.current !== generation;
  return { status, data: state.data, error: current ? state.error : undefined, slow: slowRequest === request, reload, loadingNow };
}

/**
 * errorLine, with a 429's "try again in N s" counting down from when the error was first shown; once the wait is
 * over, it says so.
 */
export function useErrorLine(error: Error | undefined): string {
  // When this error was first shown (a new error object starts a new count).
  const shown = useRef<{ error: Error | undefined; at: number }>({ error: undefined, at: 0 });
  if (shown.current.error !== error) shown.current = { error, at: Date.now() };
  const waits = error instanceof BrokerError && error.kind === 'service' && error.status === 429 && (error.retryAfterMs ?? 0) > 0;
  const until = waits ? shown.current.at + (error.retryAfterMs ?? 0) : undefined;
  const now = useClockUntil(until);
  if (!waits || until === undefined) return errorLine(error);
  return errorLine(error.withRetryAfter(until - now > 0 ? Math.ceil((until - now) / 1000) * 1000 : 0));
}

/** One line for any error the console shows, made safe for the terminal (a service's msg is outside text). */
export function errorLine(error: Error | undefined): string {
  if (!error) return '';
  return sanitize(error instanceof BrokerError ? error.toLine() : (error.message.split('\n')[0] ?? '') || 'unexpected error');
}

/**
 * Whether trying the same request again can help: the network, a timeout, a 5xx, a 429 (or 408). Not a 4xx the
 * service answered on purpose (700004 malformed parameter, an unknown sub-account, a bad signature), nor an
 * answer of the wrong shape, nor a local failure such as a file that cannot be written.
 */
export function retryable(error: Error | undefined): boolean {
  if (!(error instanceof BrokerError)) return false;
  switch (error.kind) {
    case 'network':
    case 'timeout':
      return true;
    case 'service':
      return error.status !== undefined && (error.status >= 500 || error.status === 429 || error.status === 408);
    default:
      return false;
  }
}

/**
 * retryable(), and for a ban's refusal or a 429's asked-for wait: not while it lasts (`r` would send nothing), and
 * yes once it has ended (the screen is drawn again at that moment, so `r` comes back without a key pressed).
 */
export function useRetryable(error: Error | undefined): boolean {
  const { now } = useServices();
  // A 429's wait counts from when the error was first shown, on the real clock (as useErrorLine counts it down).
  const shown = useRef<{ error: Error | undefined; at: number }>({ error: undefined, at: 0 });
  if (shown.current.error !== error) shown.current = { error, at: Date.now() };
  const banEnds = error instanceof BrokerError && error.kind === 'banned' ? error.banEndsAt : undefined;
  const waitMs = error instanceof BrokerError && error.kind === 'service' && error.status === 429 ? (error.retryAfterMs ?? 0) : 0;
  const waitEnds = waitMs > 0 ? shown.current.at + waitMs : undefined;
  const clock = banEnds !== undefined ? now : Date.now;
  const endsAt = banEnds ?? waitEnds;
  const [, redraw] = useState(0);
  useEffect(() => {
    if (endsAt === undefined) return undefined;
    const left = endsAt - clock();
    if (left < 0) return undefined;
    const timer = setTimeout(() => redraw((n) => n + 1), left + 1);
    return () => clearTimeout(timer);
  }, [endsAt, clock]);
  return endsAt === undefined ? retryable(error) : clock() >= endsAt;
}
