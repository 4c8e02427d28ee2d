import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { fit } from '../text';

export interface TableColumn<T> {
  title: string;
  width: number;
  align?: 'left' | 'right';
  cell: (row: T) => string;
}

/** One line per row (no separators), only the visible rows rendered, the cursor row highlighted. */
export function WindowedTable<T>(props: {
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  from: number;
  to: number;
  cursor: number;
  rowKey: (row: T) => string;
  mark?: (row: T) => boolean;
}) {
  const { theme } = useServices();
  const { columns, rows, from, to, cursor, rowKey, mark } = props;
  const line = (cells: string[]) => cells.join(' ');
  return (
    <Box flexDirection="column">
      <Text bold color={theme.muted}>
        {'  '}
        {line(columns.map((c) => fit(c.title, c.width, c.align)))}
      </Text>
      {rows.slice(from, to).map((row, i) => {
        const selected = from + i === cursor;
        const marked = mark?.(row) ?? false;
        return (
          <Text key={rowKey(row)} inverse={selected} color={marked && !selected ? theme.ok : undefined}>
            {selected ? '› ' : marked ? '+ ' : '  '}
            {line(columns.map((c) => fit(c.cell(row), c.width, c.align)))}
          </Text>
        );
      })}
    </Box>
  );
}

/** Splits spare width among flexible columns so a row fits exactly in `width`. */
export function sizeColumns(width: number, fixed: number[], flexible: number[]): { fixed: number[]; flexible: number[] } {
  const gaps = fixed.length + flexible.length - 1 + 2;
  const spare = Math.max(flexible.length * 6, width - gaps - fixed.reduce((a, b) => a + b, 0));
  const total = flexible.reduce((a, b) => a + b, 0) || 1;
  const sized = flexible.map((weight) => Math.max(6, Math.floor((spare * weight) / total)));
  return { fixed, flexible: sized };
}
