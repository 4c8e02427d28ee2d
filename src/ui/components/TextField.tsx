// A one-line text field. Ours rather than ink-text-input's: keys that arrive in one chunk (fast typing, a
// held backspace, SSH) are applied one by one to the latest value, never to a stale one, and never as text.
import React, { useRef, useState } from 'react';
import { Text, useInput } from 'ink';
import { useServices } from '../services';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
  /** Shown instead of each character (secret entry). */
  mask?: string;
  /** Characters that are keys, not text, here (default '?', which opens help). */
  reserved?: string;
}

interface Edit {
  value: string;
  cursor: number;
}

/** Applies one chunk of input to the text: printable characters insert, DEL/BS erase, ^U clears, ^W drops a word. */
export function applyInput(
  edit: Edit,
  input: string,
  key: { backspace: boolean; delete: boolean; leftArrow: boolean; rightArrow: boolean; home: boolean; end: boolean; ctrl: boolean; meta: boolean },
  reserved = '',
): Edit {
  let { value, cursor } = edit;
  if (key.leftArrow) return { value, cursor: Math.max(0, cursor - 1) };
  if (key.rightArrow) return { value, cursor: Math.min(value.length, cursor + 1) };
  if (key.home || (key.ctrl && input === 'a')) return { value, cursor: 0 };
  if (key.end || (key.ctrl && input === 'e')) return { value, cursor: value.length };
  if (key.ctrl && input === 'u') return { value: value.slice(cursor), cursor: 0 };
  if (key.ctrl && input === 'w') {
    const before = value.slice(0, cursor).replace(/\S+\s*$/, '');
    return { value: before + value.slice(cursor), cursor: before.length };
  }
  if (key.ctrl || key.meta) return edit;
  // Ink reports a lone DEL as backspace (and some terminals send DEL for the backspace key).
  if ((key.backspace || key.delete) && input.length <= 1) return cursor === 0 ? edit : { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 };
  for (const ch of input) {
    if (ch === '\u007f' || ch === '\b') {
      if (cursor > 0) {
        value = value.slice(0, cursor - 1) + value.slice(cursor);
        cursor -= 1;
      }
    } else if (ch >= ' ' && ch !== '\u001b' && !reserved.includes(ch)) {
      value = value.slice(0, cursor) + ch + value.slice(cursor);
      cursor += ch.length;
    }
  }
  return { value, cursor };
}

export function TextField({ value, onChange, focus, placeholder = '', mask, reserved = '?' }: TextFieldProps) {
  const { theme } = useServices();
  const latest = useRef<Edit>({ value, cursor: value.length });
  if (latest.current.value !== value) latest.current = { value, cursor: Math.min(latest.current.cursor, value.length) };
  if (latest.current.cursor > value.length || (!focus && latest.current.cursor !== value.length)) latest.current.cursor = value.length;
  const [, redraw] = useState(0);

  useInput(
    (input, key) => {
      if (key.return || key.tab || key.escape || key.upArrow || key.downArrow || key.pageUp || key.pageDown) return;
      const next = applyInput(latest.current, input, key, reserved);
      if (next === latest.current) return;
      const changed = next.value !== latest.current.value;
      latest.current = next;
      if (changed) onChange(next.value);
      else redraw((n) => n + 1);
    },
    { isActive: focus },
  );

  // A masked value shows how much was typed, up to a bound, never what.
  const shown = mask === undefined ? value : `${mask.repeat(Math.min(value.length, 24))}${value.length > 24 ? ` (${value.length})` : ''}`;
  if (shown === '') {
    return focus ? (
      <Text>
        <Text inverse>{placeholder.slice(0, 1) || ' '}</Text>
        <Text color={theme.muted}>{placeholder.slice(1)}</Text>
      </Text>
    ) : (
      <Text color={theme.muted}>{placeholder}</Text>
    );
  }
  if (!focus) return <Text>{shown}</Text>;
  const at = mask === undefined ? latest.current.cursor : shown.length;
  return (
    <Text>
      {shown.slice(0, at)}
      <Text inverse>{shown.slice(at, at + 1) || ' '}</Text>
      {shown.slice(at + 1)}
    </Text>
  );
}
