// Search in a list: the rows whose shown text (sanitised, any column) contains what was typed, case-insensitive,
// and the one-line filter field with its "12 of 500" count. The text of a row is made once per row object and
// the filtered list once per rows and filter text, never on a cursor move.
import React, { useMemo, useRef, useState } from 'react';
import { Box, Text, type Key } from 'ink';
import { commandFor, type ModeDeclaration } from '../keyboard/bindings';
import { TextField } from '../components/TextField';
import { cursorOnRow } from './useListCursor';
import { displayWidth, fit, grouped } from '../../terminal/text';
import { useServices } from '../services';

interface RowFilter<T> {
  /** The rows of another order (or page) as the search in force would show them. */
  apply: (rows: readonly T[]) => readonly T[];
  /** What is typed (kept when the line closes with enter). */
  text: string;
  setText: (text: string) => void;
  /** Whether the line is open for typing. */
  editing: boolean;
  open: () => void;
  /** Enter: the filter stays, keys go back to the rows. */
  keep: () => void;
  /** Esc: the filter goes, and the line closes. */
  clear: () => void;
  /** Whether a filter line is shown (typing, or a filter kept). */
  shown: boolean;
  rows: readonly T[];
  /** The search kept or typed matches none of a list that has rows. */
  noMatch: boolean;
  /** A search is kept (the line closed with enter): esc clears it before anything else. */
  kept: boolean;
  /** A keystroke while the line is open, read through `mode` (↑↓ move in the rows, enter keeps, esc clears); false when it is not the line's. */
  editingKey: (mode: ModeDeclaration<'up' | 'down' | 'keep' | 'clear'>, input: string, key: Key, list: ListMoves<T>) => boolean;
  /**
   * A keystroke of a list with this filter, before the list's own: while the line is open, the line's; with a
   * filter kept, esc clears it first. Cleared, the cursor stays on `selected`, now among all the rows.
   * undefined: not the filter's.
   */
  listKey: (
    mode: ModeDeclaration<'up' | 'down' | 'keep' | 'clear'>,
    input: string,
    key: Key,
    list: ListMoves<T>,
    selected: T | undefined,
  ) => boolean | undefined;
}

/** The mode of a list whose filter line is open, `item` naming what one row is. */
export function filterLineMode(title: string, item: string) {
  return {
    title,
    bindings: [
      { command: 'up', keystrokes: ['up'], description: `Previous ${item}` },
      { command: 'down', keystrokes: ['down'], hint: '↑↓ move', description: `Next ${item}` },
      { command: 'keep', keystrokes: ['enter'], hint: 'enter keep', description: 'Keep the filter and go back to moving in the rows' },
      { command: 'clear', keystrokes: ['esc'], hint: 'esc clear', description: 'Clear the filter and close the line' },
    ],
  } as const satisfies ModeDeclaration;
}

/** What the filter line needs of the list under it. */
interface ListMoves<T = unknown> {
  move: (direction: 'up' | 'down') => void;
  /** `length`: of the list the index is in, when it is not the one shown now. */
  setCursor: (index: number, length?: number) => void;
  /** Where the cursor goes when the search is cleared, given the rows shown then (absent: the first row). */
  afterClear?: (rows: readonly T[]) => void;
}

/** Whether `haystack` contains `needle`, case-insensitive (an empty needle matches every row). */
export function matchesFilter(haystack: string, needle: string): boolean {
  return needle === '' || haystack.toLocaleLowerCase().includes(needle.toLocaleLowerCase());
}

export function useRowFilter<T extends object>(rows: readonly T[], searchText: (row: T) => string): RowFilter<T> {
  const [text, setText] = useState('');
  const [editing, setEditing] = useState(false);
  // The text of each row, made once per row object (a sorted page reuses it).
  const texts = useRef(new WeakMap<T, string>());
  const searchRef = useRef(searchText);
  searchRef.current = searchText;
  const apply = (list: readonly T[], needle = text.trim()): readonly T[] => {
    if (needle === '') return list;
    return list.filter((row) => {
      let haystack = texts.current.get(row);
      if (haystack === undefined) {
        haystack = searchRef.current(row);
        texts.current.set(row, haystack);
      }
      return matchesFilter(haystack, needle);
    });
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- apply reads only refs besides its arguments
  const filtered = useMemo(() => apply(rows, text.trim()), [rows, text]);
  const clear = () => {
    setText('');
    setEditing(false);
  };
  const editingKey: RowFilter<T>['editingKey'] = (mode, input, keystroke, list) => {
    switch (commandFor(mode, input, keystroke)) {
      case 'up':
        list.move('up');
        return true;
      case 'down':
        list.move('down');
        return true;
      case 'keep':
        setEditing(false);
        return true;
      case 'clear':
        clear();
        if (list.afterClear) list.afterClear(rows);
        else list.setCursor(0);
        return true;
      default:
        return false;
    }
  };
  return {
    apply,
    text,
    setText,
    editing,
    open: () => setEditing(true),
    keep: () => setEditing(false),
    clear,
    shown: editing || text !== '',
    rows: filtered,
    noMatch: rows.length > 0 && filtered.length === 0,
    kept: !editing && text !== '',
    listKey(mode, input, keystroke, list, selected) {
      const keepSelected = (all: readonly T[]) => cursorOnRow(list, selected, all);
      if (editing) return editingKey(mode, input, keystroke, { ...list, afterClear: keepSelected });
      if (text === '' || !keystroke.escape) return undefined;
      clear();
      keepSelected(rows);
      return true;
    },
    editingKey,
  };
}

/**
 * The filter line: `/ text` and `N of M` at the right, one line, fitted to `width`. Typing there filters the
 * list and puts its cursor on the first match; `focus`: the screen's keys are its (the line takes them while open).
 */
export function FilterLine<T extends object>({
  filter,
  list,
  focus,
  width,
  matched,
  total,
  noun,
}: {
  filter: RowFilter<T>;
  list: Pick<ListMoves<T>, 'setCursor'>;
  focus: boolean;
  width: number;
  matched: number;
  total: number;
  noun?: string;
}) {
  const { theme } = useServices();
  const value = filter.text;
  const onChange = (text: string) => {
    filter.setText(text);
    list.setCursor(0);
  };
  const count = ` ${grouped(matched)} of ${grouped(total)}${noun ? ` ${noun}` : ''}`;
  const room = width - 2 - displayWidth(count);
  if (room < 4) {
    return <Text>{fit(`/ ${value}`, width).trimEnd()}</Text>;
  }
  return (
    <Box height={1} overflow="hidden" width={width}>
      <Text bold>/ </Text>
      <Box width={room}>
        <TextField value={value} onChange={onChange} focus={focus && filter.editing} width={room} placeholder="type to filter" />
      </Box>
      <Text color={theme.muted}>{count}</Text>
    </Box>
  );
}
