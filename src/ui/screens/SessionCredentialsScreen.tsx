// Credentials for this session only: checked against the service, kept in memory, never written.
import React from 'react';
import { Box, Text } from 'ink';
import { CredentialsForm, type CredentialValues } from '../components/CredentialsForm';
import { Spinner } from '../components/Spinner';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { useCredentialCheck } from '../hooks/useCredentialCheck';

export function SessionCredentialsScreen({ profile, baseUrl }: { profile?: string; baseUrl?: string }) {
  const { switcher, theme } = useServices();
  const { active } = useScreenFrame();
  useScreenMode('credentials');
  const { busy, failure: outcome, run } = useCredentialCheck();

  const submit = (values: CredentialValues) => {
    if (!switcher) return;
    run(() => switcher.useForSession({ baseUrl: values.baseUrl, apiKey: values.apiKey, secretKey: values.secretKey }, profile));
  };

  return (
    <Box flexDirection="column">
      <Text bold>{profile ? `Credentials of ${profile}, for this session only` : 'Credentials for this session only'}</Text>
      <Text color={theme.muted}>Checked against the service, then kept in memory while the console runs. Nothing is written.</Text>
      <Text> </Text>
      <CredentialsForm fields={['baseUrl', 'apiKey', 'secretKey']} initial={{ baseUrl: baseUrl ?? '' }} active={active} busy={busy} error={outcome} onSubmit={submit} />
      {busy ? <Spinner label="Checking the connection…" /> : null}
    </Box>
  );
}
