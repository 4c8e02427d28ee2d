// Every page of the filter, fetched in the background for the chart (pages of 500, paced as an export is),
// summed as the pages come (src/export/summary.ts). Cancelling keeps what came: a partial summary, said to be
// one. Leaving the chart (unmount) stops the fetch.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_PAGE_SIZE, type Transfer, type TransferQuery } from '../../api/types';
import { SummaryBuilder, type TransferSummary } from '../../export/summary';
import { summarizePages } from '../../export/summaryPages';
import { useServices } from '../services';

export type ChartPhase = 'loading' | 'done' | 'cancelled' | 'failed';

export interface TransferChart {
  phase: ChartPhase;
  /** Pages read, and the transfers on them (before the `/` text). */
  pages: number;
  rows: number;
  /** 0..1 when the filter's start bounds it. */
  fraction: number | undefined;
  /** What came so far (the whole, once phase is done). */
  summary: TransferSummary;
  error: Error | undefined;
  /** Stops the fetch; the summary so far stays, marked partial. */
  cancel: () => void;
  /** Fetches every page again, from the first. */
  restart: () => void;
}

/** `keep`: only the transfers it keeps are summed (the `/` text kept on the transfers page); undefined: all. */
export function useTransferChart(query: TransferQuery, keep: ((t: Transfer) => boolean) | undefined): TransferChart {
  const { api, now } = useServices();
  const range = useCallback(() => ({ startTime: query.startTime, endTime: query.endTime, now: now() }), [query.startTime, query.endTime, now]);
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<Omit<TransferChart, 'cancel' | 'restart'>>(() => ({
    phase: 'loading',
    pages: 0,
    rows: 0,
    fraction: undefined,
    summary: new SummaryBuilder().result(range()),
    error: undefined,
  }));
  const controller = useRef<AbortController | undefined>(undefined);
  const keepRef = useRef(keep);
  keepRef.current = keep;

  useEffect(() => {
    const abort = new AbortController();
    controller.current = abort;
    let unmounted = false;
    const builder = new SummaryBuilder();
    setState({ phase: 'loading', pages: 0, rows: 0, fraction: undefined, summary: builder.result(range()), error: undefined });
    // Always every page from the first, at the largest page size, whatever page and size the screen shows.
    summarizePages(api, { ...query, page: 1, limit: MAX_PAGE_SIZE }, builder, {
      signal: abort.signal,
      keep: keepRef.current,
      now,
      onPage: ({ pages, rows, fraction }) => {
        if (!abort.signal.aborted) setState({ phase: 'loading', pages, rows, fraction, summary: builder.result(range()), error: undefined });
      },
    }).then(
      ({ pages, rows }) => {
        if (!unmounted) setState({ phase: 'done', pages, rows, fraction: 1, summary: builder.result(range()), error: undefined });
      },
      (error: unknown) => {
        if (unmounted) return;
        const summary = builder.result(range());
        if (abort.signal.aborted) setState((s) => ({ ...s, phase: 'cancelled', summary, error: undefined }));
        else setState((s) => ({ ...s, phase: 'failed', summary, error: error instanceof Error ? error : new Error(String(error)) }));
      },
    );
    return () => {
      unmounted = true;
      abort.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new filter or a restart is a new fetch; `range` follows the filter
  }, [api, JSON.stringify(query), generation]);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const restart = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, cancel, restart };
}
