import React, { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { cell, fit } from '../../terminal/text';

export interface TableColumn<T> {
  title: string;
  width: number;
  align?: 'left' | 'right';
  cell: (row: T) => string;
}

type RowState = 'plain' | 'selected' | 'marked';
/** What starts each row: docs/console.md says what each means. */
export const MARKER: Record<RowState, string> = { plain: '  ', selected: '› ', marked: '+ ' };
/** Each marker is two characters, each one cell wide. */
const MARKER_CELLS = 2;

/**
 * One line per row (no separators), only the visible rows rendered, the cursor row highlighted (inverse and a
 * `›` marker, so it shows without colour). Cells are outside text: each is sanitised and fitted by display width,
 * so a control character never reaches the terminal, a CJK or emoji value keeps the columns aligned, and a
 * 200,000-character value costs what a short one does. `width`, when given, is a bound no line goes past.
 * A row's line is made once per page (rows), columns and width, when first shown: a key that moves the cursor
 * re-renders the two rows it changes, and recomputes none.
 */
export function WindowedTable<T>(props: {
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  from: number;
  to: number;
  cursor: number;
  mark?: (row: T) => boolean;
  width?: number;
  /** Text to highlight in every shown line (a search): underlined and inverse, so it shows without colour. */
  highlight?: string;
}) {
  const { theme } = useServices();
  const { columns, rows, from, to, cursor, mark, width } = props;
  const highlight = props.highlight?.trim() ?? '';
  const header = useMemo(() => {
    const text = `  ${columns.map((c) => fit(c.title, c.width, c.align)).join(' ')}`;
    return width === undefined ? text : fit(text, width).trimEnd();
  }, [columns, width]);
  // Per page: each row's line, made on first use. The cursor's (or a marked row's) line is the plain line with
  // its marker in place of the first two cells: each marker is two cells wide, so the fit is the same.
  const lines = useMemo(() => {
    const plain = new Map<number, string>();
    const cells = (row: T) => columns.map((c) => cell(c.cell(row), c.width, c.align)).join(' ');
    const fitted = (text: string) => (width === undefined ? text : fit(text, width));
    return (index: number, row: T, state: RowState): string => {
      // Too narrow for a marker and an ellipsis (never, from 40 columns up): fitted as it is.
      if (width !== undefined && width <= MARKER_CELLS) return fitted(`${MARKER[state]}${cells(row)}`);
      let line = plain.get(index);
      if (line === undefined) {
        line = fitted(`${MARKER.plain}${cells(row)}`);
        plain.set(index, line);
      }
      return state === 'plain' ? line : `${MARKER[state]}${line.slice(MARKER_CELLS)}`;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- lines are cached by index: new rows need a new cache
  }, [rows, columns, width]);
  return (
    <Box flexDirection="column">
      <Text bold color={theme.muted}>
        {header}
      </Text>
      {rows.slice(from, to).map((row, i) => {
        const index = from + i;
        const state: RowState = index === cursor ? 'selected' : (mark?.(row) ?? false) ? 'marked' : 'plain';
        // Keyed by position: a service may send the same id twice, and only the visible rows are drawn.
        return <TableRow key={index} line={lines(index, row, state)} state={state} markColor={theme.ok} highlight={highlight} />;
      })}
    </Box>
  );
}

/** A row re-renders only when its line or state changes. */
const TableRow = memo(function TableRow({
  line,
  state,
  markColor,
  highlight,
}: {
  line: string;
  state: RowState;
  markColor: string | undefined;
  highlight: string;
}) {
  const selected = state === 'selected';
  return (
    <Text inverse={selected} bold={selected} color={state === 'marked' ? markColor : undefined}>
      <Matched line={line} highlight={highlight} selected={selected} />
    </Text>
  );
});

/** A row's line with each match of `highlight` underlined, and inverse against the row (the cursor row is inverse already). */
export function Matched({ line, highlight, selected }: { line: string; highlight: string; selected: boolean }) {
  const parts = highlight === '' ? [line] : splitMatches(line, highlight);
  if (parts.length === 1) return <>{line}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Text key={i} underline bold inverse={!selected}>
            {part}
          </Text>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * The line cut around each case-insensitive occurrence of `needle`: even indexes are plain text, odd ones
 * matches (the marker cells are never part of a match).
 */
function splitMatches(line: string, needle: string): string[] {
  if (needle === '') return [line];
  const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
  const parts: string[] = [line.slice(0, MARKER_CELLS)];
  let at = MARKER_CELLS;
  pattern.lastIndex = at;
  for (let m = pattern.exec(line); m !== null && m[0] !== ''; m = pattern.exec(line)) {
    parts[parts.length - 1] += line.slice(at, m.index);
    parts.push(m[0], '');
    at = m.index + m[0].length;
  }
  parts[parts.length - 1] += line.slice(at);
  return parts;
}
