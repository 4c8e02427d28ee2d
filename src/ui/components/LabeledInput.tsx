import React from 'react';
import { Box, Text } from 'ink';
import { TextField } from './TextField';
import { useServices } from '../services';
import { displayWidth, fit, sanitize, wrapText } from '../../terminal/text';

interface LabeledInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  focused: boolean;
  placeholder?: string;
  aside?: string;
  error?: string;
  labelWidth?: number;
  /** Characters that stay keys (default '?', help); '' lets every character be typed. */
  reserved?: string;
  /** Shown instead of each character (the secret). */
  mask?: string;
  /** Cells the whole line may take: the value scrolls inside what the label and the aside leave. */
  width?: number;
  /** Lines the error may take below the field (wrapped; default 3). */
  maxErrorLines?: number;
  /** What a line break in a paste becomes (TextField's default: a space). */
  pasteLineBreak?: string;
}

/** The error lines under a field of `width` cells (what LabeledInput shows), for screens that budget height. */
export function inputErrorLines(error: string | undefined, width: number, labelWidth = 14, maxLines = 3): string[] {
  if (!error || maxLines <= 0) return [];
  return wrapText(error, Math.max(8, width - labelWidth - 2), maxLines);
}

/** A one-line text field with its label, a note on the right (counter, preview) and its error below. */
export function LabeledInput(props: LabeledInputProps) {
  const { theme } = useServices();
  const labelWidth = props.labelWidth ?? 14;
  const aside = props.aside ? `  ${props.aside}` : '';
  if (props.width === undefined) {
    return (
      <Box flexDirection="column">
        <Box>
          <Box width={labelWidth} flexShrink={0}>
            <Text color={props.focused ? theme.accent : undefined} bold={props.focused}>
              {props.focused ? '› ' : '  '}
              {props.label}
            </Text>
          </Box>
          <TextField
            value={props.value}
            onChange={props.onChange}
            focus={props.focused}
            placeholder={props.placeholder ?? ''}
            reserved={props.reserved}
            mask={props.mask}
            pasteLineBreak={props.pasteLineBreak}
          />
          {aside ? <Text color={theme.muted}>{aside}</Text> : null}
        </Box>
        {props.error ? (
          <Text color={theme.error}>
            {' '.repeat(labelWidth)}✗ {sanitize(props.error)}
          </Text>
        ) : null}
      </Box>
    );
  }
  const width = props.width;
  const valueWidth = Math.max(1, width - labelWidth - displayWidth(aside));
  // The field takes what its text needs (the aside follows it), up to all the room there is; then it scrolls.
  const placeholder = fit(props.placeholder ?? '', valueWidth - 1).trimEnd();
  const length = Array.from(props.value).length;
  const shown =
    props.value === ''
      ? displayWidth(placeholder)
      : props.mask !== undefined
        ? Math.min(length, 24) + (length > 24 ? ` (${length})`.length : 0)
        : displayWidth(sanitize(props.value));
  const boxWidth = Math.min(valueWidth, shown + 1);
  const errors = inputErrorLines(props.error, width, labelWidth, props.maxErrorLines ?? 3);
  return (
    <Box flexDirection="column" width={width}>
      <Box height={1} overflow="hidden">
        <Text color={props.focused ? theme.accent : undefined} bold={props.focused}>
          {fit(`${props.focused ? '› ' : '  '}${props.label}`, labelWidth)}
        </Text>
        <Box width={boxWidth} height={1} overflow="hidden" flexShrink={0}>
          <TextField
            value={props.value}
            onChange={props.onChange}
            focus={props.focused}
            placeholder={placeholder}
            reserved={props.reserved}
            mask={props.mask}
            width={valueWidth}
            pasteLineBreak={props.pasteLineBreak}
          />
        </Box>
        {aside ? <Text color={theme.muted}>{aside}</Text> : null}
      </Box>
      {errors.map((line, i) => (
        <Text key={i} color={theme.error}>
          {' '.repeat(labelWidth)}
          {i === 0 ? '✗ ' : '  '}
          {line}
        </Text>
      ))}
    </Box>
  );
}
