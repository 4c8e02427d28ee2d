// Add a profile: the connection is checked against the service before anything is saved; the secret goes
// to the keychain. If the keychain cannot be used, the same credentials can serve this session only.
import React from 'react';
import { Box, Text } from 'ink';
import { CredentialsForm, type CredentialValues } from '../components/CredentialsForm';
import { Spinner } from '../components/Spinner';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { useCredentialCheck } from '../hooks/useCredentialCheck';

export function AddProfileScreen() {
  const { switcher, theme } = useServices();
  const { active } = useScreenFrame();
  useScreenMode('credentials');
  const { busy, failure: outcome, run } = useCredentialCheck();

  const submit = (values: CredentialValues) => {
    if (!switcher) return;
    run(() =>
      outcome?.keychainFailed
        ? switcher.useForSession(values)
        : switcher.addProfile({ name: values.name, baseUrl: values.baseUrl, apiKey: values.apiKey, secretKey: values.secretKey, apiKeyHeader: values.apiKeyHeader }),
    );
  };

  return (
    <Box flexDirection="column">
      <Text bold>Add a profile</Text>
      <Text color={theme.muted}>The connection is checked before anything is saved. The secret goes to the OS keychain only.</Text>
      <Text> </Text>
      <CredentialsForm
        fields={['name', 'baseUrl', 'apiKey', 'secretKey', 'apiKeyHeader']}
        initial={{}}
        active={active}
        busy={busy}
        error={outcome && !outcome.keychainFailed ? outcome : undefined}
        onSubmit={submit}
      />
      {busy ? <Spinner label="Checking the connection…" /> : null}
      {outcome?.keychainFailed ? (
        <Box flexDirection="column" marginTop={1}>
          <Text color={theme.warn} wrap="wrap">⚠ {outcome.message}</Text>
          <Text>Nothing was saved. Press enter to use these credentials for this session only (kept in memory).</Text>
        </Box>
      ) : null}
    </Box>
  );
}
