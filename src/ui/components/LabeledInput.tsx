import React from 'react';
import { Box, Text } from 'ink';
import { TextField } from './TextField';
import { useServices } from '../services';

/** A one-line text field with its label, a note on the right (counter, preview) and its error below. */
export function LabeledInput(props: {
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
}) {
  const { theme } = useServices();
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={props.labelWidth ?? 14} flexShrink={0}>
          <Text color={props.focused ? theme.accent : undefined} bold={props.focused}>
            {props.focused ? '› ' : '  '}
            {props.label}
          </Text>
        </Box>
        <TextField value={props.value} onChange={props.onChange} focus={props.focused} placeholder={props.placeholder ?? ''} reserved={props.reserved} mask={props.mask} />
        {props.aside ? <Text color={theme.muted}>  {props.aside}</Text> : null}
      </Box>
      {props.error ? <Text color={theme.error}>{' '.repeat(props.labelWidth ?? 14)}✗ {props.error}</Text> : null}
    </Box>
  );
}
