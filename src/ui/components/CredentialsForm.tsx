// Fields for a connection: a profile name (when saving), base URL, API key, the secret (masked) and the
// API-key header. Enter submits; the caller checks the connection before anything is kept.
import React from 'react';
import { Box, Text } from 'ink';
import type { CredentialField } from '../targets';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { useSyncedState } from '../hooks/useSyncedState';
import { LabeledInput } from './LabeledInput';
import { useServices } from '../services';

export type CredentialValues = Record<CredentialField, string>;

const LABELS: Record<CredentialField, string> = {
  name: 'Profile name',
  baseUrl: 'Base URL',
  apiKey: 'API key',
  secretKey: 'Secret',
  apiKeyHeader: 'Key header',
};

const PLACEHOLDERS: Record<CredentialField, string> = {
  name: 'e.g. prod',
  baseUrl: 'https://api.example.com',
  apiKey: 'the master API key',
  secretKey: 'the master secret (hidden)',
  apiKeyHeader: 'X-MEXC-APIKEY',
};

export function CredentialsForm(props: {
  fields: readonly CredentialField[];
  initial: Partial<CredentialValues>;
  active: boolean;
  busy: boolean;
  error?: { field?: CredentialField; message: string };
  onSubmit: (values: CredentialValues) => void;
  /** Extra keys of the screen (e.g. "s: use for this session"), tried before the form's own. */
  onKey?: (input: string) => boolean;
}) {
  const { theme } = useServices();
  const [values, setValues, valuesRef] = useSyncedState<CredentialValues>(() => ({
    name: '', baseUrl: '', apiKey: '', secretKey: '', apiKeyHeader: 'X-MEXC-APIKEY', ...props.initial,
  }));
  const [focus, setFocus] = useSyncedState(() => {
    const firstEmpty = props.fields.findIndex((f) => (props.initial[f] ?? '') === '');
    return firstEmpty < 0 ? 0 : firstEmpty;
  });

  useScreenKeys(
    (input, key) => {
      if (props.busy) return true; // nothing while the check is running
      const command = commandFor('credentials', input, key);
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
    { active: props.active, textEntry: 'text' },
  );

  return (
    <Box flexDirection="column">
      {props.fields.map((field, i) => (
        <LabeledInput
          key={field}
          label={LABELS[field]}
          value={values[field]}
          onChange={(value) => setValues((v) => ({ ...v, [field]: value }))}
          focused={props.active && !props.busy && i === focus}
          placeholder={PLACEHOLDERS[field]}
          error={props.error?.field === field ? props.error.message : undefined}
          labelWidth={16}
          mask={field === 'secretKey' ? '•' : undefined}
        />
      ))}
      {props.error && !props.error.field ? <Text color={theme.error}>✗ {props.error.message}</Text> : null}
    </Box>
  );
}
