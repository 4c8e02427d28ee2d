// Fields for a connection: a profile name (when saving), base URL, API key, the secret (masked) and the
// API-key header. Enter submits; the caller checks the connection before anything is kept. Error messages
// (the service's, outside text) are sanitised and wrapped within the lines the screen gives the form.
import React from 'react';
import { Box, Text } from 'ink';
import type { CredentialField } from '../targets';
import { commandFor, defineModes } from '../keyboard/bindings';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useSyncedState } from '../hooks/useSyncedState';
import { LabeledInput, inputErrorLines } from './LabeledInput';
import { useServices } from '../services';
import { wrapText } from '../../terminal/text';
import { fieldWindow } from '../fieldWindow';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const CREDENTIALS_MODES = defineModes({
  credentials: {
    title: 'Credentials',
    bindings: [
      { command: 'next', keystrokes: ['tab', 'down'], hint: 'tab next', description: 'Next field' },
      { command: 'previous', keystrokes: ['shift+tab', 'up'], description: 'Previous field' },
      {
        command: 'submit',
        keystrokes: ['enter'],
        hint: 'enter check',
        description: 'Check the connection, then save or use it (after a keychain failure: use for this run only)',
      },
    ],
  },
});

/** The most lines an error under the form or a field takes. */
const ERROR_LINES = 6;
const LABEL_WIDTH = 16;

export type CredentialValues = Record<CredentialField, string>;

const LABELS: Record<CredentialField, string> = {
  name: 'Profile name',
  baseUrl: 'Base URL',
  apiKey: 'API key',
  secretKey: 'Secret',
  apiKeyHeader: 'Key header',
  postSignature: 'POST signing',
  color: 'Colour',
};

const PLACEHOLDERS: Record<CredentialField, string> = {
  name: 'e.g. prod',
  baseUrl: 'https://api.example.com',
  apiKey: 'the master API key',
  secretKey: 'the master secret (hidden)',
  apiKeyHeader: 'X-MEXC-APIKEY',
  postSignature: 'auto, query or body',
  color: 'blank, or red, yellow, green, blue, magenta, cyan',
};

export function CredentialsForm(props: {
  fields: readonly CredentialField[];
  initial: Partial<CredentialValues>;
  active: boolean;
  busy: boolean;
  error?: { field?: CredentialField; message: string };
  onSubmit: (values: CredentialValues) => void;
  /** Extra keys of the screen (e.g. "s: use for this run"), tried before the form's own. */
  onKey?: (input: string) => boolean;
  /** Cells a line may take. */
  width?: number;
  /** Lines the form may take: one a field, the rest for the error (wrapped). */
  height?: number;
}) {
  const { theme } = useServices();
  const [values, setValues, valuesRef] = useSyncedState<CredentialValues>(() => ({
    name: '',
    baseUrl: '',
    apiKey: '',
    secretKey: '',
    apiKeyHeader: 'X-MEXC-APIKEY',
    postSignature: 'auto',
    color: '',
    ...props.initial,
  }));
  const [focus, setFocus] = useSyncedState(() => {
    const firstEmpty = props.fields.findIndex((f) => (props.initial[f] ?? '') === '');
    return firstEmpty < 0 ? 0 : firstEmpty;
  });

  useScreenKeystrokes(
    (input, keystroke) => {
      // The keys that act during the check (esc, ?) do nothing: leaving would not stop a check that then switches.
      if (props.busy) return true;
      const command = commandFor(CREDENTIALS_MODES.credentials, input, keystroke);
      if (command === 'next' || command === 'previous') {
        setFocus((f) => (f + (command === 'next' ? 1 : props.fields.length - 1)) % props.fields.length);
        return true;
      }
      if (command === 'submit') {
        props.onSubmit(valuesRef.current);
        return true;
      }
      return false;
    },
    // Keys typed while the connection is checked wait for its answer (a failure leaves the form to edit).
    { active: props.active, textEntry: 'text', busy: () => props.busy },
  );

  const width = props.width ?? 80;
  const height = props.height ?? props.fields.length + ERROR_LINES;
  const errorRoom = errorRoomOf(height);
  // A message with no field (the service refused the connection) goes under the form, whole when there is room.
  const general = props.error && !props.error.field ? wrapText(`✗ ${props.error.message}`, width, errorRoom) : [];
  const faulted = props.error?.field ? inputErrorLines(props.error.message, width, LABEL_WIDTH, errorRoom).length : 0;
  // Taller than its room (a small window, an error under a field): the fields around the focused one are
  // shown, never a squeezed column whose rows print over each other.
  const [from, to] = fieldWindow(
    props.fields.map((field) => 1 + (props.error?.field === field ? faulted : 0)),
    Math.max(1, height - general.length),
    focus,
  );
  return (
    <Box flexDirection="column" width={width}>
      {props.fields.slice(from, to).map((field, at) => {
        const i = from + at;
        return (
          <LabeledInput
            key={field}
            label={LABELS[field]}
            value={values[field]}
            onChange={(value) => setValues((v) => ({ ...v, [field]: value }))}
            focused={props.active && !props.busy && i === focus}
            placeholder={PLACEHOLDERS[field]}
            error={props.error?.field === field ? props.error.message : undefined}
            labelWidth={LABEL_WIDTH}
            mask={field === 'secretKey' ? '•' : undefined}
            width={width}
            maxErrorLines={errorRoom}
          />
        );
      })}
      {general.map((line, i) => (
        <Text key={i} color={theme.error}>
          {line}
        </Text>
      ))}
    </Box>
  );
}

/** Lines the form takes with this error, for screens that budget their height. */
export function credentialsFormHeight(
  fields: number,
  width: number,
  error: { field?: CredentialField; message: string } | undefined,
  maxLines: number,
): number {
  if (!error) return fields;
  const errorRoom = errorRoomOf(maxLines);
  const lines = error.field ? inputErrorLines(error.message, width, LABEL_WIDTH, errorRoom) : wrapText(`✗ ${error.message}`, width, errorRoom);
  return fields + lines.length;
}

/** Lines an error may take: up to ERROR_LINES, leaving a line for its field. */
function errorRoomOf(height: number): number {
  return Math.max(1, Math.min(ERROR_LINES, height - 1));
}
