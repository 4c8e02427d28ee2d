// Switch the console to another profile or to the demo; add a profile; or enter credentials for the session.
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import { ErrorLine } from '../components/ErrorLine';
import { Spinner } from '../components/Spinner';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { errorLine, useResource } from '../hooks/useResource';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import type { ProfileSummary } from '../targets';

export function ProfileSwitcher() {
  const { switcher, profile: currentProfile, theme } = useServices();
  const { active, width } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('profiles');
  const profiles = useResource(async () => (switcher ? switcher.profiles() : []), [switcher]);
  const entries: Array<ProfileSummary | 'demo'> = [...(profiles.data ?? []), 'demo'];
  const [cursor, setCursor] = useState(0);
  const [opening, setOpening] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ profile: ProfileSummary; message: string } | undefined>();

  const open = (entry: ProfileSummary | 'demo') => {
    if (!switcher) return;
    setFailure(undefined);
    if (entry === 'demo') {
      setOpening('the demo');
      void switcher.openDemo();
      return;
    }
    setOpening(entry.name);
    switcher.openProfile(entry.name).then((result) => {
      if (!result.ok) {
        setFailure({ profile: entry, message: result.message });
        setOpening(undefined);
      }
    });
  };

  useScreenKeys(
    (input, key) => {
      if (opening) return true;
      switch (commandFor('profiles', input, key)) {
        case 'up': setCursor((c) => Math.max(0, c - 1)); return true;
        case 'down': setCursor((c) => Math.min(entries.length - 1, c + 1)); return true;
        case 'open': { const entry = entries[cursor]; if (entry) open(entry); return true; }
        case 'add': navigate({ type: 'push', route: { screen: 'addProfile' } }); return true;
        case 'session': {
          const entry = entries[cursor];
          const profile = entry && entry !== 'demo' ? entry : failure?.profile;
          navigate({ type: 'push', route: { screen: 'sessionCredentials', profile: profile?.name, baseUrl: profile?.baseUrl } });
          return true;
        }
        default: return false;
      }
    },
    { active },
  );

  return (
    <Box flexDirection="column">
      <Text bold>Profiles</Text>
      {profiles.status === 'error' ? <ErrorLine message={errorLine(profiles.error)} width={width} /> : null}
      {entries.map((entry, i) => {
        const name = entry === 'demo' ? 'demo' : entry.name;
        const detail = entry === 'demo' ? 'embedded sandbox, seeded data' : `${entry.baseUrl}${entry.isDefault ? '  (default)' : ''}`;
        return (
          <Text key={name} inverse={i === cursor}>
            {i === cursor ? '› ' : '  '}
            {name.padEnd(16)} <Text color={i === cursor ? undefined : theme.muted}>{detail}</Text>
            {name === currentProfile ? '  ← now' : ''}
          </Text>
        );
      })}
      {opening ? <Spinner label={`Opening ${opening}…`} /> : null}
      {failure ? (
        <Box flexDirection="column" marginTop={1}>
          <Text color={theme.warn} wrap="wrap">⚠ {failure.message}</Text>
          <Text>s enters the credentials of {failure.profile.name} for this session only (kept in memory).</Text>
        </Box>
      ) : null}
    </Box>
  );
}
