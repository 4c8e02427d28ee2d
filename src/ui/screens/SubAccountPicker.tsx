// First screen: type a sub-account name, or pick a recent one, one discovered in transfers (ctrl+d scans for
// more), or a demo one (filtered as you type). Names come from the operator, the recent file and the service:
// shown sanitised, each in one line of the width.
import React, { useEffect, useMemo, useRef, useState } from 'react';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { TextField } from '../components/TextField';
import { checkSubAccount } from '../../api/validation';
import { auditableNames } from '../../audit/fetchAudit';
import { commandFor, defineModes } from '../keyboard/bindings';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { displayWidth, fit, grouped, sanitize, wrapText } from '../../terminal/text';
import { formatLocalTime as localTime } from '../../api/timeInput';
import type { DiscoveredSubAccount } from '../../config/discoveredSubAccounts';
import { fieldMessage } from '../fieldLabels';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const PICKER_MODES = defineModes({
  picker: {
    title: 'Choose a sub-account',
    bindings: [
      { command: 'up', keystrokes: ['up'], description: 'Previous suggestion' },
      { command: 'down', keystrokes: ['down'], hint: '↑↓ choose', description: 'Next suggestion' },
      { command: 'first', keystrokes: ['home'], description: 'First suggestion, once one is highlighted (before: the start of the name)' },
      { command: 'last', keystrokes: ['end'], description: 'Last suggestion, once one is highlighted (before: the end of the name)' },
      { command: 'open', keystrokes: ['enter'], hint: 'enter open', description: 'Open the typed or highlighted sub-account' },
      { command: 'transfers', keystrokes: ['ctrl+t'], hint: '^t transfers', description: 'Browse universal transfers' },
      {
        command: 'discover',
        keystrokes: ['ctrl+d'],
        hint: '^d discover',
        description: 'Discover sub-accounts in the transfer history of recent days (30 unless another number is typed)',
      },
      {
        command: 'audit',
        keystrokes: ['ctrl+r'],
        hint: '^r audit',
        description: 'Audit the keys of every recent and discovered sub-account, or of those the typed text matches',
      },
      { command: 'forget', keystrokes: ['ctrl+x'], description: 'Forget the highlighted recent name (it leaves the recent list of this target)' },
      { command: 'clear', keystrokes: ['esc'], hint: 'esc clear', description: 'Clear the name (esc never quits here: ctrl+c does)' },
      { command: 'quit', keystrokes: ['ctrl+c'], hint: '^c quit', description: 'Quit' },
    ],
  },
});

export function SubAccountPicker() {
  const { recent, discovered, suggestions, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('picker');
  const [typed, setTyped, typedRef] = useSyncedState('');
  const [highlight, setHighlight, highlightRef] = useSyncedState(-1);
  const [problem, setProblem] = useState<string | undefined>();
  // Bumped when a recent name is forgotten, so the list is read again.
  const [, setForgotten] = useState(0);

  const recentNames = recent.list();
  // The name last opened: one whose keys never listed (mistyped, refused) comes back typed, to be fixed.
  const opened = useRef<string | undefined>(undefined);
  // Said while it stands as it came back: typing adds to it (to fix it), esc clears it for another name.
  const [restored, setRestored] = useState<string | undefined>();
  useEffect(() => {
    if (!active || opened.current === undefined) return;
    const name = opened.current;
    opened.current = undefined;
    if (!recent.list().includes(name)) {
      setTyped(name);
      setRestored(name);
    }
  }, [active, recent, setTyped]);
  const found = discovered.list();
  const choices = useMemo(() => matchingChoices(recentNames, found, suggestions, typed), [recentNames, found, suggestions, typed]);
  // A problem is shown whole (wrapped, at most three lines); the list takes what is left.
  const problemLines = problem ? wrapText(`✗ ${problem}`, width, 3) : [];
  // With a name typed, the line says which sub-account enter opens: a filter that leaves one name opens that name,
  // which may not be the one typed (delta04 typed, delta043 opened).
  const opens = highlight >= 0 ? choices[highlight]?.name : typed.trim() !== '' ? enterOpens(choices, typed) : undefined;
  const hint =
    restored !== undefined && typed === restored
      ? width >= 72
        ? 'the name that did not open, back to be fixed · esc clears it for another · enter tries it again'
        : 'the name that did not open · esc clears it'
      : opens !== undefined
        ? highlight >= 0
          ? `enter opens ${sanitize(opens)} · ↑↓ another · esc clears`
          : `enter opens ${sanitize(opens)}${opens === typed.trim() ? '' : ` (the one name matching "${sanitize(typed.trim())}")`} · ↓ picks from the list`
        : width >= 72
          ? 'type a name, or ↓ to pick one from the list · ctrl+t transfers · ctrl+c quits'
          : 'type a name, or ↓ the list · ctrl+c quits';
  const blank = height >= 8 ? 1 : 0;
  const listRoom = Math.max(1, height - 3 - Math.max(1, problemLines.length) - blank);
  const offset = Math.max(0, highlight - listRoom + 1);

  const open = (name: string) => {
    const checked = checkSubAccount(name);
    if (!checked.ok) return setProblem(fieldMessage(checked.error));
    // The name joins the recent list once its keys were listed (see useSubAccountKeys), not before.
    setProblem(undefined);
    // Coming back finds the picker fresh, with the name just opened at the top of the recent list (or, if its
    // keys never listed, typed again).
    opened.current = checked.value;
    setTyped('');
    setHighlight(-1);
    navigate({ type: 'push', route: { screen: 'keys', subAccount: checked.value } });
  };

  useScreenKeystrokes(
    (input, keystroke) => {
      switch (commandFor(PICKER_MODES.picker, input, keystroke)) {
        case 'up':
          setHighlight((h) => Math.max(-1, h - 1));
          return true;
        case 'down':
          setHighlight((h) => Math.min(matchingChoices(recentNames, found, suggestions, typedRef.current).length - 1, h + 1));
          return true;
        case 'first':
          setHighlight(0);
          return true;
        case 'last':
          setHighlight(matchingChoices(recentNames, found, suggestions, typedRef.current).length - 1);
          return true;
        case 'open': {
          const latest = matchingChoices(recentNames, found, suggestions, typedRef.current);
          open(highlightRef.current >= 0 ? (latest[highlightRef.current]?.name ?? typedRef.current) : enterOpens(latest, typedRef.current));
          return true;
        }
        case 'transfers':
          navigate({ type: 'push', route: { screen: 'transferFilter' } });
          return true;
        case 'discover':
          navigate({ type: 'push', route: { screen: 'discover' } });
          return true;
        case 'audit': {
          // With a name typed, the chosen set is what the list shows for it; else every recent and discovered one.
          const typedNow = typedRef.current.trim();
          const { names } =
            typedNow === ''
              ? auditableNames(
                  recent.list(),
                  discovered.list().map((d) => d.name),
                )
              : auditableNames(matchingChoices(recent.list(), discovered.list(), suggestions, typedNow).map((c) => c.name));
          if (names.length === 0)
            setProblem(
              typedNow === ''
                ? 'nothing to audit yet: no recent or discovered sub-accounts (open one first)'
                : 'nothing to audit: no sub-account in the list matches what is typed',
            );
          else navigate({ type: 'push', route: { screen: 'keyAudit', subAccounts: names } });
          return true;
        }
        case 'forget': {
          const latest = matchingChoices(recent.list(), discovered.list(), suggestions, typedRef.current);
          const chosen = highlightRef.current >= 0 ? latest[highlightRef.current] : undefined;
          if (chosen?.kind !== 'recent') {
            setProblem('only a recent name can be forgotten: highlight one with ↑↓ first');
            return true;
          }
          void recent.forget(chosen.name).then(
            () => setForgotten((n) => n + 1),
            (error: unknown) => setProblem(`could not forget ${chosen.name}: ${error instanceof Error ? error.message : String(error)}`),
          );
          // The highlight stays in place, on the name that follows (or the last one).
          setHighlight((h) => Math.min(h, latest.length - 2));
          setForgotten((n) => n + 1);
          return true;
        }
        case 'clear':
          // Esc clears what was typed; on the first screen it never quits (one esc too many must not end the console).
          if (typedRef.current === '' && highlightRef.current < 0) {
            setProblem(undefined);
            return true;
          }
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
      ? recentNames.length === 0 && found.length === 0 && suggestions.length === 0
        ? 'No recent sub-accounts yet (ctrl+d discovers some).'
        : 'No match: enter opens the name as typed.'
      : `${listHeading(new Set(matchingChoices(recentNames, found, suggestions, '').map((c) => c.kind)))} (${grouped(choices.length)})`;
  const label = 'Sub-account: ';
  // The marks line up after the longest name shown when that leaves room for a dated mark; else each follows its name.
  const widest = choices.slice(offset, offset + listRoom).reduce((most, c) => Math.max(most, displayWidth(sanitize(c.name))), 0);
  const aligned = width - 2 - widest >= DATED_MARK_WIDTH;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Choose a sub-account</Text>
      <Box height={1} overflow="hidden">
        <Text>{label}</Text>
        <Box width={width - label.length} height={1} overflow="hidden" flexShrink={0}>
          <TextField
            value={typed}
            focus={active}
            homeEndToScreen={highlight >= 0}
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
        const nameColumn = aligned ? widest : displayWidth(sanitize(choice.name));
        const mark = choice.kind === 'recent' ? '' : choice.kind === 'demo' ? '  (demo)' : discoveredMark(choice.lastTransferTime, width - 2 - nameColumn);
        const name = fit(sanitize(choice.name), Math.min(nameColumn, width - 2 - mark.length));
        return (
          <Text key={choice.name} inverse={selected}>
            {selected ? '› ' : '  '}
            {mark ? name : name.trimEnd()}
            {mark ? <Text color={selected ? undefined : theme.muted}>{mark}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}

type Choice = { name: string; kind: 'recent' } | { name: string; kind: 'demo' } | { name: string; kind: 'discovered'; lastTransferTime: number };

/** Recent names first, then the discovered ones (most recently active first), then suggestions, without repeats, containing what was typed. */
function matchingChoices(recent: readonly string[], found: readonly DiscoveredSubAccount[], suggestions: readonly string[], typed: string): Choice[] {
  const seen = new Set<string>();
  const needle = typed.trim().toLowerCase();
  const all: Choice[] = [
    ...recent.map((name) => ({ name, kind: 'recent' as const })),
    ...found.map(({ name, lastTransferTime }) => ({ name, kind: 'discovered' as const, lastTransferTime })),
    ...suggestions.map((name) => ({ name, kind: 'demo' as const })),
  ];
  return all.filter(({ name }) => {
    if (seen.has(name)) return false;
    seen.add(name);
    return name.toLowerCase().includes(needle);
  });
}

/** "Recent", "Demo sub-accounts", "Recent, then discovered, then the demo sub-accounts"… */
function listHeading(kinds: ReadonlySet<Choice['kind']>): string {
  if (!kinds.has('recent') && !kinds.has('discovered')) return 'Demo sub-accounts';
  const parts = [kinds.has('recent') ? 'recent' : '', kinds.has('discovered') ? 'discovered' : '', kinds.has('demo') ? 'the demo sub-accounts' : ''].filter(
    (p) => p !== '',
  );
  const text = parts.join(', then ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The shorter dated mark, `  discovered · 2026-11-20 14:02`. */
const DATED_MARK_WIDTH = '  discovered · 2026-11-20 14:02'.length;

/** The mark of a discovered name: with its last transfer when the room after the whole name allows, else the word alone (the name is cut for it). */
function discoveredMark(lastTransferTime: number, room: number): string {
  const when = localTime(lastTransferTime);
  return [`  discovered · last transfer ${when}`, `  discovered · ${when}`].find((mark) => mark.length <= room) ?? '  discovered';
}

export const PICKER_SCREEN = defineScreen({ route: 'picker', mode: 'picker', render: () => <SubAccountPicker /> });

/** What enter opens with no name highlighted: the one name a filter leaves (the typed text is a way to find it), else the name as typed. */
function enterOpens(choices: readonly { name: string }[], typed: string): string {
  return choices.length === 1 && typed.trim() !== '' ? choices[0]!.name : typed.trim();
}
