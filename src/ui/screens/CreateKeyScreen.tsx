// New key: permissions checklist (+ typed ones), linked IPs validated live with a counter, a note; then a
// review of exactly what will be sent, sent once. What was typed survives every error.
import React, { useCallback, useState } from 'react';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { KNOWN_PERMISSIONS, MAX_LINKED_IPS, type CreatedKey, type NewKeyRequest } from '../../api/types';
import { fieldError, validateNewKey, type FieldError, type FieldName } from '../../api/validation';
import { ErrorLine } from '../components/ErrorLine';
import { FieldList } from '../components/FieldList';
import { LabeledInput } from '../components/LabeledInput';
import { PermissionChecklist, moveInChecklist } from '../components/PermissionChecklist';
import { Spinner } from '../components/Spinner';
import { commandFor } from '../keymap';
import { useCreateKey } from '../hooks/useCreateKey';
import { useScreenKeys } from '../hooks/useKeys';
import { errorLine } from '../hooks/useResource';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';

type Focus = 'permissions' | 'other' | 'ip' | 'note';
const FOCUS_ORDER: Focus[] = ['permissions', 'other', 'ip', 'note'];
const FIELD_FOCUS: Partial<Record<FieldName, Focus>> = { permissions: 'permissions', ip: 'ip', note: 'note' };

/** The IPs typed so far, and the live error; a trailing comma is still typing, not an error. */
export function liveIps(raw: string): { count: number; error: string | undefined } {
  const settled = raw.replace(/[\s,]+$/, '');
  const count = settled.split(',').filter((part) => part.trim() !== '').length;
  return { count, error: settled === '' ? undefined : fieldError('ip', settled)?.message };
}

export function CreateKeyScreen({ subAccount }: { subAccount: string }) {
  const { theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const [checked, setChecked, checkedRef] = useSyncedState<string[]>([]);
  const [other, setOther, otherRef] = useSyncedState('');
  const [ip, setIp, ipRef] = useSyncedState('');
  const [note, setNote, noteRef] = useSyncedState('');
  const [focus, setFocus, focusRef] = useSyncedState<Focus>('permissions');
  const [gridCursor, setGridCursor, gridCursorRef] = useSyncedState(0);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [review, setReview, reviewRef] = useSyncedState<NewKeyRequest | undefined>(undefined);
  useScreenMode(review ? 'review' : 'createKey');

  const onCreated = useCallback(
    (created: CreatedKey) => navigate({ type: 'replaceTop', route: { screen: 'secret', created } }),
    [navigate],
  );
  const create = useCreateKey(onCreated);
  const permissions = allPermissions(checked, other);

  const toReview = () => {
    const result = validateNewKey({ subAccount, permissions: allPermissions(checkedRef.current, otherRef.current), ip: ipRef.current, note: noteRef.current });
    if (!result.ok) {
      setErrors(result.errors);
      const first = result.errors[0];
      const target = first ? FIELD_FOCUS[first.field] : undefined;
      if (target) setFocus(target === 'permissions' && otherRef.current.trim() !== '' ? 'other' : target);
      return;
    }
    setErrors([]);
    setReview(result.value);
  };

  useScreenKeys(
    (input, key) => {
      const review = reviewRef.current;
      if (review) {
        const command = commandFor('review', input, key);
        if (create.sending) return command !== undefined; // nothing happens while the request is in flight
        if (create.state.status === 'failed' && create.state.outcomeUnknown) {
          if (command === 'refresh') navigate({ type: 'returnToKeys', subAccount });
          else if (command === 'edit') setReview(undefined);
          return command !== undefined; // never resend blindly after an unknown outcome
        }
        if (command === 'submit') create.submit(review);
        else if (command === 'edit') setReview(undefined);
        return command !== undefined;
      }
      const command = commandFor('createKey', input, key);
      if (command === 'next' || command === 'previous') {
        setFocus((f) => FOCUS_ORDER[(FOCUS_ORDER.indexOf(f) + (command === 'next' ? 1 : FOCUS_ORDER.length - 1)) % FOCUS_ORDER.length]!);
        return true;
      }
      if (command === 'review') {
        toReview();
        return true;
      }
      if (focusRef.current === 'permissions') {
        if (command === 'toggle') {
          const permission = KNOWN_PERMISSIONS[gridCursorRef.current]!;
          setChecked((list) => (list.includes(permission) ? list.filter((p) => p !== permission) : [...list, permission]));
          setErrors((list) => list.filter((e) => e.field !== 'permissions'));
          return true;
        }
        if (command === 'move') {
          const direction = key.upArrow ? 'up' : key.downArrow ? 'down' : key.leftArrow ? 'left' : 'right';
          setGridCursor((c) => moveInChecklist(c, direction));
          return true;
        }
      }
      return false;
    },
    { active, textEntry: review || focus === 'permissions' ? false : focus === 'note' ? 'all' : 'text' },
  );

  const errorOf = (field: FieldName) => errors.find((e) => e.field === field)?.message;
  // Editing a field retires the error the last check gave it; live checks take over from there.
  const edited = (field: FieldName, set: (value: string) => void) => (value: string) => {
    set(value);
    setErrors((list) => (list.some((e) => e.field === field) ? list.filter((e) => e.field !== field) : list));
  };

  if (review) {
    const failed = create.state.status === 'failed' ? create.state : undefined;
    return (
      <Box flexDirection="column">
        <Text bold>Review: this is exactly what will be sent to create the key</Text>
        <Box marginY={1} flexDirection="column">
          <FieldList
            fields={[
              ['subAccount', review.subAccount],
              ['permissions', review.permissions.join(',')],
              ['ip', review.ips?.join(',') ?? '(none: the key works from any address)'],
              ['note', review.note],
            ]}
          />
        </Box>
        {create.sending ? <Spinner label="Creating the key… (sent once; keys are ignored until the answer)" /> : null}
        {failed?.outcomeUnknown ? (
          <Box flexDirection="column">
            <Text color={theme.warn}>⚠ The request was sent but no answer came: the key may exist.</Text>
            <Text>Press r to open the key list, refreshed, and check before trying again. Nothing is resent.</Text>
          </Box>
        ) : failed ? (
          <ErrorLine message={errorLine(failed.error)} retryKey="enter" width={width} />
        ) : null}
        {!create.sending && !failed?.outcomeUnknown ? <Text color={theme.muted}>enter sends · e edits (nothing is sent)</Text> : null}
      </Box>
    );
  }

  const ips = liveIps(ip);
  return (
    <Box flexDirection="column">
      {height >= 18 ? <Text bold>New API key for {subAccount}</Text> : null}
      <Text color={focus === 'permissions' ? theme.accent : undefined} bold={focus === 'permissions'} wrap="truncate-end">
        {focus === 'permissions' ? '› ' : '  '}Permissions <Text color={theme.muted}>({permissions.length} chosen · space toggles)</Text>
      </Text>
      <PermissionChecklist checked={checked} cursor={gridCursor} focused={focus === 'permissions' && active} width={width} />
      {errorOf('permissions') ? <Text color={theme.error}>  ✗ {errorOf('permissions')}</Text> : null}
      <LabeledInput label="Other" value={other} onChange={edited('permissions', setOther)} focused={active && focus === 'other'} placeholder="more, comma-separated (e.g. read_only)" />
      <LabeledInput
        label="Linked IPs"
        value={ip}
        onChange={edited('ip', setIp)}
        focused={active && focus === 'ip'}
        placeholder="optional, e.g. 203.0.113.7, 2001:db8::1"
        aside={`${ips.count}/${MAX_LINKED_IPS}`}
        error={ips.error ?? errorOf('ip')}
      />
      <LabeledInput label="Note" value={note} onChange={edited('note', setNote)} focused={active && focus === 'note'} placeholder="required, e.g. market-maker bot" error={errorOf('note')} reserved="" />
    </Box>
  );
}

function allPermissions(checked: readonly string[], other: string): string[] {
  return [...checked, ...other.split(',').map((p) => p.trim()).filter((p) => p !== '')];
}
