// The first screen when there is nothing to connect to yet: add a profile, use credentials for this
// session only, or open the demo. Says why (no profile, or the keychain could not be used).
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import { Spinner } from '../components/Spinner';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';

interface Choice {
  label: string;
  detail: string;
  run: () => void;
}

export function WelcomeScreen() {
  const { switcher, theme } = useServices();
  const { active } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('welcome');
  const [cursor, setCursor] = useState(0);
  const [opening, setOpening] = useState(false);
  const problem = switcher?.startupProblem();

  const addProfile: Choice =
    { label: 'Add a profile', detail: 'base URL and master key; the secret goes to the OS keychain', run: () => navigate({ type: 'push', route: { screen: 'addProfile' } }) };
  const session: Choice = {
      label: problem?.profile ? `Enter the credentials of ${problem.profile.name} for this session` : 'Enter credentials for this session only',
      detail: 'kept in memory while the console runs, never written',
      run: () => navigate({ type: 'push', route: { screen: 'sessionCredentials', profile: problem?.profile?.name, baseUrl: problem?.profile?.baseUrl } }),
    };
  const demo: Choice = {
      label: 'Open the demo',
      detail: 'an embedded sandbox with seeded data; no credentials',
      run: () => {
        setOpening(true);
        void switcher?.openDemo();
      },
    };
  // First run: the demo is one key away. A keychain problem: this session's credentials are.
  const choices = problem?.kind === 'keychain' ? [session, addProfile, demo] : [demo, addProfile, session];

  useScreenKeys(
    (input, key) => {
      if (opening) return true;
      switch (commandFor('welcome', input, key)) {
        case 'up': setCursor((c) => Math.max(0, c - 1)); return true;
        case 'down': setCursor((c) => Math.min(choices.length - 1, c + 1)); return true;
        case 'open': choices[cursor]?.run(); return true;
        default: return false;
      }
    },
    { active },
  );

  return (
    <Box flexDirection="column">
      <Text bold>Welcome to broker-console</Text>
      <Text color={problem?.kind === 'keychain' ? theme.warn : theme.muted} wrap="wrap">
        {problem?.message ?? 'No profile is set up yet.'}
      </Text>
      <Text> </Text>
      {choices.map((choice, i) => (
        <Box key={choice.label} flexDirection="column">
          <Text inverse={i === cursor}>
            {i === cursor ? '› ' : '  '}
            {choice.label}
          </Text>
          <Text color={theme.muted}>    {choice.detail}</Text>
        </Box>
      ))}
      {opening ? <Spinner label="Starting the demo…" /> : null}
    </Box>
  );
}
