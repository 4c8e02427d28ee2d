// A count down to a moment: the component draws again each second until then.
import { useEffect, useState } from 'react';

/** The time now, kept current each second until `until` (undefined: no count). */
export function useClockUntil(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  // A new moment to count to is counted from now, not from the last tick (which may be long past).
  useEffect(() => {
    if (until === undefined) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === undefined ? now : Math.max(now, Date.now());
}
