// The first screen when there is nothing to connect to yet: add a profile, use credentials for this
// session only, or open the demo. Says why (no profile, or the keychain could not be used): that message and
// a profile name are outside text, shown sanitised and wrapped within the room the screen has.
import React, { useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { Spinner } from '../components/Spinner';
import { commandFor, defineModes } from '../keyboard/bindings';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { fit, sanitize, wrapMessage } from '../../terminal/text';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const WELCOME_MODES = defineModes({
  welcome: {
    title: 'Welcome',
    bindings: [
      { command: 'up', keystrokes: ['up', 'k'], description: 'Previous choice' },
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ choose', description: 'Next choice' },
      { command: 'open', keystrokes: ['enter'], hint: 'enter open', description: 'Open the highlighted choice' },
      { command: 'quit', keystrokes: ['q'], hint: 'q quit', description: 'Quit (esc does not: it is the first screen)' },
    ],
  },
});

interface Choice {
  label: string;
  detail: string;
  run: () => void;
}

export function WelcomeScreen() {
  const { switcher, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('welcome');
  const [cursor, setCursor] = useState(0);
  const [opening, setOpening] = useState(false);
  // Set at once (state shows on the next frame): keys typed right after enter wait for the demo's first screen.
  const openingNow = useRef(false);
  const problem = switcher?.startupProblem();

  const addProfile: Choice = {
    label: 'Add a profile',
    detail: 'base URL and master key; the secret goes to the OS keychain',
    run: () => navigate({ type: 'push', route: { screen: 'addProfile' } }),
  };
  const session: Choice = {
    label: problem?.profile ? `Enter the credentials of ${sanitize(problem.profile.name)} for this run` : 'Enter credentials for this run only',
    detail: 'kept in memory while the console runs, never written',
    run: () => navigate({ type: 'push', route: { screen: 'sessionCredentials', profile: problem?.profile?.name, baseUrl: problem?.profile?.baseUrl } }),
  };
  const demo: Choice = {
    label: 'Open the demo',
    detail: 'an embedded sandbox with seeded data; no credentials',
    run: () => {
      openingNow.current = true;
      setOpening(true);
      void switcher?.openDemo();
    },
  };
  // First run: the demo is one key away. A keychain problem: this run's credentials are.
  const choices =
    problem?.kind === 'keychain' ? [session, addProfile, demo] : problem?.kind === 'profiles' ? [session, demo, addProfile] : [demo, addProfile, session];

  useScreenKeystrokes(
    (input, keystroke) => {
      if (openingNow.current) return true;
      switch (commandFor(WELCOME_MODES.welcome, input, keystroke)) {
        case 'up':
          setCursor((c) => Math.max(0, c - 1));
          return true;
        case 'down':
          setCursor((c) => Math.min(choices.length - 1, c + 1));
          return true;
        case 'open':
          choices[cursor]?.run();
          return true;
        default:
          return false;
      }
    },
    { active, busy: () => openingNow.current },
  );

  // Height: the title and the three choices always; then the message (whole, up to 6 lines: what to do is at its
  // end), each choice's detail (all, or only the highlighted one's), and a blank line, as room allows.
  let spare = height - 1 - choices.length - (opening ? 1 : 0);
  const message = wrapMessage(problem?.message ?? 'No profile is set up yet.', width, Math.max(1, Math.min(6, spare - 1)));
  spare -= message.length;
  const details = spare >= choices.length ? 'all' : spare >= 1 ? 'highlighted' : 'none';
  spare -= details === 'all' ? choices.length : details === 'highlighted' ? 1 : 0;
  const blank = spare >= 1;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{fit('Welcome to broker-console', width).trimEnd()}</Text>
      {message.map((line, i) => (
        <Text key={i} color={problem?.kind === 'keychain' || problem?.kind === 'profiles' ? theme.warn : theme.muted}>
          {line}
        </Text>
      ))}
      {blank ? <Text> </Text> : null}
      {choices.map((choice, i) => (
        <Box key={choice.label} flexDirection="column">
          <Text inverse={i === cursor}>
            {i === cursor ? '› ' : '  '}
            {fit(choice.label, width - 2).trimEnd()}
          </Text>
          {details === 'all' || (details === 'highlighted' && i === cursor) ? (
            <Text color={theme.muted}>{fit(`    ${choice.detail}`, width).trimEnd()}</Text>
          ) : null}
        </Box>
      ))}
      {opening ? <Spinner label="Starting the demo…" width={width} /> : null}
    </Box>
  );
}

export const WELCOME_SCREEN = defineScreen({ route: 'welcome', mode: 'welcome', render: () => <WelcomeScreen /> });
