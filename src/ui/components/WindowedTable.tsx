import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { cell, fit } from '../../terminal/text';

export interface TableColumn<T> {
  title: string;
  width: number;
  align?: 'left' | 'right';
  cell: (row: T) => string;
}

/**
 * One line per row (no separators), only the visible rows rendered, the cursor row highlighted (inverse and a
 * `›` marker, so it shows without colour). Cells are outside text: each is sanitised and fitted by display width,
 * so a control character never reaches the terminal, a CJK or emoji value keeps the columns aligned, and a
 * 200,000-character value costs what a short one does. `width`, when given, is a bound no line goes past.
 */
export function WindowedTable<T>(props: {
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  from: number;
  to: number;
  cursor: number;
  rowKey: (row: T) => string;
  mark?: (row: T) => boolean;
  width?: number;
}) {
  const { theme } = useServices();
  const { columns, rows, from, to, cursor, mark, width } = props;
  const bound = (line: string) => (width === undefined ? line : fit(line, width).trimEnd());
  const line = (cells: string[]) => cells.join(' ');
  return (
    <Box flexDirection="column">
      <Text bold color={theme.muted}>
        {bound(`  ${line(columns.map((c) => fit(c.title, c.width, c.align)))}`)}
      </Text>
      {rows.slice(from, to).map((row, i) => {
        const selected = from + i === cursor;
        const marked = mark?.(row) ?? false;
        const text = `${selected ? '› ' : marked ? '+ ' : '  '}${line(columns.map((c) => cell(c.cell(row), c.width, c.align)))}`;
        return (
          // Keyed by position: a service may send the same id twice, and only the visible rows are drawn.
          <Text key={from + i} inverse={selected} bold={selected} color={marked && !selected ? theme.ok : undefined}>
            {width === undefined ? text : fit(text, width)}
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
