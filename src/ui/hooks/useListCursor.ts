// A windowed list: the cursor and the first visible row, kept in a reducer so rapid keys never see stale state.
import { useEffect, useReducer } from 'react';
import type { KeyCommand } from '../keyboard/keyCommands';

interface ListWindow {
  cursor: number;
  offset: number;
}

type ListMove = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end';

const MOVE_OF_COMMAND: Readonly<Partial<Record<KeyCommand, ListMove>>> = {
  up: 'up',
  down: 'down',
  pageUp: 'pageUp',
  pageDown: 'pageDown',
  first: 'home',
  last: 'end',
};

/** The list move a screen's movement command stands for (`first`/`last` are home/end), if it is one. */
export function listMoveFor(command: KeyCommand | undefined): ListMove | undefined {
  return command === undefined ? undefined : MOVE_OF_COMMAND[command];
}

type Action =
  | { type: 'move'; move: ListMove; count: number; height: number }
  | { type: 'fit'; count: number; height: number }
  | { type: 'set'; cursor: number; count: number; height: number };

function clampWindow(cursor: number, offset: number, count: number, height: number): ListWindow {
  const c = count === 0 ? 0 : Math.min(Math.max(0, cursor), count - 1);
  let o = Math.min(Math.max(0, offset), Math.max(0, count - height));
  if (c < o) o = c;
  if (c >= o + height) o = c - height + 1;
  return { cursor: c, offset: Math.max(0, o) };
}

/** Each action carries the rendered count and height (a key right after the rows arrive must not meet the old count). */
function reducer(state: ListWindow, action: Action): ListWindow {
  const { count, height } = action;
  let next: ListWindow;
  switch (action.type) {
    case 'fit':
      next = clampWindow(state.cursor, state.offset, count, height);
      break;
    case 'set':
      next = clampWindow(action.cursor, state.offset, count, height);
      break;
    case 'move': {
      const step = { up: -1, down: 1, pageUp: -height, pageDown: height, home: -Infinity, end: Infinity }[action.move];
      const target = Number.isFinite(step) ? state.cursor + step : step < 0 ? 0 : count - 1;
      next = clampWindow(target, state.offset, count, height);
      break;
    }
  }
  // The same window is the same state: React then skips the render (a key at the end of the list, new rows that fit).
  return next.cursor === state.cursor && next.offset === state.offset ? state : next;
}

/** Puts the cursor on `row` in `rows`, the list about to be shown (reordered, or a filter cleared); else on the first row. */
export function cursorOnRow<T>(list: { setCursor: (index: number, length?: number) => void }, row: T | undefined, rows: readonly T[]): void {
  list.setCursor(Math.max(0, row === undefined ? 0 : rows.indexOf(row)), rows.length);
}

export function useListCursor(count: number, height: number) {
  const visible = Math.max(1, height);
  const [state, dispatch] = useReducer(reducer, { cursor: 0, offset: 0 });
  useEffect(() => dispatch({ type: 'fit', count, height: visible }), [count, visible]);
  const window = clampWindow(state.cursor, state.offset, count, visible);
  return {
    cursor: window.cursor,
    from: window.offset,
    to: Math.min(count, window.offset + visible),
    move: (move: ListMove) => dispatch({ type: 'move', move, count, height: visible }),
    /** `rows`: the count the list is about to have, when the same call changes it (a filter cleared). */
    setCursor: (cursor: number, rows: number = count) => dispatch({ type: 'set', cursor, count: rows, height: visible }),
  };
}
