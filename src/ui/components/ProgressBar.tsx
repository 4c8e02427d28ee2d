import React, { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useServices } from '../services';

/** How often the moving block steps. */
const STEP_MS = 120;

/** A bar for a known fraction; without one, a moving block says work is going on (it alone draws again as it moves). */
export function ProgressBar({ fraction, width }: { fraction: number | undefined; width: number }) {
  const { theme } = useServices();
  const moving = fraction === undefined;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!moving) return undefined;
    const timer = setInterval(() => setTick((t) => t + 1), STEP_MS);
    return () => clearInterval(timer);
  }, [moving]);
  const cells = Math.max(4, width);
  if (fraction === undefined) {
    const at = tick % cells;
    return (
      <Text color={theme.accent}>
        {'░'.repeat(at)}
        {'█'.repeat(Math.min(3, cells - at))}
        {'░'.repeat(Math.max(0, cells - at - 3))}
      </Text>
    );
  }
  const full = Math.round(Math.min(1, Math.max(0, fraction)) * cells);
  return (
    <Text color={theme.accent}>
      {'█'.repeat(full)}
      {'░'.repeat(cells - full)} {Math.round(fraction * 100)}%
    </Text>
  );
}
