import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { ExchangeInfo } from '../../api/contract';
import { formatDuration } from '../../api/errors';
import { useServices } from '../services';
import { useClockUntil } from '../hooks/useClockUntil';
import { displayWidth, fit, sanitize } from '../../terminal/text';

/** "profile · source", said once when both are the same word (a profile named after where its keys came from). */
export function whoLine(profile: string, credentialSource: string): string {
  const name = sanitize(profile);
  const source = sanitize(credentialSource);
  return name === source || source === '' ? name : `${name} · ${source}`;
}

/** While the service bans this IP: the time left, whatever request met it or was held back by it. */
function banLine(last: ExchangeInfo | undefined, now: number): string | undefined {
  if (last?.banEndsAt === undefined) return undefined;
  if (last.banEndsAt <= now) return "– the service's ban of this IP has ended";
  const left = formatDuration(Math.ceil((last.banEndsAt - now) / 1000) * 1000);
  return `✗ the service has banned this IP for ${left} (HTTP 418) · nothing is sent until it ends`;
}

/**
 * The last request's result and latency: "✓ list keys 200 · 3 ms", "✗ … 503 · 12 ms · try 2", "– … cancelled",
 * and the proxy it went through ("· via http://proxy:3128", never its password).
 */
export function lastRequestLine(last: ExchangeInfo | undefined, now: number): string {
  const banned = banLine(last, now);
  if (banned !== undefined) return banned;
  if (!last) return 'no request yet';
  const mark = last.ok ? '✓' : last.cancelled ? '–' : '✗';
  const via = last.proxy === undefined ? '' : ` · via ${sanitize(last.proxy)}`;
  // A 2xx that failed all the same: its body never came whole (a stall, a cut connection).
  const result = last.cancelled
    ? 'cancelled'
    : last.status === undefined
      ? 'no answer'
      : !last.ok && last.status < 300
        ? `${last.status}, answer incomplete`
        : `${last.status}`;
  return `${mark} ${sanitize(last.operation)} ${result} · ${last.latencyMs} ms${last.attempt > 1 ? ` · try ${last.attempt}` : ''}${via}`;
}

/** " · next try in 8 s": when the waiting request goes. */
function nextTryLine(at: number, now: number): string {
  return ` · next try in ${formatDuration(Math.ceil((at - now) / 1000) * 1000)}`;
}

/**
 * The last request's result and latency, then the profile and its credential source: always one line of
 * `width` cells (the profile keeps at most 40% of it). The profile name is outside text (the config file).
 */
export function StatusBar({ width }: { width: number }) {
  const { exchanges, profile, credentialSource, theme } = useServices();
  // The line, not the exchange: a request that reads as the one before (a page of an export) draws no frame.
  const banEndsAt = useSyncExternalStore(exchanges.subscribe, () => exchanges.last()?.banEndsAt);
  // The ban's time left counts down (once a second, only while a ban is shown).
  const now = useClockUntil(banEndsAt);
  // A request waiting its Retry-After (or the service's budget) says when it goes, counting down the same way.
  const nextTryAt = useSyncExternalStore(exchanges.subscribe, () => exchanges.nextTryAt());
  const waitNow = useClockUntil(nextTryAt);
  const last = useSyncExternalStore(exchanges.subscribe, () => lastRequestLine(exchanges.last(), banEndsAt === undefined ? 0 : now));
  const what =
    nextTryAt !== undefined && nextTryAt > waitNow && !(banEndsAt !== undefined && banEndsAt > now) ? `${last}${nextTryLine(nextTryAt, waitNow)}` : last;
  const failed = what.startsWith('✗');
  const full = whoLine(profile, credentialSource);
  const whoRoom = Math.min(displayWidth(full), Math.max(8, Math.floor(width * 0.4)));
  const who = fit(full, whoRoom);
  const room = Math.max(0, width - whoRoom - 1);
  return (
    <Box width={width} height={1} overflowY="hidden">
      {/* The gap is the box's room, not spaces: Ink measures a short text with a "·" or "✓" at a fraction of a padded one. */}
      <Box width={room} flexShrink={0}>
        <Text color={failed ? theme.error : theme.muted}>{fit(what, room).trimEnd()}</Text>
      </Box>
      <Text color={theme.muted}> {who}</Text>
    </Box>
  );
}
