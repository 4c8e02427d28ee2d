// The transfer filter: account types (known values or typed), optional accounts, a time range in the
// operator's words (dates, date-times, epoch ms, 24h, 7d), clientTranId, and the page size. Sized from the
// window: a field is one line, its note and error wrap under it, and when they do not all fit the fields
// around the focused one are shown (the title says which).
import React, { useEffect, useState } from 'react';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { DEFAULT_PAGE_SIZE, KNOWN_ACCOUNT_TYPES, MAX_PAGE_SIZE, type TransferQuery } from '../../api/types';
import { fieldError, parseTimeInput, validateTransferQuery, type FieldError, type FieldName } from '../../api/validation';
import { TextField } from '../components/TextField';
import { displayWidth, fit, sanitize, wrapWords } from '../../terminal/text';
import { commandFor, defineModes } from '../keyboard/bindings';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { type DraftShelf, type TransferFilterDraft, useDrafts } from '../drafts';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { formatLocalTime as localTime } from '../../api/timeInput';
import { fieldReason } from '../fieldLabels';
import { fieldWindow } from '../fieldWindow';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const TRANSFER_FILTER_MODES = defineModes({
  transferFilter: {
    title: 'Transfer filter',
    bindings: [
      { command: 'next', keystrokes: ['tab', 'down'], hint: 'tab next', description: 'Next field' },
      { command: 'previous', keystrokes: ['shift+tab', 'up'], description: 'Previous field' },
      { command: 'cycle', keystrokes: ['left', 'right'], hint: '←→ type', description: 'Cycle known account types' },
      { command: 'search', keystrokes: ['enter'], hint: 'enter search', description: 'Search with this filter' },
      { command: 'reverse', keystrokes: ['ctrl+r'], hint: '^r reverse', description: 'Reverse the direction: from and to swap, accounts and types' },
    ],
  },
});

interface Field {
  name: FieldName;
  label: string;
  placeholder: string;
  choices?: readonly string[];
}

const FIELDS: Field[] = [
  { name: 'fromAccountType', label: 'From type', placeholder: 'required', choices: KNOWN_ACCOUNT_TYPES },
  { name: 'toAccountType', label: 'To type', placeholder: 'required', choices: KNOWN_ACCOUNT_TYPES },
  { name: 'fromAccount', label: 'From account', placeholder: 'blank: the master account' },
  { name: 'toAccount', label: 'To account', placeholder: 'blank: the master account' },
  { name: 'startTime', label: 'Since', placeholder: 'e.g. 7d, 24h, 2026-11-01, 2026-11-01 08:00, epoch ms' },
  { name: 'endTime', label: 'Until', placeholder: 'blank: now' },
  { name: 'clientTranId', label: 'Client id', placeholder: '32 letters and digits' },
  { name: 'limit', label: 'Page size', placeholder: `1–${MAX_PAGE_SIZE}` },
];

type Values = Record<FieldName, string>;

function initialValues(initial?: TransferQuery): Values {
  return {
    fromAccountType: initial?.fromAccountType ?? 'SPOT',
    toAccountType: initial?.toAccountType ?? 'FUTURES',
    fromAccount: initial?.fromAccount ?? '',
    toAccount: initial?.toAccount ?? '',
    startTime: initial?.startTime !== undefined ? String(initial.startTime) : '',
    endTime: initial?.endTime !== undefined ? String(initial.endTime) : '',
    clientTranId: initial?.clientTranId ?? '',
    limit: String(initial?.limit ?? DEFAULT_PAGE_SIZE),
    page: '',
    subAccount: '',
    permissions: '',
    ip: '',
    note: '',
  };
}

/** The form as it starts: a filter left like this is no draft. */
const BLANK = initialValues();

/** Keeps `draft` unless it is the form as it starts. */
function keepDraft(drafts: DraftShelf<TransferFilterDraft>, draft: TransferFilterDraft): void {
  drafts.keep('', FIELDS.every((f) => draft.values[f.name] === BLANK[f.name]) ? undefined : draft);
}

/** The results of a search from the form moved to another page size (`s`): the form, back, shows it too. */
export function keepPageSize(drafts: DraftShelf<TransferFilterDraft>, limit: number): void {
  const draft = drafts.get('');
  keepDraft(drafts, { values: { ...(draft?.values ?? BLANK), limit: String(limit) }, focus: draft?.focus ?? 0 });
}

/**
 * A sub-account's transfers: from the master to it, on the types and times last used; the client id was another
 * transfer's. A last filter turned the other way (from a sub-account back to the master) gives its types back
 * the right way round, so `t` always opens on what the master sent.
 */
function forSubAccount(subAccount: string, last: Values | undefined): Values {
  const from = last ?? BLANK;
  const turned = from.fromAccount !== '' && from.toAccount === '';
  const types = turned ? { fromAccountType: from.toAccountType, toAccountType: from.fromAccountType } : {};
  return { ...from, ...types, fromAccount: '', toAccount: subAccount, clientTranId: '' };
}

/** The same filter the other way round. */
function reversed(values: Values): Values {
  return {
    ...values,
    fromAccountType: values.toAccountType,
    toAccountType: values.fromAccountType,
    fromAccount: values.toAccount,
    toAccount: values.fromAccount,
  };
}

export function TransferFilterForm({ initial, overResults = false, subAccount }: { initial?: TransferQuery; overResults?: boolean; subAccount?: string }) {
  const { theme, now } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('transferFilter');
  // Opened without a filter to edit, the form is the last one as it was left (typed `7d` stays a span).
  const drafts = useDrafts().transferFilter;
  // Opened for a sub-account, it starts from the last form too, with that sub-account's accounts.
  const [draft] = useState(() => (initial || subAccount !== undefined ? undefined : drafts.get('')));
  const [values, setValues, valuesRef] = useSyncedState<Values>(() =>
    subAccount !== undefined ? forSubAccount(subAccount, drafts.get('')?.values) : (draft?.values ?? initialValues(initial)),
  );
  const [focus, setFocus, focusRef] = useSyncedState(draft?.focus ?? 0);
  useEffect(() => {
    keepDraft(drafts, { values, focus });
  }, [drafts, values, focus]);
  // Back on top (esc or ctrl+t from its results), it takes the page size the results moved to.
  useEffect(() => {
    const size = drafts.get('')?.values.limit ?? BLANK.limit;
    if (active && size !== valuesRef.current.limit) setValues((v) => ({ ...v, limit: size }));
  }, [active, drafts, setValues, valuesRef]);
  const [errors, setErrors] = useState<FieldError[]>([]);

  const set = (name: FieldName) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((list) => list.filter((e) => e.field !== name));
  };

  const search = () => {
    const values = valuesRef.current;
    const result = validateTransferQuery(
      {
        fromAccountType: values.fromAccountType,
        toAccountType: values.toAccountType,
        fromAccount: values.fromAccount,
        toAccount: values.toAccount,
        start: values.startTime,
        end: values.endTime,
        clientTranId: values.clientTranId,
        limit: values.limit,
      },
      now(),
    );
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELDS.findIndex((f) => result.errors.some((e) => e.field === f.name));
      if (first >= 0) setFocus(first);
      return;
    }
    setErrors([]);
    const results = { screen: 'transfers' as const, query: result.value, fromFilter: true };
    navigate(overResults ? { type: 'searchOverResults', route: results } : { type: 'push', route: results });
  };

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(TRANSFER_FILTER_MODES.transferFilter, input, keystroke);
      if (command === 'next' || command === 'previous') {
        setFocus((f) => (f + (command === 'next' ? 1 : FIELDS.length - 1)) % FIELDS.length);
        return true;
      }
      if (command === 'search') {
        search();
        return true;
      }
      if (command === 'reverse') {
        setValues(reversed(valuesRef.current));
        setErrors([]);
        return true;
      }
      const focused = FIELDS[focusRef.current]!;
      if (command === 'cycle' && focused.choices) {
        const choices = focused.choices;
        const current = choices.indexOf(valuesRef.current[focused.name].toUpperCase() as (typeof choices)[number]);
        const next = (current + (keystroke.leftArrow ? choices.length - 1 : 1) + (current < 0 ? 1 : 0)) % choices.length;
        set(focused.name)(choices[next]!);
        return true;
      }
      return false;
    },
    { active, textEntry: 'text' },
  );

  const aside = (field: Field): string | undefined => {
    const raw = values[field.name].trim();
    if (field.choices) return `←→ ${field.choices.join('/')} or type`;
    if ((field.name === 'startTime' || field.name === 'endTime') && raw !== '') {
      const parsed = parseTimeInput(field.name, raw, now());
      return parsed.ok ? `= ${localTime(parsed.value, true)}` : undefined;
    }
    if (field.name === 'clientTranId' && raw !== '') return `${raw.length}/32`;
    return undefined;
  };

  // Layout: a label column, the value beside it; a note that does not fit beside the value goes under the
  // focused field (elsewhere it is left out); errors wrap under their field.
  const labelWidth = width >= 60 ? 16 : 15;
  const valueWidth = Math.max(6, width - labelWidth);
  const indent = ' '.repeat(labelWidth);
  const rows = FIELDS.map((field, i) => {
    const raw = values[field.name];
    const focused = active && i === focus;
    const liveError = raw.trim() === '' ? undefined : fieldError(field.name, raw, now());
    const live = liveError && fieldReason(liveError);
    const submittedError = errors.find((e) => e.field === field.name);
    const submitted = submittedError && fieldReason(submittedError);
    const error = submitted ?? (i === focus ? undefined : live);
    const note = aside(field);
    const shown = displayWidth(raw === '' ? field.placeholder : raw) + 1;
    const noteBeside = note !== undefined && shown + 2 + displayWidth(note) <= valueWidth;
    const below = [
      ...(note !== undefined && !noteBeside && focused ? wrapWords(note, valueWidth).map((line) => ({ text: line, error: false })) : []),
      ...(error ? wrapWords(`✗ ${sanitize(error)}`, valueWidth).map((line) => ({ text: line, error: true })) : []),
    ];
    return { field, raw, focused, note: noteBeside ? note : undefined, below, lines: 1 + below.length };
  });

  // The fields that fit, the focused one among them: grow the window around it, below first.
  const intro = height >= 12;
  const room = Math.max(1, height - 1 - (intro ? 1 : 0));
  // Never more lines than the room (Ink squeezes an overfull column and its lines print over each other):
  // the focused field's note and error are cut to what fits.
  const focused = rows[focus]!;
  if (focused.lines > room) {
    focused.below = focused.below.slice(0, Math.max(0, room - 1));
    focused.lines = 1 + focused.below.length;
  }
  const [from, to] = fieldWindow(
    rows.map((r) => r.lines),
    room,
    focus,
  );
  const windowed = from > 0 || to < rows.length;
  const where = width >= 60 ? `fields ${from + 1}–${to} of ${rows.length}` : `${from + 1}–${to}/${rows.length}`;
  // A filter brought back says whose transfers it asks for: it may be another sub-account's than the one open below it.
  const whose =
    draft && (draft.values.fromAccount !== '' || draft.values.toAccount !== '')
      ? `: ${draft.values.fromAccount || 'master'} → ${draft.values.toAccount || 'master'}`
      : '';
  const title = `Universal transfers: filter${windowed ? ` · ${where}${from > 0 ? ' ↑' : ''}${to < rows.length ? ' ↓' : ''}` : ''}${draft ? ` · as you left it${sanitize(whose)}` : ''}`;

  return (
    <Box flexDirection="column">
      <Text bold>{fit(title, width).trimEnd()}</Text>
      {intro ? <Text color={theme.muted}>{fit('Blank accounts mean the master account. Times: local, or spans before now.', width).trimEnd()}</Text> : null}
      {rows.slice(from, to).map((row) => {
        const { field, raw, focused, note } = row;
        const label = `${focused ? '› ' : '  '}${field.label}`;
        return (
          <Box key={field.name} flexDirection="column">
            <Box height={1} overflow="hidden">
              <Box width={labelWidth} flexShrink={0}>
                <Text color={focused ? theme.accent : undefined} bold={focused}>
                  {fit(label, labelWidth).trimEnd()}
                </Text>
              </Box>
              {focused ? (
                // The field is one line: a long value scrolls inside its width, the cursor always in view.
                <Box width={Math.min(valueWidth, displayWidth(raw === '' ? field.placeholder : raw) + 1)} height={1} overflow="hidden" flexShrink={0}>
                  <TextField
                    value={raw}
                    onChange={set(field.name)}
                    focus={active}
                    placeholder={field.placeholder}
                    width={valueWidth}
                    arrowsToScreen={field.choices !== undefined}
                  />
                </Box>
              ) : raw === '' ? (
                <Text color={theme.muted}>{fit(field.placeholder, valueWidth).trimEnd()}</Text>
              ) : (
                <Text>{fit(sanitize(raw, valueWidth + 1), valueWidth).trimEnd()}</Text>
              )}
              {note ? <Text color={theme.muted}>{`  ${note}`}</Text> : null}
            </Box>
            {row.below.map((line, j) => (
              <Text key={j} color={line.error ? theme.error : theme.muted}>
                {indent}
                {line.text}
              </Text>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}

export const TRANSFER_FILTER_SCREEN = defineScreen({
  route: 'transferFilter',
  mode: 'transferFilter',
  render: (route) => <TransferFilterForm initial={route.initial} overResults={route.overResults} subAccount={route.subAccount} />,
});
