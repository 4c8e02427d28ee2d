// The key audit of some sub-accounts, for the audit screen: results arrive one sub-account at a time (so the
// screen fills in while the rest are fetched), cancelled when the screen goes away, run again by reload().
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchAudit, type SubAccountAudit } from '../../audit/fetchAudit';
import { DEFAULT_MAX_AGE_MS } from '../../audit/keyAudit';
import { ATTEMPTS_READ } from '../../audit/lostSecrets';
import { recentOf } from '../../config/auditTrail';
import { useServices } from '../services';
import { useSyncedState } from './useSyncedState';

interface KeyAudit {
  running: boolean;
  /** By the index of the name given; a hole until that sub-account's answer came. */
  results: ReadonlyArray<SubAccountAudit | undefined>;
  done: number;
  total: number;
  /** The moment the ages were measured from. */
  now: number;
  maxAgeMs: number;
  reload: () => void;
  /** Running, or a reload asked since this render (a key of the same chunk may have asked it): what keys wait for. */
  runningNow: () => boolean;
}

export function useKeyAudit(subAccounts: readonly string[]): KeyAudit {
  const { api, now: clock, audit } = useServices();
  const [generation, setGeneration, generationRef] = useSyncedState(0);
  // The run the state belongs to: until a reload's run starts, the state is the last run's.
  const started = useRef(generation);
  const [state, setState] = useState<{ running: boolean; results: Array<SubAccountAudit | undefined>; done: number; now: number }>(() => ({
    running: true,
    results: [],
    done: 0,
    now: clock(),
  }));
  const key = subAccounts.join('\n');
  // Read when a run starts; a new clock function alone does not start a run.
  const clockRef = useRef(clock);
  clockRef.current = clock;

  useEffect(() => {
    const controller = new AbortController();
    const now = clockRef.current();
    const names = key === '' ? [] : key.split('\n');
    // The audit trail read once for the run, whatever the number of sub-accounts.
    const onHost = audit?.onHost();
    started.current = generation;
    setState({ running: true, results: [], done: 0, now });
    void fetchAudit(api, names, {
      now,
      maxAgeMs: DEFAULT_MAX_AGE_MS,
      signal: controller.signal,
      ...(onHost ? { attemptsFor: async (subAccount: string) => recentOf(await onHost, subAccount, ATTEMPTS_READ) } : {}),
      onResult: (index, result) => {
        if (controller.signal.aborted) return;
        setState((s) => {
          const results = [...s.results];
          results[index] = result;
          return { ...s, results, done: s.done + 1 };
        });
      },
    })
      .catch(() => undefined)
      .finally(() => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, running: false }));
      });
    return () => controller.abort();
  }, [api, audit, key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), [setGeneration]);
  const running = state.running;
  const runningNow = () => running || generationRef.current !== started.current;
  return { ...state, total: subAccounts.length, maxAgeMs: DEFAULT_MAX_AGE_MS, reload, runningNow };
}
