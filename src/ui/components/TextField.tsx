// A one-line text field. Ours rather than ink-text-input's: it edits by grapheme, measures by display
// width, scrolls inside the width it is given, takes keys from the app's key router (so keys that arrive
// together are applied one by one to the latest value) and takes a bracketed paste as text.
import React, { useRef, useState } from 'react';
import { Text } from 'ink';
import { applyKey, insert, pastedText, viewport, type LineEdit } from '../../terminal/lineEdit';
import { fit, takeWidth } from '../../terminal/text';
import { useFieldKeystrokes } from '../keyboard/keystrokes';
import { useServices } from '../services';

interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
  /** Shown instead of each character (secret entry). */
  mask?: string;
  /** Characters that are keys, not text, when typed here (default '?', which opens help); a paste still inserts them. */
  reserved?: string;
  /** Cells the field may take; a longer value scrolls so the cursor stays visible. */
  width?: number;
  /** What a line break in a paste becomes (default a space: a newline is never an Enter). */
  pasteLineBreak?: string;
  /** ← and → are the screen's (a field whose value they cycle through choices), not the cursor's. */
  arrowsToScreen?: boolean;
  /** Home and End are the screen's (a list below the field has the focus), not the cursor's. */
  homeEndToScreen?: boolean;
}

/** A masked value shows how much was typed, up to a bound, never what. */
const MASK_SHOWN = 24;

export function TextField({
  value,
  onChange,
  focus,
  placeholder = '',
  mask,
  reserved = '?',
  width,
  pasteLineBreak,
  arrowsToScreen = false,
  homeEndToScreen = false,
}: TextFieldProps) {
  const { theme } = useServices();
  const latest = useRef<LineEdit>({ value, cursor: value.length });
  // The parent replaced the value (cleared it, or put back a name to fix): the cursor goes to its end.
  if (latest.current.value !== value) latest.current = { value, cursor: value.length };
  if (!focus && latest.current.cursor !== value.length) latest.current = { value, cursor: value.length };
  const scroll = useRef(0);
  const [, redraw] = useState(0);

  const commit = (next: LineEdit) => {
    const before = latest.current;
    latest.current = next;
    if (next.value !== before.value) onChange(next.value);
    // Only the cursor moved: draw it there. Nothing moved (← at the start): nothing to draw.
    else if (next.cursor !== before.cursor) redraw((n) => n + 1);
  };

  useFieldKeystrokes(
    (input, keystroke) => {
      if (arrowsToScreen && (keystroke.leftArrow || keystroke.rightArrow) && !keystroke.ctrl && !keystroke.meta) return false;
      if (homeEndToScreen && (keystroke.home || keystroke.end)) return false;
      // A masked field has no cursor to move: its keys edit at the end only.
      const edit = mask === undefined ? latest.current : { value: latest.current.value, cursor: latest.current.value.length };
      const next = applyKey(edit, input, keystroke, reserved);
      if (next === undefined) return false;
      commit(next);
      return true;
    },
    (text) => commit(insert(latest.current, pastedText(text, pasteLineBreak ?? ' '))),
    focus,
  );

  const room = width ?? Number.POSITIVE_INFINITY;
  if (value === '') {
    const hint = Number.isFinite(room) ? takeWidth(placeholder, Math.max(0, room - 1)) : placeholder;
    return focus ? (
      <Text>
        <Text inverse>{hint.slice(0, 1) || ' '}</Text>
        <Text color={theme.muted}>{hint.slice(1)}</Text>
      </Text>
    ) : (
      <Text color={theme.muted}>{hint}</Text>
    );
  }
  if (mask !== undefined) {
    const shown = `${mask.repeat(Math.min(value.length, MASK_SHOWN))}${value.length > MASK_SHOWN ? ` (${value.length})` : ''}`;
    const text = Number.isFinite(room) ? fit(shown, Math.max(1, room - 1)).trimEnd() : shown;
    return focus ? (
      <Text>
        {text}
        <Text inverse> </Text>
      </Text>
    ) : (
      <Text>{text}</Text>
    );
  }
  if (!focus) return <Text>{Number.isFinite(room) ? fit(value, room).trimEnd() : value}</Text>;
  const view = viewport(latest.current, Number.isFinite(room) ? room : 1e9, scroll.current);
  scroll.current = view.start;
  return (
    <Text>
      {view.head}
      <Text inverse>{view.at}</Text>
      {view.tail}
    </Text>
  );
}
