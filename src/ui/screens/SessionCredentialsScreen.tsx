// Credentials for this run only: checked against the service, kept in memory, never written.
import React from 'react';
import { Box, Text } from 'ink';
import { CredentialsForm, credentialsFormHeight, type CredentialValues } from '../components/CredentialsForm';
import { Spinner } from '../components/Spinner';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { useCredentialCheck } from '../hooks/useCredentialCheck';
import { fit, roomFor, sanitize, wrapText } from '../../terminal/text';

const FIELDS = ['baseUrl', 'apiKey', 'secretKey'] as const;

export function SessionCredentialsScreen({ profile, baseUrl }: { profile?: string; baseUrl?: string }) {
  const { switcher, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  useScreenMode('credentials');
  const { busy, failure: outcome, run } = useCredentialCheck();

  const submit = (values: CredentialValues) => {
    if (!switcher) return;
    run(() => switcher.useForSession({ baseUrl: values.baseUrl, apiKey: values.apiKey, secretKey: values.secretKey }, profile));
  };

  // Height: the title, the fields and the spinner first; then the error (whole when it fits), the explanation.
  const take = roomFor(height - 1 - FIELDS.length - (busy ? 1 : 0));
  const formHeight = FIELDS.length + take(credentialsFormHeight(FIELDS.length, width, outcome, FIELDS.length + 4) - FIELDS.length);
  const explanationRoom = take(2);
  const explanation =
    explanationRoom > 0 ? wrapText('Checked against the service, then kept in memory while the console runs. Nothing is written.', width, explanationRoom) : [];
  const blank = take(1) === 1;
  const title = profile ? `Credentials of ${sanitize(profile)}, for this run only` : 'Credentials for this run only';

  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{fit(title, width).trimEnd()}</Text>
      {explanation.map((line, i) => (
        <Text key={i} color={theme.muted}>
          {line}
        </Text>
      ))}
      {blank ? <Text> </Text> : null}
      <CredentialsForm
        fields={FIELDS}
        initial={{ baseUrl: baseUrl ?? '' }}
        active={active}
        busy={busy}
        error={outcome}
        onSubmit={submit}
        width={width}
        height={formHeight}
      />
      {busy ? <Spinner label="Checking the connection…" width={width} /> : null}
    </Box>
  );
}

export const SESSION_CREDENTIALS_SCREEN = defineScreen({
  route: 'sessionCredentials',
  mode: 'credentials',
  render: (route) => <SessionCredentialsScreen profile={route.profile} baseUrl={route.baseUrl} />,
});
