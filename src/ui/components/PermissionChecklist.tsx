import React from 'react';
import { Box, Text } from 'ink';
import { KNOWN_PERMISSIONS } from '../../api/types';
import { useServices } from '../services';
import { fit } from '../../terminal/text';

const LONGEST = Math.max(...KNOWN_PERMISSIONS.map((p) => p.length));
/** A cell: cursor mark, "[x] ", the name, a gap. */
const CELL = 1 + 4 + LONGEST + 1;
const INDENT = 2;

/** Two columns when both fit whole, else one: a name is never cut (…_READ and …_WRITE must stay apart). */
export function checklistColumns(width: number): number {
  return width - INDENT >= 2 * CELL ? 2 : 1;
}

/** Rows of the grid, and the first one shown when only `room` rows fit (the cursor's row stays in view). */
export function checklistWindow(cursor: number, columns: number, room: number): { rows: number; from: number; to: number } {
  const rows = Math.ceil(KNOWN_PERMISSIONS.length / columns);
  const shown = Math.max(1, Math.min(rows, room));
  const at = Math.floor(cursor / columns);
  const from = Math.max(0, Math.min(at - Math.floor((shown - 1) / 2), rows - shown));
  return { rows, from, to: from + shown };
}

/**
 * The known permissions in a grid. The highlighted cell shows only while the checklist has focus, with a
 * mark as well as inverse (NO_COLOR drops every style); at most `room` rows, scrolled to the cursor.
 */
export function PermissionChecklist({
  checked,
  cursor,
  focused,
  width,
  room = Infinity,
}: {
  checked: readonly string[];
  cursor: number;
  focused: boolean;
  width: number;
  room?: number;
}) {
  const { theme } = useServices();
  const columns = checklistColumns(width);
  const cell = Math.min(CELL + 2, Math.floor((width - INDENT) / columns));
  const grid: string[][] = [];
  KNOWN_PERMISSIONS.forEach((permission, i) => {
    (grid[Math.floor(i / columns)] ??= []).push(permission);
  });
  const { from, to } = checklistWindow(cursor, columns, room);
  return (
    <Box flexDirection="column">
      {grid.slice(from, to).map((row, r) => (
        <Text key={row.join()}>
          {' '.repeat(INDENT)}
          {row.map((permission, c) => {
            const index = (from + r) * columns + c;
            const on = checked.includes(permission);
            const here = focused && index === cursor;
            return (
              <Text key={permission}>
                <Text inverse={here} bold={here} color={on && !here ? theme.ok : undefined}>
                  {`${here ? '›' : ' '}${on ? '[x] ' : '[ ] '}${permission}`}
                </Text>
                {fit('', cell - (1 + 4 + permission.length))}
              </Text>
            );
          })}
        </Text>
      ))}
    </Box>
  );
}

/** Moves the checklist cursor in the grid of `columns` columns. */
export function moveInChecklist(cursor: number, direction: 'up' | 'down' | 'left' | 'right', columns = 2): number {
  const last = KNOWN_PERMISSIONS.length - 1;
  const delta = { up: -columns, down: columns, left: -1, right: 1 }[direction];
  const next = cursor + delta;
  return next < 0 || next > last ? cursor : next;
}
