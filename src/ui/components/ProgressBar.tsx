import React from 'react';
import { Text } from 'ink';
import { useServices } from '../services';

/** A bar for a known fraction; without one, a moving block says work is going on. */
export function ProgressBar({ fraction, width, tick }: { fraction: number | undefined; width: number; tick: number }) {
  const { theme } = useServices();
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
