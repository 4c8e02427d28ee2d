// Add a profile: the connection is checked against the service before anything is saved; the secret goes
// to the keychain. If the keychain cannot be used, the same credentials can serve this run only.
import React from 'react';
import { Box, Text } from 'ink';
import { CredentialsForm, credentialsFormHeight, type CredentialValues } from '../components/CredentialsForm';
import { Spinner } from '../components/Spinner';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { useCredentialCheck } from '../hooks/useCredentialCheck';
import { roomFor, wrapMessage, wrapText } from '../../terminal/text';

const FIELDS = ['name', 'baseUrl', 'apiKey', 'secretKey', 'apiKeyHeader', 'postSignature', 'color'] as const;

export function AddProfileScreen() {
  const { switcher, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  useScreenMode('credentials');
  const { busy, failure: outcome, run } = useCredentialCheck();

  const submit = (values: CredentialValues) => {
    if (!switcher) return;
    run(() =>
      outcome?.keychainFailed
        ? switcher.useForSession(values)
        : switcher.addProfile({
            name: values.name,
            baseUrl: values.baseUrl,
            apiKey: values.apiKey,
            secretKey: values.secretKey,
            apiKeyHeader: values.apiKeyHeader,
            postSignature: values.postSignature,
            color: values.color,
          }),
    );
  };

  // Height: the title, the fields and the spinner first; then the error, the keychain's words, the explanation.
  const take = roomFor(height - 1 - FIELDS.length - (busy ? 1 : 0));
  const formError = outcome && !outcome.keychainFailed ? outcome : undefined;
  const formHeight = FIELDS.length + take(credentialsFormHeight(FIELDS.length, width, formError, FIELDS.length + 3) - FIELDS.length);
  const keychain = outcome?.keychainFailed
    ? [
        ...wrapMessage(`⚠ ${outcome.message}`, width, 3).map((text) => ({ text, color: theme.warn })),
        ...wrapText('Nothing was saved. Press enter to use these credentials for this run only (kept in memory).', width, 2).map((text) => ({
          text,
          color: undefined,
        })),
      ]
    : [];
  const keychainRoom = take(keychain.length);
  const gap = keychainRoom > 0 && take(1) === 1;
  const explanationRoom = take(2);
  const explanation =
    explanationRoom > 0 ? wrapText('The connection is checked before anything is saved. The secret goes to the OS keychain only.', width, explanationRoom) : [];
  const blank = take(1) === 1;

  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Add a profile</Text>
      {explanation.map((line, i) => (
        <Text key={i} color={theme.muted}>
          {line}
        </Text>
      ))}
      {blank ? <Text> </Text> : null}
      <CredentialsForm fields={FIELDS} initial={{}} active={active} busy={busy} error={formError} onSubmit={submit} width={width} height={formHeight} />
      {busy ? <Spinner label="Checking the connection…" width={width} /> : null}
      {keychainRoom > 0 ? (
        <Box flexDirection="column" marginTop={gap ? 1 : 0}>
          {keychain.slice(0, keychainRoom).map((line, i) => (
            <Text key={i} color={line.color}>
              {line.text}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

export const ADD_PROFILE_SCREEN = defineScreen({ route: 'addProfile', mode: 'credentials', render: () => <AddProfileScreen /> });
