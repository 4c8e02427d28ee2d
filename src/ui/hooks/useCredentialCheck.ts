// Runs one credential check at a time (add a profile, or session credentials) and keeps its failure;
// on success the console moves to the new target and the screen goes with the old one.
import { useState } from 'react';
import type { CheckOutcome } from '../targets';

type CheckFailure = Extract<CheckOutcome, { ok: false }>;

export function useCredentialCheck() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<CheckFailure | undefined>();
  const run = (check: () => Promise<CheckOutcome>) => {
    if (busy) return;
    setBusy(true);
    check().then(
      (result) => {
        if (!result.ok) setFailure(result);
        setBusy(false);
      },
      (error: unknown) => {
        setFailure({ ok: false, message: error instanceof Error ? error.message : String(error) });
        setBusy(false);
      },
    );
  };
  return { busy, failure, run };
}
