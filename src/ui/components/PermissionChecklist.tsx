import React from 'react';
import { Box, Text } from 'ink';
import { KNOWN_PERMISSIONS } from '../../api/types';
import { useServices } from '../services';

export const CHECKLIST_COLUMNS = 2;

/** The known permissions in two columns; the highlighted cell shows only while the checklist has focus. */
export function PermissionChecklist({ checked, cursor, focused, width }: { checked: readonly string[]; cursor: number; focused: boolean; width: number }) {
  const { theme } = useServices();
  // Two cells a row that always fit the width, so a row never wraps into the next.
  const cell = Math.max(12, Math.min(30, Math.floor((width - 2) / CHECKLIST_COLUMNS)));
  const rows: string[][] = [];
  KNOWN_PERMISSIONS.forEach((permission, i) => {
    const row = Math.floor(i / CHECKLIST_COLUMNS);
    (rows[row] ??= []).push(permission);
  });
  return (
    <Box flexDirection="column">
      {rows.map((row, r) => (
        <Box key={row.join()} paddingLeft={2}>
          {row.map((permission, c) => {
            const index = r * CHECKLIST_COLUMNS + c;
            const on = checked.includes(permission);
            const here = focused && index === cursor;
            return (
              <Box key={permission} width={cell}>
                <Text inverse={here} color={on && !here ? theme.ok : undefined} wrap="truncate-end">
                  {on ? '[x] ' : '[ ] '}
                  {permission}
                </Text>
              </Box>
            );
          })}
        </Box>
      ))}
    </Box>
  );
}

/** Moves the checklist cursor in the grid. */
export function moveInChecklist(cursor: number, direction: 'up' | 'down' | 'left' | 'right'): number {
  const last = KNOWN_PERMISSIONS.length - 1;
  const delta = { up: -CHECKLIST_COLUMNS, down: CHECKLIST_COLUMNS, left: -1, right: 1 }[direction];
  const next = cursor + delta;
  return next < 0 || next > last ? cursor : next;
}
