// First screen: type a sub-account name, or pick a recent one (filtered as you type).
import React, { useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { checkSubAccount } from '../../api/validation';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';

export function SubAccountPicker() {
  const { recent, suggestions, theme } = useServices();
  const { active, height } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('picker');
  const [typed, setTyped] = useState('');
  const [highlight, setHighlight] = useState(-1);
  const [problem, setProblem] = useState<string | undefined>();

  const recentNames = recent.list();
  const choices = useMemo(() => {
    const seen = new Set<string>();
    const all = [...recentNames.map((name) => ({ name, recent: true })), ...suggestions.map((name) => ({ name, recent: false }))];
    const needle = typed.trim().toLowerCase();
    return all.filter(({ name }) => !seen.has(name) && seen.add(name) && name.toLowerCase().includes(needle));
  }, [recentNames, suggestions, typed]);
  const listRoom = Math.max(1, height - 6);
  const offset = Math.max(0, highlight - listRoom + 1);

  const open = (name: string) => {
    const checked = checkSubAccount(name);
    if (!checked.ok) return setProblem(checked.error.message);
    void recent.remember(checked.value).catch(() => undefined);
    setProblem(undefined);
    navigate({ type: 'push', route: { screen: 'keys', subAccount: checked.value } });
  };

  useScreenKeys(
    (input, key) => {
      switch (commandFor('picker', input, key)) {
        case 'up':
          setHighlight((h) => Math.max(-1, h - 1));
          return true;
        case 'down':
          setHighlight((h) => Math.min(choices.length - 1, h + 1));
          return true;
        case 'open': {
          const picked = highlight >= 0 ? choices[highlight]?.name : undefined;
          open(picked ?? typed);
          return true;
        }
        case 'transfers':
          navigate({ type: 'push', route: { screen: 'transferFilter' } });
          return true;
        default:
          return false;
      }
    },
    { active, textEntry: true },
  );

  return (
    <Box flexDirection="column">
      <Text bold>Choose a sub-account</Text>
      <Box>
        <Text>Sub-account: </Text>
        <TextInput
          value={typed}
          focus={active}
          placeholder="type a name"
          onChange={(value) => {
            setTyped(value);
            setHighlight(-1);
            setProblem(undefined);
          }}
        />
      </Box>
      {problem ? <Text color={theme.error}>✗ {problem}</Text> : <Text color={theme.muted}>enter opens it · ↓ picks from the list · ctrl+t transfers</Text>}
      <Text> </Text>
      {choices.length === 0 ? (
        <Text color={theme.muted}>{recentNames.length === 0 && suggestions.length === 0 ? 'No recent sub-accounts yet.' : 'No match: enter opens the name as typed.'}</Text>
      ) : (
        <Text color={theme.muted}>{recentNames.length > 0 ? 'Recent' : 'Sub-accounts'} ({choices.length})</Text>
      )}
      {choices.slice(offset, offset + listRoom).map((choice, i) => {
        const selected = offset + i === highlight;
        return (
          <Text key={choice.name} inverse={selected}>
            {selected ? '› ' : '  '}
            {choice.name}
            {choice.recent ? '' : <Text color={selected ? undefined : theme.muted}>  (demo)</Text>}
          </Text>
        );
      })}
    </Box>
  );
}
