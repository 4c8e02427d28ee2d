// First screen: type a sub-account name, or pick a recent one (filtered as you type). Names come from the
// operator and the recent file: shown sanitised, each in one line of the width.
import React, { useMemo, useState } from 'react';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { TextField } from '../components/TextField';
import { checkSubAccount } from '../../api/validation';
import { auditableNames } from '../../audit/fetchAudit';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { fit, sanitize, wrapText } from '../text';

export function SubAccountPicker() {
  const { recent, discovered, suggestions, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('picker');
  const [typed, setTyped, typedRef] = useSyncedState('');
  const [highlight, setHighlight, highlightRef] = useSyncedState(-1);
  const [problem, setProblem] = useState<string | undefined>();

  const recentNames = recent.list();
  const choices = useMemo(() => matchingChoices(recentNames, suggestions, typed), [recentNames, suggestions, typed]);
  // A problem is shown whole (wrapped, at most three lines); the list takes what is left.
  const problemLines = problem ? wrapText(`✗ ${problem}`, width, 3) : [];
  const hint = width >= 72 ? 'enter opens it · ↓ picks from the list · ctrl+t transfers · esc quits' : 'enter opens · ↓ the list · esc quits';
  const blank = height >= 8 ? 1 : 0;
  const listRoom = Math.max(1, height - 3 - Math.max(1, problemLines.length) - blank);
  const offset = Math.max(0, highlight - listRoom + 1);

  const open = (name: string) => {
    const checked = checkSubAccount(name);
    if (!checked.ok) return setProblem(checked.error.message);
    // The name joins the recent list once its keys were listed (see useSubAccountKeys), not before.
    setProblem(undefined);
    // Coming back finds the picker fresh, with the name just opened at the top of the recent list.
    setTyped('');
    setHighlight(-1);
    navigate({ type: 'push', route: { screen: 'keys', subAccount: checked.value } });
  };

  useScreenKeys(
    (input, key) => {
      switch (commandFor('picker', input, key)) {
        case 'up':
          setHighlight((h) => Math.max(-1, h - 1));
          return true;
        case 'down':
          setHighlight((h) => Math.min(matchingChoices(recentNames, suggestions, typedRef.current).length - 1, h + 1));
          return true;
        case 'open': {
          const latest = matchingChoices(recentNames, suggestions, typedRef.current);
          const picked = highlightRef.current >= 0 ? latest[highlightRef.current]?.name : undefined;
          open(picked ?? typedRef.current);
          return true;
        }
        case 'transfers':
          navigate({ type: 'push', route: { screen: 'transferFilter' } });
          return true;
        case 'audit': {
          const { names } = auditableNames(recent.list(), discovered.list().map((d) => d.name));
          if (names.length === 0) setProblem('nothing to audit yet: no recent or discovered sub-accounts (open one first)');
          else navigate({ type: 'push', route: { screen: 'keyAudit', subAccounts: names } });
          return true;
        }
        case 'quit':
          // Esc clears what was typed first; on an empty picker it is left to App, which quits.
          if (typedRef.current === '' && highlightRef.current < 0) return false;
          setTyped('');
          setHighlight(-1);
          setProblem(undefined);
          return true;
        default:
          return false;
      }
    },
    { active, textEntry: 'text' },
  );

  const heading =
    choices.length === 0
      ? recentNames.length === 0 && suggestions.length === 0 ? 'No recent sub-accounts yet.' : 'No match: enter opens the name as typed.'
      : `${recentNames.length === 0 ? 'Demo sub-accounts' : suggestions.length === 0 ? 'Recent' : 'Recent, then the demo sub-accounts'} (${choices.length})`;
  const label = 'Sub-account: ';
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Choose a sub-account</Text>
      <Box height={1} overflow="hidden">
        <Text>{label}</Text>
        <Box width={width - label.length} height={1} overflow="hidden" flexShrink={0}>
          <TextField
            value={typed}
            focus={active}
            placeholder="type a name"
            width={width - label.length}
            onChange={(value) => {
              setTyped(value);
              setHighlight(-1);
              setProblem(undefined);
            }}
          />
        </Box>
      </Box>
      {problemLines.length > 0 ? (
        problemLines.map((line, i) => (
          <Text key={i} color={theme.error}>
            {line}
          </Text>
        ))
      ) : (
        <Text color={theme.muted}>{fit(hint, width).trimEnd()}</Text>
      )}
      {blank ? <Text> </Text> : null}
      <Text color={theme.muted}>{fit(heading, width).trimEnd()}</Text>
      {choices.slice(offset, offset + listRoom).map((choice, i) => {
        const selected = offset + i === highlight;
        const mark = choice.recent ? '' : '  (demo)';
        return (
          <Text key={choice.name} inverse={selected}>
            {selected ? '› ' : '  '}
            {fit(sanitize(choice.name), width - 2 - mark.length).trimEnd()}
            {mark ? <Text color={selected ? undefined : theme.muted}>{mark}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}

/** Recent names first, then suggestions, without repeats, containing what was typed. */
function matchingChoices(recent: readonly string[], suggestions: readonly string[], typed: string): Array<{ name: string; recent: boolean }> {
  const seen = new Set<string>();
  const needle = typed.trim().toLowerCase();
  const all = [...recent.map((name) => ({ name, recent: true })), ...suggestions.map((name) => ({ name, recent: false }))];
  return all.filter(({ name }) => {
    if (seen.has(name)) return false;
    seen.add(name);
    return name.toLowerCase().includes(needle);
  });
}
