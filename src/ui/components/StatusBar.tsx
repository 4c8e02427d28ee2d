import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { fit } from '../text';

/** Profile and its credential source, then the last request's result and latency. */
export function StatusBar({ width }: { width: number }) {
  const { exchanges, profile, credentialSource, theme } = useServices();
  const last = useSyncExternalStore(exchanges.subscribe, exchanges.last);
  const who = `${profile} · ${credentialSource}`;
  const what = last
    ? `${last.ok ? '✓' : '✗'} ${last.operation} ${last.status ?? 'no answer'} · ${last.latencyMs} ms${last.attempt > 1 ? ` · try ${last.attempt}` : ''}`
    : 'no request yet';
  const room = Math.max(0, width - who.length - 1);
  return (
    <Box width={width}>
      <Text color={last && !last.ok ? theme.error : theme.muted}>{fit(what, room)}</Text>
      <Text color={theme.muted}> {who}</Text>
    </Box>
  );
}
