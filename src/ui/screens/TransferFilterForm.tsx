// The transfer filter: account types (known values or typed), optional accounts, a time range in the
// operator's words (dates, date-times, epoch ms, 24h, 7d), clientTranId, and the page size.
import React, { useState } from 'react';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { DEFAULT_PAGE_SIZE, KNOWN_ACCOUNT_TYPES, MAX_PAGE_SIZE, type TransferQuery } from '../../api/types';
import { fieldError, parseTimeInput, validateTransferQuery, type FieldError, type FieldName } from '../../api/validation';
import { LabeledInput } from '../components/LabeledInput';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { localTime } from '../text';

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
    toAccountType: initial?.toAccountType ?? 'FUTURE',
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

export function TransferFilterForm({ initial }: { initial?: TransferQuery }) {
  const { theme, now } = useServices();
  const { active } = useScreenFrame();
  const navigate = useNavigate();
  useScreenMode('transferFilter');
  const [values, setValues, valuesRef] = useSyncedState<Values>(() => initialValues(initial));
  const [focus, setFocus, focusRef] = useSyncedState(0);
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
    navigate({ type: 'push', route: { screen: 'transfers', query: result.value } });
  };

  useScreenKeys(
    (input, key) => {
      const command = commandFor('transferFilter', input, key);
      if (command === 'next' || command === 'previous') {
        setFocus((f) => (f + (command === 'next' ? 1 : FIELDS.length - 1)) % FIELDS.length);
        return true;
      }
      if (command === 'search') {
        search();
        return true;
      }
      const focused = FIELDS[focusRef.current]!;
      if (command === 'cycle' && focused.choices) {
        const choices = focused.choices;
        const current = choices.indexOf(valuesRef.current[focused.name].toUpperCase() as (typeof choices)[number]);
        const next = (current + (key.leftArrow ? choices.length - 1 : 1) + (current < 0 ? 1 : 0)) % choices.length;
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

  return (
    <Box flexDirection="column">
      <Text bold>Universal transfers: filter</Text>
      <Text color={theme.muted}>Blank accounts mean the master account. Times: local, or spans before now.</Text>
      {FIELDS.map((field, i) => {
        const raw = values[field.name];
        const live = raw.trim() === '' ? undefined : fieldError(field.name, raw, now())?.message;
        const submitted = errors.find((e) => e.field === field.name)?.message;
        return (
          <LabeledInput
            key={field.name}
            label={field.label}
            value={raw}
            onChange={set(field.name)}
            focused={active && i === focus}
            placeholder={field.placeholder}
            aside={aside(field)}
            error={submitted ?? (i === focus ? undefined : live)}
            labelWidth={16}
          />
        );
      })}
    </Box>
  );
}
