// Add a profile: the connection is checked against the service before anything is saved; the secret goes
// to the keychain. If the keychain cannot be used, the same credentials can serve this session only.
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import { CredentialsForm, type CredentialValues } from '../components/CredentialsForm';
import { Spinner } from '../components/Spinner';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import type { CheckOutcome } from '../targets';

export function AddProfileScreen() {
  const { switcher, theme } = useServices();
  const { active } = useScreenFrame();
  useScreenMode('credentials');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Extract<CheckOutcome, { ok: false }> | undefined>();

  const submit = (values: CredentialValues) => {
    if (!switcher || busy) return;
    setBusy(true);
    const run = outcome?.keychainFailed
      ? switcher.useForSession(values)
      : switcher.addProfile({ name: values.name, baseUrl: values.baseUrl, apiKey: values.apiKey, secretKey: values.secretKey, apiKeyHeader: values.apiKeyHeader });
    run.then(
      (result) => {
        // On success the console moves to the new target; this screen goes with the old one.
        if (!result.ok) setOutcome(result);
        setBusy(false);
      },
      (error: unknown) => {
        setOutcome({ ok: false, message: error instanceof Error ? error.message : String(error) });
        setBusy(false);
      },
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
