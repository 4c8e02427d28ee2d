import { useEffect, useState } from 'react';

/** A short-lived notice ("Copied …") that clears itself. */
export function useFlash(ms = 2500): [string | undefined, (message: string) => void] {
  const [message, setMessage] = useState<string | undefined>();
  useEffect(() => {
    if (message === undefined) return undefined;
    const timer = setTimeout(() => setMessage(undefined), ms);
    return () => clearTimeout(timer);
  }, [message, ms]);
  return [message, setMessage];
}
