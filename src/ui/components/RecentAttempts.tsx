// The keys screen's last create attempts from the audit trail (newest first): time, outcome, shortened key,
// note. The trail is a file anyone could edit: every value is outside text, sanitised and fitted.
import React from 'react';
import { Box, Text } from 'ink';
import { type AuditEntry, SECRET_FATE_TEXT, type SecretFate, stillSending } from '../../config/auditTrail';
import { useServices } from '../services';
import { cell, displayWidth, fit } from '../../terminal/text';
import { formatLocalTime as localTime } from '../../api/timeInput';

/** At most this many attempts are shown. */
export const RECENT_ATTEMPTS = 3;
const TITLE = 'Recent create attempts (audit trail)';

/** Lines the block takes with `spare` lines left under the table: a title and one per entry, or none when not one entry fits. */
export function recentAttemptsHeight(entries: number, spare: number): number {
  const lines = Math.min(Math.min(entries, RECENT_ATTEMPTS) + 1, spare);
  return entries > 0 && lines >= 2 ? lines : 0;
}

/** One entry's line of exactly `width` cells (a narrow window drops the year from the time). */
function attemptLine(entry: AuditEntry, width: number): string {
  const when = localTime(Date.parse(entry.time));
  const time = width >= 60 ? when : when.slice(5);
  const key = entry.apiKey ?? (entry.code !== undefined ? `code ${entry.code}` : '-');
  // Another process still waiting for the answer: its attempt is under way, not of unknown outcome.
  const outcome = stillSending(entry) === undefined ? entry.outcome : 'sending';
  const head = `  ${cell(time, time.length)} ${cell(outcome, 7)} ${cell(key, 11)} `;
  // A created key whose secret the operator may not have says so before its note.
  const note = entry.secret === undefined ? entry.note : `⚠ ${fateShort(entry.secret)} · ${entry.note}`;
  return fit(`${head}${cell(note, Math.max(1, width - displayWidth(head)))}`, width);
}

/** The trail's own words for a fate, without the "created, " the outcome column already says. */
const fateShort = (fate: SecretFate): string => SECRET_FATE_TEXT[fate].replace(/^created, /, '');

export function RecentAttempts({ entries, width, height }: { entries: readonly AuditEntry[]; width: number; height: number }) {
  const { theme } = useServices();
  if (height < 2) return null;
  return (
    <Box flexDirection="column" width={width}>
      <Text color={theme.muted}>{fit(TITLE, width).trimEnd()}</Text>
      {entries.slice(0, Math.min(RECENT_ATTEMPTS, height - 1)).map((entry, i) => (
        <Text key={i} color={entry.outcome === 'created' && entry.secret === undefined ? undefined : theme.warn}>
          {attemptLine(entry, width).trimEnd()}
        </Text>
      ))}
    </Box>
  );
}
