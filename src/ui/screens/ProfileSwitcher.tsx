// Switch the console to another profile or to the demo; add a profile; or enter credentials for the session.
// Profile names and URLs come from the config file, messages from the service: all shown sanitised.
import React, { useMemo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { errorLines } from '../components/ErrorLine';
import { Spinner } from '../components/Spinner';
import { commandFor, defineModes, noMatchReason } from '../keyboard/bindings';
import { FilterLine, filterLineMode, useRowFilter } from '../hooks/useRowFilter';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { listMoveFor, useListCursor } from '../hooks/useListCursor';
import { errorLine, useResource } from '../hooks/useResource';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import type { ProfileSummary } from '../targets';
import { fit, sanitize, wrapMessage, wrapText } from '../../terminal/text';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const PROFILE_MODES = defineModes({
  profiles: {
    title: 'Profiles',
    bindings: [
      { command: 'up', keystrokes: ['up', 'k'], description: 'Previous profile' },
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ choose', description: 'Next profile' },
      { command: 'first', keystrokes: ['home'], description: 'The first profile' },
      { command: 'last', keystrokes: ['end'], description: 'The last choice (the demo, unless a filter leaves it out)' },
      {
        command: 'open',
        keystrokes: ['enter'],
        hint: 'enter switch',
        description: 'Switch to the highlighted profile',
        disabledReason: noMatchReason('No profile matches the filter: nothing to switch to (esc clears it)'),
      },
      { command: 'add', keystrokes: ['a'], hint: 'a add profile', description: 'Add a profile' },
      { command: 'session', keystrokes: ['s'], hint: 's session only', description: 'Enter credentials for this run only' },
      { command: 'search', keystrokes: ['/'], hint: '/ filter', description: 'Filter the profiles as you type: a name, an address (esc clears the filter)' },
    ],
  },
  profilesFilter: filterLineMode('Profiles: filter', 'profile'),
});

/** The demo, the last choice of the list. */
const DEMO = { demo: true } as const;
type Entry = ProfileSummary | typeof DEMO;
const isDemo = (entry: Entry): entry is typeof DEMO => entry === DEMO;

/** What `/` matches in a row: its name and what is shown beside it. */
function entryText(entry: Entry): string {
  if (isDemo(entry)) return 'demo embedded sandbox, seeded data';
  return `${sanitize(entry.name)} ${sanitize(entry.baseUrl)}${entry.isDefault ? ' (default)' : ''}${entry.readOnly ? ' (read-only)' : ''}`;
}

export function ProfileSwitcher() {
  const { switcher, profile: currentProfile, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const profiles = useResource(async () => (switcher ? switcher.profiles() : []), [switcher]);
  const allEntries = useMemo<Entry[]>(() => [...(profiles.data ?? []), DEMO], [profiles.data]);
  const filter = useRowFilter(allEntries, entryText);
  const entries = filter.rows;
  const noMatch = filter.noMatch;
  useScreenMode(filter.editing ? 'profilesFilter' : 'profiles', { noMatch, filtered: filter.kept });
  const [opening, setOpening] = useState<string | undefined>();
  // Set at once (state shows on the next frame): a key typed right after enter already waits for the target.
  const openingNow = useRef(false);
  const [failure, setFailure] = useState<{ profile: ProfileSummary; message: string } | undefined>();

  // Height: the title, the error, the spinner and the failure's words first; the list takes what is left.
  const loadError = profiles.status === 'error' ? errorLines(errorLine(profiles.error), width, undefined, 3) : [];
  const failureLines = failure
    ? [
        ...wrapMessage(`⚠ ${failure.message}`, width, 6).map((text) => ({ text, color: theme.warn })),
        ...wrapText(`s enters the credentials of ${failure.profile.name} for this run only (kept in memory).`, width, 2).map((text) => ({
          text,
          color: undefined,
        })),
      ]
    : [];
  const fixed = 1 + loadError.length + (opening ? 1 : 0) + (filter.shown ? 1 : 0);
  const failureRoom = Math.max(0, Math.min(failureLines.length + 1, height - fixed - 1));
  const listRoom = Math.max(1, height - fixed - failureRoom);
  const list = useListCursor(entries.length, listRoom);
  // The list opens on the profile in use ("← now"): enter at once keeps it, never switches to the first. Placed in
  // the render that brings the list (an effect would let a key pressed at once move from the first row, then be undone).
  const [placed, setPlaced] = useState(false);
  if (!placed && profiles.status === 'ready') {
    setPlaced(true);
    const at = entries.findIndex((entry) => (isDemo(entry) ? 'demo' : entry.name) === currentProfile);
    if (at > 0) list.setCursor(at, entries.length);
  }

  const open = (entry: Entry) => {
    if (!switcher) return;
    setFailure(undefined);
    openingNow.current = true;
    if (isDemo(entry)) {
      setOpening('the demo');
      void switcher.openDemo();
      return;
    }
    setOpening(entry.name);
    const opened = entry.inMemory === true && switcher.openInMemory ? switcher.openInMemory(entry.name) : switcher.openProfile(entry.name);
    opened.then((result) => {
      if (!result.ok) {
        setFailure({ profile: entry, message: result.message });
        openingNow.current = false;
        setOpening(undefined);
      }
    });
  };

  useScreenKeystrokes(
    (input, keystroke) => {
      if (openingNow.current) return true;
      const filtering = filter.listKey(PROFILE_MODES.profilesFilter, input, keystroke, list, entries[list.cursor]);
      if (filtering !== undefined) return filtering;
      const command = commandFor(PROFILE_MODES.profiles, input, keystroke, { noMatch });
      const move = listMoveFor(command);
      if (move) {
        list.move(move);
        return true;
      }
      switch (command) {
        case 'open': {
          const entry = entries[list.cursor];
          if (entry) open(entry);
          return true;
        }
        case 'add':
          navigate({ type: 'push', route: { screen: 'addProfile' } });
          return true;
        case 'search':
          filter.open();
          return true;
        case 'session': {
          const entry = entries[list.cursor];
          const profile = entry && !isDemo(entry) && entry.inMemory !== true ? entry : failure?.profile;
          navigate({ type: 'push', route: { screen: 'sessionCredentials', profile: profile?.name, baseUrl: profile?.baseUrl } });
          return true;
        }
        default:
          return false;
      }
    },
    // The list's keys act on the profiles: they wait while they are read; while one opens, for its first screen.
    { active, busy: () => profiles.loadingNow() || openingNow.current },
  );

  const nameWidth = Math.min(16, Math.max(8, Math.floor(width * 0.3)));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{fit(`Profiles${entries.length > listRoom ? ` (${list.cursor + 1}/${entries.length})` : ''}`, width).trimEnd()}</Text>
      {loadError.map((line, i) => (
        <Text key={`e${i}`} color={theme.error}>
          {line}
        </Text>
      ))}
      {filter.shown ? <FilterLine filter={filter} list={list} focus={active} width={width} matched={entries.length} total={allEntries.length} /> : null}
      {noMatch ? <Text color={theme.muted}>{fit('No profile matches the filter; esc clears it.', width).trimEnd()}</Text> : null}
      {entries.slice(list.from, list.to).map((entry, i) => {
        const at = list.from + i;
        const here = at === list.cursor;
        const name = isDemo(entry) ? 'demo' : entry.name;
        const now = name === currentProfile ? '  ← now' : '';
        // The tags first: a narrow window cuts the address, never that a profile is read-only.
        const tags = isDemo(entry)
          ? []
          : [entry.readOnly ? '(read-only)' : '', entry.isDefault ? '(default)' : '', entry.inMemory ? '(this run only, in memory)' : ''].filter(
              (t) => t !== '',
            );
        const detail = isDemo(entry) ? 'embedded sandbox, seeded data' : [...tags, sanitize(entry.baseUrl)].join('  ');
        const detailRoom = Math.max(0, width - 2 - nameWidth - 1 - now.length);
        return (
          <Text key={`${at}-${name}`} inverse={here}>
            {here ? '› ' : '  '}
            {fit(sanitize(name), nameWidth)} <Text color={here ? undefined : theme.muted}>{fit(detail, detailRoom)}</Text>
            {now}
          </Text>
        );
      })}
      {opening ? <Spinner label={`Opening ${sanitize(opening)}…`} width={width} /> : null}
      {failure && failureRoom > 1 ? (
        <Box flexDirection="column" marginTop={1}>
          {failureLines.slice(0, failureRoom - 1).map((line, i) => (
            <Text key={i} color={line.color}>
              {line.text}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

export const PROFILES_SCREEN = defineScreen({ route: 'profiles', mode: 'profiles', render: () => <ProfileSwitcher /> });
