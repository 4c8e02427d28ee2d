import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { displayWidth, fit, sanitize, takeWidth, wrapWords } from '../../terminal/text';

/** At most `max` lines; when some had to go, the last one kept ends with "…". */
export function capLines(lines: readonly string[], max: number, width: number): string[] {
  if (lines.length <= max) return [...lines];
  const kept = lines.slice(0, Math.max(1, max));
  kept[kept.length - 1] = `${takeWidth(kept[kept.length - 1]!, Math.max(0, width - 1))}…`;
  return kept;
}

/**
 * The lines of an error shown whole: the message (sanitised: a service's msg is outside text) wrapped to the
 * width, and the key that retries when a retry can help. `maxLines` bounds it only where the screen has no more room.
 */
export function errorLines(message: string, width: number, retryKey?: string, maxLines?: number): string[] {
  const room = Math.max(1, width);
  const hint = retryKey ? `(${retryKey} retry)` : '';
  let lines = wrapWords(`✗ ${sanitize(message)}`, room);
  // The retry hint is one piece: on the last line when it fits there, else on a line of its own.
  const fitsLast = (all: string[]) => hint !== '' && displayWidth(`${all[all.length - 1]!}  ${hint}`) <= room;
  if (maxLines !== undefined && lines.length + (hint && !fitsLast(lines) ? 1 : 0) > maxLines) {
    lines = capLines(lines, Math.max(1, hint ? maxLines - 1 : maxLines), room);
  }
  if (fitsLast(lines)) lines[lines.length - 1] = `${lines[lines.length - 1]!}  ${hint}`;
  else if (hint) lines.push(fit(hint, room).trimEnd());
  return lines;
}

/** An error shown whole, wrapped, in only the lines it needs (see errorLines). */
export function ErrorLine({ message, retryKey, width, maxLines }: { message: string; retryKey?: string; width: number; maxLines?: number }) {
  const { theme } = useServices();
  return (
    <Box flexDirection="column">
      {errorLines(message, width, retryKey, maxLines).map((line, i) => (
        <Text key={i} color={theme.error}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
