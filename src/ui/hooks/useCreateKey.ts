// Sends a create-key request at most once at a time: a second submit while one is in flight does nothing.
import { useCallback, useEffect, useRef, useState } from 'react';
import { BrokerError } from '../../api/errors';
import type { CreatedKey, NewKeyRequest } from '../../api/types';
import type { AttemptRecorder, CreateResult } from '../../config/auditTrail';
import { secretUnreadable } from '../../format/secretText';
import { useServices } from '../services';

/** Why what the service sent as the secret cannot be shown as it is, if it cannot: the secret screen says so too. */
export function secretUnreadableReason(created: CreatedKey): string | undefined {
  return secretUnreadable(created.secretKey, created.secretUnreadable);
}

export type CreateState = { status: 'idle' } | { status: 'sending'; since: number } | { status: 'failed'; error: Error; outcomeUnknown: boolean };

/**
 * `attempt`: the trail's attempt whose line says the secret is not yet confirmed stored, if one was written;
 * `unrecorded`: a trail is kept but its line could not be written (a full or read-only disk).
 */
export function useCreateKey(onCreated: (created: CreatedKey, attempt?: string, unrecorded?: boolean) => void) {
  const { api, audit } = useServices();
  const [state, setState] = useState<CreateState>({ status: 'idle' });
  const inFlight = useRef(false);
  /** Whether a byte of the request in flight has left this process. */
  const sent = useRef(false);
  const controller = useRef<AbortController | undefined>(undefined);
  /** The request in flight's line written ahead (its recorder once written), for a close written on leaving. */
  const aheadOf = useRef<Promise<AttemptRecorder | undefined>>(Promise.resolve(undefined));
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const submit = useCallback(
    (request: NewKeyRequest): boolean => {
      if (inFlight.current) return false;
      inFlight.current = true;
      sent.current = false;
      setState({ status: 'sending', since: Date.now() });
      const abort = new AbortController();
      controller.current = abort;
      // On record (synced) before it is sent, so a console killed mid-request leaves the attempt as unknown.
      const ahead = audit ? audit.ahead(request).catch(() => undefined) : Promise.resolve(undefined);
      aheadOf.current = ahead;
      void ahead.then((outcome) => {
        const record = (result: CreateResult): void => void (outcome ? outcome(result) : audit?.(request, result))?.catch(() => undefined);
        return api.createSubAccountKey(request, { signal: abort.signal, onSending: () => void (sent.current = true) }).then(
          (created) => {
            inFlight.current = false;
            // The trail gets the shortened key only (never the secret); a failed write does not stop the create.
            const unreadable = secretUnreadableReason(created);
            if (!mounted.current) {
              // Its screen is gone (the console was left another way): nobody saw the secret, and the trail says so.
              record({ created, secret: 'not-delivered', reason: 'the create screen was gone when the answer came' });
              return;
            }
            if (unreadable) record({ created, secret: 'unreadable', reason: `the secret ${unreadable}` });
            // Shown, not yet known to be stored: the secret screen writes "created" over it once y is pressed, so a
            // console ended on that screen (a signal, a closed terminal, a crash) leaves the key marked.
            else if (outcome) record({ created, secret: 'unconfirmed' });
            // A trail that could not take the attempt gets no plain "created" now: it would read as confirmed (the
            // secret screen says the key is not on record).
            // The created key (with its secret) goes straight to the secret screen; this hook keeps none of it.
            setState({ status: 'idle' });
            onCreated(created, unreadable ? undefined : outcome?.attempt, audit !== undefined && outcome === undefined);
          },
          (error: unknown) => {
            inFlight.current = false;
            // Abandoned (the console was left): abandon() has closed the attempt, or its line says unknown and stays.
            if (!abort.signal.aborted) record({ error });
            const err = error instanceof Error ? error : new Error(String(error));
            const outcomeUnknown = err instanceof BrokerError && err.kind === 'outcome-unknown';
            if (mounted.current) setState({ status: 'failed', error: err, outcomeUnknown });
          },
        );
      });
      return true;
    },
    [api, audit, onCreated],
  );

  /**
   * Forgets the last attempt's error (the form was edited: its review starts clean). Not while one is in
   * flight, and not an unknown outcome: that key may exist, so nothing is sent until the list was checked.
   */
  const reset = useCallback(() => {
    if (!inFlight.current) setState((s) => (s.status === 'failed' && !s.outcomeUnknown ? { status: 'idle' } : s));
  }, []);

  /**
   * Stops waiting for the answer (the console is left): the attempt is recorded as unknown, or as not sent when
   * no byte of it had left. Whether it had.
   */
  const abandon = useCallback((): boolean => {
    if (!inFlight.current) return sent.current;
    controller.current?.abort();
    // Before a byte of it left (its line still being written, a wait for the rate limit): closed as not sent, in
    // the same turn as the line ahead is written, so the console's closing waits for it.
    if (!sent.current) void aheadOf.current.then((outcome) => outcome?.({ error: new BrokerError({ kind: 'aborted', operation: 'create key' }) }));
    return sent.current;
  }, []);

  /** Whether the request is out now (not as of the last render: an answer may have just come). */
  const inFlightNow = useCallback(() => inFlight.current, []);

  return { state, submit, reset, abandon, inFlightNow, sending: state.status === 'sending' };
}
