import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { displayWidth, fit, sanitize } from '../text';

/** "profile · source", said once when both are the same word (a profile named after where its keys came from). */
export function whoLine(profile: string, credentialSource: string): string {
  const name = sanitize(profile);
  const source = sanitize(credentialSource);
  return name === source || source === '' ? name : `${name} · ${source}`;
}

/**
 * The last request's result and latency, then the profile and its credential source: always one line of
 * `width` cells (the profile keeps at most 40% of it). The profile name is outside text (the config file).
 */
export function StatusBar({ width }: { width: number }) {
  const { exchanges, profile, credentialSource, theme } = useServices();
  const last = useSyncExternalStore(exchanges.subscribe, exchanges.last);
  const full = whoLine(profile, credentialSource);
  const whoRoom = Math.min(displayWidth(full), Math.max(8, Math.floor(width * 0.4)));
  const who = fit(full, whoRoom);
  const what = last
    ? `${last.ok ? '✓' : last.cancelled ? '–' : '✗'} ${sanitize(last.operation)} ${last.status ?? (last.cancelled ? 'cancelled' : 'no answer')} · ${last.latencyMs} ms${last.attempt > 1 ? ` · try ${last.attempt}` : ''}`
    : 'no request yet';
  const room = Math.max(0, width - whoRoom - 1);
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text>
        <Text color={last && !last.ok && !last.cancelled ? theme.error : theme.muted}>{fit(what, room)}</Text>
        <Text color={theme.muted}> {who}</Text>
      </Text>
    </Box>
  );
}
