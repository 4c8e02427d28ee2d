// New key: permissions checklist (+ typed ones), linked IPs validated live with a counter, a note; then a
// review of exactly what will be sent, sent once. What was typed survives every error, and leaving the form
// (a new key's draft is kept per sub-account until the key is created).
import { checkBeforeCreatingAgain } from '../../api/serviceCodes';
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_TIMEOUT_MS } from '../../api/http';
import { useLeaveGuard } from '../leaveGuard';
import { type UnknownOutcomeCheck, useUnknownOutcomeCheck } from '../hooks/useUnknownOutcomeCheck';
import { useSyncedState } from '../hooks/useSyncedState';
import { useClockUntil } from '../hooks/useClockUntil';
import { Box, Text } from 'ink';
import { KNOWN_PERMISSIONS, MAX_LINKED_IPS, type CreatedKey, type NewKeyRequest } from '../../api/types';
import { checkPermissions, fieldError, validateNewKey, type FieldError, type FieldName } from '../../api/validation';
import { errorLines } from '../components/ErrorLine';
import { fieldLabelWidth, fieldLines, type Field } from '../components/FieldList';
import { LabeledInput, inputErrorLines } from '../components/LabeledInput';
import { PermissionChecklist, checklistColumns, checklistWindow, moveInChecklist } from '../components/PermissionChecklist';
import { Spinner } from '../components/Spinner';
import { type BindingContext, commandFor, defineModes } from '../keyboard/bindings';
import { useCreateKey, type CreateState } from '../hooks/useCreateKey';
import { type ReadLayout, useReadToEnd } from '../hooks/useReadToEnd';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { retryable, useErrorLine } from '../hooks/useResource';
import { useNavigate } from '../navigation';
import { isBlankNewKey, useDrafts, type NewKeyDraft, type NewKeyField } from '../drafts';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { displayWidth, fit, roomFor, sanitize, wrapText } from '../../terminal/text';
import { formatLocalTime as localTime } from '../../api/timeInput';
import { shortenApiKey as shortKey } from '../../api/redact';
import { ipsText } from '../../format/noIp';
import { ipLines, ipPerLine } from '../ipList';
import { creationRisks, needsAllowing } from '../../audit/creationRisks';
import type { KeyFlag } from '../../audit/keyAudit';
import { fieldReason } from '../fieldLabels';

const whenScrolls = ({ scrolls }: BindingContext) => scrolls === true;
/** What will be sent taller than the window: it scrolls, and is sent only once read to its end. */
const REVIEW_SCROLLING = [
  {
    command: 'down',
    keystrokes: ['down'],
    hint: '↓ read on',
    description: 'Scroll down what will be sent (it is sent only once read to its end)',
    when: (context: BindingContext) => whenScrolls(context) && context.scrolledToEnd !== true,
  },
  {
    command: 'down',
    keystrokes: ['down'],
    description: 'Scroll down what will be sent (at its end)',
    when: (context: BindingContext) => context.scrolledToEnd === true,
  },
  { command: 'up', keystrokes: ['up'], description: 'Scroll up what will be sent', when: whenScrolls },
  { command: 'pageDown', keystrokes: ['pagedown'], description: 'Scroll down a screenful', when: whenScrolls },
  { command: 'pageUp', keystrokes: ['pageup'], description: 'Scroll up a screenful', when: whenScrolls },
] as const;

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const CREATE_KEY_MODES = defineModes({
  createKey: {
    title: 'New key form',
    bindings: [
      { command: 'next', keystrokes: ['tab'], hint: 'tab next', description: 'Next field' },
      { command: 'previous', keystrokes: ['shift+tab'], description: 'Previous field' },
      { command: 'toggle', keystrokes: ['space'], hint: 'space toggle', description: 'Toggle the highlighted permission' },
      { command: 'move', keystrokes: ['up', 'down', 'left', 'right'], description: 'Move in the permission checklist' },
      { command: 'review', keystrokes: ['enter'], hint: 'enter review', description: 'Check the form and show what will be sent' },
    ],
  },
  // A LIVE key that can move funds or has no IP: the sub-account's name is typed before enter sends it.
  reviewConfirm: {
    title: 'Review a risky LIVE key',
    bindings: [
      { command: 'submit', keystrokes: ['enter'], hint: 'enter send', description: "Create the key, once the sub-account's name is typed in Confirm" },
      { command: 'edit', keystrokes: ['esc'], hint: 'esc edit', description: 'Back to the form, nothing sent' },
      ...REVIEW_SCROLLING,
    ],
  },
  review: {
    title: 'Review before sending',
    bindings: [
      { command: 'submit', keystrokes: ['enter', 'y'], hint: 'enter send', description: 'Create the key (once; after an error a retry can fix, send again)' },
      { command: 'edit', keystrokes: ['e', 'esc'], hint: 'e edit', description: 'Back to the form, nothing sent' },
      ...REVIEW_SCROLLING,
    ],
  },
  // The create request is in flight: every key of the review waits for the answer.
  reviewSending: {
    title: 'Creating the key',
    bindings: [
      {
        command: 'wait',
        keystrokes: ['enter', 'y', 'e', 'esc'],
        hint: 'sending… keys do nothing until the answer',
        description: 'The request is in flight: sent once, keys are ignored until the answer',
      },
    ],
  },
  // Sent, but no answer came: the key may exist, so nothing is sent again from here.
  reviewUnknown: {
    title: 'Outcome unknown',
    bindings: [
      { command: 'refresh', keystrokes: ['r'], hint: 'r check the key list', description: 'Open the key list, refreshed, to see whether the key was created' },
      { command: 'edit', keystrokes: ['e', 'esc'], hint: 'e edit', description: 'Back to the form (nothing is resent until the list was checked)' },
    ],
  },
  // The service refused the request (invalid input, too many keys): sending it again would fail the same way.
  reviewRejected: {
    title: 'Refused by the service',
    bindings: [{ command: 'edit', keystrokes: ['e', 'esc'], hint: 'e edit the form', description: 'Back to the form to correct it; nothing was created' }],
  },
});

type Focus = NewKeyField;
const FOCUS_ORDER: Focus[] = ['permissions', 'other', 'ip', 'note'];
const FIELD_FOCUS: Partial<Record<FieldName, Focus>> = { permissions: 'permissions', ip: 'ip', note: 'note' };
const LABEL_WIDTH = 14;

type CreateKeyMode = keyof typeof CREATE_KEY_MODES;

/** The IPs typed so far, and the live error; a trailing comma is still typing, not an error. */
function liveIps(raw: string): { count: number; error: string | undefined } {
  const settled = raw.replace(/[\s,]+$/, '');
  const count = settled.split(',').filter((part) => part.trim() !== '').length;
  const error = settled === '' ? undefined : fieldError('ip', settled);
  return { count, error: error && fieldReason(error) };
}

/** Which mode the review is in: it follows the request (in flight, refused, outcome unknown), and whether it must be confirmed. */
function reviewMode(state: CreateState, confirm: boolean): Exclude<CreateKeyMode, 'createKey'> {
  const ready = confirm ? 'reviewConfirm' : 'review';
  if (state.status === 'sending') return 'reviewSending';
  if (state.status === 'failed') return state.outcomeUnknown ? 'reviewUnknown' : retryable(state.error) ? ready : 'reviewRejected';
  return ready;
}

export function CreateKeyScreen({ subAccount }: { subAccount: string }) {
  const { theme, mode: target, sayOnLeaving, keyListCommand } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const drafts = useDrafts().newKey;
  const [draft] = useState(() => drafts.get(subAccount));
  const [checked, setChecked, checkedRef] = useSyncedState<string[]>(draft?.checked ?? []);
  const [other, setOther, otherRef] = useSyncedState(draft?.other ?? '');
  const [ip, setIp, ipRef] = useSyncedState(draft?.ip ?? '');
  const [note, setNote, noteRef] = useSyncedState(draft?.note ?? '');
  const [focus, setFocus, focusRef] = useSyncedState<Focus>(draft?.focus ?? 'permissions');
  // The draft follows the form (no state, so no frame); the screen may be left any way at any time.
  useEffect(() => {
    const form: NewKeyDraft = { checked, other, ip, note, focus };
    drafts.keep(subAccount, isBlankNewKey(form) ? undefined : form);
  }, [drafts, subAccount, checked, other, ip, note, focus]);
  const [gridCursor, setGridCursor, gridCursorRef] = useSyncedState(0);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [review, setReview, reviewRef] = useSyncedState<NewKeyRequest | undefined>(undefined);
  // The sub-account's name as typed on the review of a risky LIVE key; `refused`: enter was pressed before it matched.
  const [confirmation, setConfirmation, confirmationRef] = useSyncedState('');
  const [refused, setRefused] = useState(false);
  // What will be sent, when taller than the window: it scrolls, and is sent only once its end was on screen.
  const reading = useReadToEnd();
  // What the last create sent (after an unknown outcome, the review may show edited values that were not), and
  // whether enter was pressed on a review that cannot send until the key list is checked.
  const [sent, setSent] = useState<NewKeyRequest | undefined>(undefined);
  const [heldUntilChecked, setHeldUntilChecked] = useState(false);
  const send = (request: NewKeyRequest) => {
    setSent(request);
    create.submit(request);
  };
  const risks = review ? creationRisks(review.permissions, review.ips ?? []) : [];
  const mustConfirm = target === 'live' && needsAllowing(risks);
  const mustConfirmRef = useRef(mustConfirm);
  mustConfirmRef.current = mustConfirm;

  const onCreated = useCallback(
    (created: CreatedKey, attempt?: string, unrecorded?: boolean) => {
      drafts.drop(subAccount);
      navigate({
        type: 'replaceTop',
        route: { screen: 'secret', created, ...(attempt !== undefined ? { attempt } : {}), ...(unrecorded === true ? { unrecorded } : {}) },
      });
    },
    [navigate, drafts, subAccount],
  );
  const create = useCreateKey(onCreated);
  const lastUnknown = useUnknownOutcomeCheck(subAccount);
  // A key the check found is not in the key list below yet: it reads its keys again.
  const found = lastUnknown.status === 'checked' && lastUnknown.matching.length > 0;
  useEffect(() => {
    if (found) navigate({ type: 'refreshKeys', subAccount });
  }, [found, navigate, subAccount]);
  // ctrl+c while the request is out: the first waits for the answer (its outcome is then on record and on
  // screen), the second leaves now with the attempt on record as unknown.
  const [leaving, setLeaving] = useState<{ proceed: () => void } | undefined>(undefined);
  const sendingRef = useRef(false);
  sendingRef.current = create.state.status === 'sending';
  // ctrl+p while it is out: another target would tear this screen down, and the secret with it; it waits.
  const [switchHeld, setSwitchHeld] = useState(false);
  // Left with the request out (a second ctrl+c, or the console ended by a signal): it is given up at once, so
  // the process does not wait for an answer no screen can show, and the terminal is told once.
  const leftRef = useRef(false);
  const leaveUnanswered = useCallback(() => {
    if (leftRef.current) return;
    leftRef.current = true;
    sayOnLeaving?.(create.abandon() ? leftUnknown(subAccount, keyListCommand) : leftUnsent(subAccount));
  }, [create, sayOnLeaving, subAccount, keyListCommand]);
  const leaveUnansweredRef = useRef(leaveUnanswered);
  leaveUnansweredRef.current = leaveUnanswered;
  const inFlightNow = create.inFlightNow;
  useEffect(
    () => () => {
      // The request itself, not the last render: a created key's answer unmounts this screen for its secret.
      if (inFlightNow()) leaveUnansweredRef.current();
    },
    [inFlightNow],
  );
  useLeaveGuard((intent, proceed) => {
    if (!sendingRef.current) return false;
    // Another screen on top would meet the secret's screen, and the keys typed for it, when the answer comes.
    if (intent === 'profiles' || intent === 'transfers') {
      setSwitchHeld(true);
      return true;
    }
    if (intent !== 'interrupt') return false;
    if (leaving) {
      leaveUnanswered();
      return false;
    }
    setLeaving({ proceed });
    return true;
  });
  // The answer came while leaving was asked: a created key still goes to its secret screen; anything else leaves.
  useEffect(() => {
    if (leaving && create.state.status === 'failed') {
      if (create.state.outcomeUnknown) sayOnLeaving?.(leftUnknown(subAccount, keyListCommand));
      leaving.proceed();
    }
  }, [leaving, create.state, sayOnLeaving, subAccount, keyListCommand]);
  const mode: CreateKeyMode = review ? reviewMode(create.state, mustConfirm) : 'createKey';
  useScreenMode(mode, { scrolls: review !== undefined && reading.scrolls, scrolledToEnd: review !== undefined && reading.atEnd });
  const permissions = allPermissions(checked, other);
  const columns = checklistColumns(width);

  const toReview = () => {
    // Commas and spaces after the last address are still typing (the live count leaves them out), not an empty address.
    const ips = ipRef.current.replace(/(?<=[^\s,])[\s,]+$/, '');
    const result = validateNewKey({ subAccount, permissions: allPermissions(checkedRef.current, otherRef.current), ip: ips, note: noteRef.current });
    if (!result.ok) {
      setErrors(result.errors);
      const first = result.errors[0];
      const target = first ? FIELD_FOCUS[first.field] : undefined;
      if (target) setFocus(target === 'permissions' && otherRef.current.trim() !== '' ? 'other' : target);
      return;
    }
    setErrors([]);
    // A new review starts clean: the last attempt's error belonged to what was sent then.
    create.reset();
    setConfirmation('');
    setRefused(false);
    setHeldUntilChecked(false);
    reading.restart();
    setReview(result.value);
  };

  const toForm = () => {
    create.reset();
    setReview(undefined);
  };

  /** Sends it once what will be sent was all on screen; else says so, and sends nothing. */
  const sendRead = (request: NewKeyRequest) => reading.once(() => send(request));

  useScreenKeystrokes(
    (input, keystroke) => {
      const review = reviewRef.current;
      if (review) {
        const current = reviewMode(create.state, mustConfirmRef.current);
        const scrolling = { scrolls: reading.scrollsNow() };
        if ((current === 'review' || current === 'reviewConfirm') && reading.scroll(commandFor(CREATE_KEY_MODES[current], input, keystroke, scrolling)))
          return true;
        switch (current) {
          case 'reviewSending':
            return commandFor(CREATE_KEY_MODES.reviewSending, input, keystroke) !== undefined; // nothing happens while the request is in flight
          case 'reviewUnknown': {
            // Never resend blindly after an unknown outcome: the list says whether the key exists.
            const command = commandFor(CREATE_KEY_MODES.reviewUnknown, input, keystroke);
            if (command === 'refresh') navigate({ type: 'returnToKeys', subAccount });
            else if (command === 'edit') toForm();
            else if (commandFor(CREATE_KEY_MODES.review, input, keystroke) === 'submit') setHeldUntilChecked(true);
            return command !== undefined || commandFor(CREATE_KEY_MODES.review, input, keystroke) !== undefined;
          }
          case 'reviewRejected': {
            const command = commandFor(CREATE_KEY_MODES.reviewRejected, input, keystroke);
            if (command === 'edit') toForm();
            return command !== undefined || commandFor(CREATE_KEY_MODES.review, input, keystroke) !== undefined;
          }
          case 'reviewConfirm': {
            const command = commandFor(CREATE_KEY_MODES.reviewConfirm, input, keystroke);
            if (command === 'submit') {
              if (confirmationRef.current.trim() === review.subAccount) sendRead(review);
              else setRefused(true);
            } else if (command === 'edit') toForm();
            return command !== undefined;
          }
          default: {
            const command = commandFor(CREATE_KEY_MODES.review, input, keystroke);
            if (command === 'submit') sendRead(review);
            else if (command === 'edit') toForm();
            return command !== undefined;
          }
        }
      }
      const command = commandFor(CREATE_KEY_MODES.createKey, input, keystroke);
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
          const direction = keystroke.upArrow ? 'up' : keystroke.downArrow ? 'down' : keystroke.leftArrow ? 'left' : 'right';
          setGridCursor((c) => moveInChecklist(c, direction, columns));
          return true;
        }
      }
      return false;
    },
    { active, textEntry: review ? (mode === 'reviewConfirm' ? 'text' : false) : focus === 'permissions' ? false : focus === 'note' ? 'all' : 'text' },
  );

  const errorOf = (field: FieldName) => {
    const error = errors.find((e) => e.field === field);
    return error && fieldReason(error);
  };
  // Editing a field retires the error the last check gave it; live checks take over from there.
  const edited = (field: FieldName, set: (value: string) => void) => (value: string) => {
    set(value);
    setErrors((list) => (list.some((e) => e.field === field) ? list.filter((e) => e.field !== field) : list));
  };

  if (review) {
    // No Confirm field where nothing can be sent (an unknown outcome): its letters would be the screen's commands.
    const confirm =
      mustConfirm && mode !== 'reviewUnknown'
        ? {
            value: confirmation,
            onChange: (value: string) => {
              setConfirmation(value);
              setRefused(false);
            },
            focused: active && mode === 'reviewConfirm',
            refused,
          }
        : undefined;
    return (
      <Review
        review={review}
        risks={risks}
        confirm={confirm}
        state={create.state}
        mode={mode}
        width={width}
        height={height}
        leaving={leaving !== undefined}
        switchHeld={switchHeld}
        asSent={sent !== undefined && JSON.stringify(sent) === JSON.stringify(review)}
        heldUntilChecked={heldUntilChecked}
        top={reading.top}
        unread={reading.tooSoon}
        mustRead={reading.mustRead}
        onLayout={reading.onLayout}
      />
    );
  }

  // Height: the three inputs and the checklist's title always; errors next (whole when there is room);
  // then as many checklist rows as fit, the screen title last.
  const ips = liveIps(ip);
  const ipError = ips.error ?? errorOf('ip');
  const take = roomFor(height - 4 - 1); // three inputs, the checklist title, at least one checklist row
  const notice = unknownOutcomeNotice(lastUnknown);
  const noticeLines = notice ? wrapText(notice.text, width).slice(0, take(wrapText(notice.text, width).length)) : [];
  const permissionError = errorOf('permissions');
  const permissionRoom = take(permissionError ? wrapText(`✗ ${permissionError}`, width - 2).length : 0);
  const permissionErrorLines = permissionError && permissionRoom > 0 ? wrapText(`✗ ${permissionError}`, width - 2, permissionRoom) : [];
  const ipErrorRoom = take(inputErrorLines(ipError, width, LABEL_WIDTH).length);
  const noteErrorRoom = take(inputErrorLines(errorOf('note'), width, LABEL_WIDTH).length);
  const gridRows = 1 + take(checklistWindow(0, columns, Infinity).rows - 1);
  const showTitle = take(1) === 1;
  const shownGrid = checklistWindow(gridCursor, columns, gridRows);
  const scrolled = shownGrid.to - shownGrid.from < shownGrid.rows ? ` · ${shownGrid.from + 1}–${shownGrid.to}/${shownGrid.rows}` : '';
  // What will be sent: one of each, however often it was ticked or typed (the check's own list when it passes).
  const toSend = checkPermissions(permissions);
  const chosen = toSend.ok ? toSend.value.length : new Set(permissions.map((p) => p.toUpperCase())).size;
  const checklistTitle = width >= 60 ? `Permissions (${chosen} chosen · space toggles${scrolled})` : `Permissions · ${chosen} chosen${scrolled}`;

  return (
    <Box flexDirection="column" width={width}>
      {showTitle ? <Text bold>{fit(`New API key for ${sanitize(subAccount)}${draft ? ' · as you left it' : ''}`, width).trimEnd()}</Text> : null}
      {noticeLines.map((line, i) => (
        <Text key={`u-${i}`} color={notice?.warn ? theme.warn : theme.muted}>
          {line}
        </Text>
      ))}
      <Text color={focus === 'permissions' ? theme.accent : undefined} bold={focus === 'permissions'}>
        {fit(`${focus === 'permissions' ? '› ' : '  '}${checklistTitle}`, width).trimEnd()}
      </Text>
      <PermissionChecklist checked={checked} cursor={gridCursor} focused={focus === 'permissions' && active} width={width} room={gridRows} />
      {permissionErrorLines.map((line, i) => (
        <Text key={i} color={theme.error}>
          {'  '}
          {line}
        </Text>
      ))}
      <LabeledInput
        label="Other"
        value={other}
        onChange={edited('permissions', setOther)}
        focused={active && focus === 'other'}
        placeholder="e.g. read_only (comma-separated)"
        width={width}
        labelWidth={LABEL_WIDTH}
      />
      <LabeledInput
        label="Linked IPs"
        value={ip}
        onChange={edited('ip', setIp)}
        focused={active && focus === 'ip'}
        placeholder="optional, e.g. 203.0.113.7, 2001:db8::1"
        aside={`${ips.count}/${MAX_LINKED_IPS}`}
        error={ipError}
        // An IP list copied one per line pastes as a comma-separated list.
        pasteLineBreak=", "
        width={width}
        labelWidth={LABEL_WIDTH}
        maxErrorLines={ipErrorRoom}
      />
      <LabeledInput
        label="Note"
        value={note}
        onChange={edited('note', setNote)}
        focused={active && focus === 'note'}
        placeholder="required, e.g. market-maker bot"
        error={errorOf('note')}
        reserved=""
        width={width}
        labelWidth={LABEL_WIDTH}
        maxErrorLines={noteErrorRoom}
      />
    </Box>
  );
}

/** The typed confirmation of a risky LIVE key: what was typed, and whether enter came before it matched. */
interface Confirmation {
  value: string;
  onChange: (value: string) => void;
  focused: boolean;
  refused: boolean;
}

/** The risks in words, one line each when there is room; else one line naming them. */
function riskLines(risks: readonly KeyFlag[], width: number, room: number): string[] {
  if (risks.length === 0) return [];
  const full = risks.flatMap((r) => wrapText(`⚠ ${r.kind}: ${sanitize(r.reason)}`, width));
  return full.length <= room ? full : [fit(`⚠ flags: ${risks.map((r) => r.kind).join(', ')}`, width).trimEnd()];
}

/** Exactly what will be sent, then what became of it; fitted to the room it has, the fields first. */
function Review({
  review,
  risks,
  confirm,
  state,
  mode,
  width,
  height,
  leaving,
  switchHeld,
  asSent,
  heldUntilChecked,
  top,
  unread,
  mustRead,
  onLayout,
}: {
  review: NewKeyRequest;
  risks: readonly KeyFlag[];
  confirm: Confirmation | undefined;
  state: CreateState;
  mode: CreateKeyMode;
  width: number;
  height: number;
  leaving: boolean;
  switchHeld: boolean;
  /** The review shows what the last create sent (not values edited since). */
  asSent: boolean;
  /** enter was pressed where nothing can be sent until the key list is checked. */
  heldUntilChecked: boolean;
  /** The first line of what will be sent on screen, when it scrolls. */
  top: number;
  /** enter was pressed before the end of what will be sent was on screen. */
  unread: boolean;
  /** What will be sent scrolls and its end has not been on screen yet. */
  mustRead: boolean;
  onLayout: (layout: ReadLayout) => void;
}) {
  const { theme, timeoutMs } = useServices();
  const left = useTimeLeft(state.status === 'sending' && leaving ? state.since + (timeoutMs ?? DEFAULT_TIMEOUT_MS) : undefined);
  const failed = state.status === 'failed' ? state : undefined;
  const failure = useErrorLine(failed?.error);
  const fields: Field[] = [
    ['subAccount', review.subAccount],
    ['permissions', review.permissions.join(',')],
    // Addresses whole, as many to a line as fit; where one is longer than a line, one to a line, that one broken
    // where no piece of it reads as an address.
    [
      'ip',
      ipsText(review.ips, ','),
      (room) => {
        const ips = review.ips ?? [];
        if (ips.length === 0) return wrapText(ipsText([], ','), room);
        return ips.every((ip) => displayWidth(ip) < room) ? ipLines(ips, room, Infinity, ',') : ipPerLine(ips, room);
      },
    ],
    ['note', review.note],
  ];
  // One line each for the title, a field, the confirmation and the risks at least.
  const confirmRows = confirm ? 1 : 0;
  const least = 1 + fields.length + confirmRows + (risks.length > 0 ? 1 : 0);
  // What is said under the fields, wrapped to the width; `compact`: the short words, for a window with no room for the long.
  const statusFor = (compact: boolean): Array<{ text: string; color?: string }> => {
    const status: Array<{ text: string; color?: string }> = [];
    const say = (full: string, short: string, color?: string) => {
      for (const line of wrapText(compact ? short : full, width)) status.push(color === undefined ? { text: line } : { text: line, color });
    };
    if (mode === 'reviewSending') {
      status.push({ text: '' }); // the spinner's line
      if (switchHeld && left === undefined)
        say('Profiles and transfers open once the answer is in: the key may be being created.', 'Other screens wait for the answer.', theme.warn);
      if (left !== undefined) {
        say(`Waiting for the service's answer (up to ${left} s left): the key may be being created.`, `Waiting for the answer (${left} s left).`, theme.warn);
        say('ctrl+c again leaves now, with the attempt on record as unknown (check the key list later).', 'ctrl+c again leaves now.');
      }
    } else if (failed?.outcomeUnknown) {
      // Edited after the unknown outcome: these values were never sent, and cannot be until the list is checked.
      if (asSent)
        say(
          '⚠ The request was sent, but its answer did not come or could not be read: the key may exist.',
          '⚠ Sent, no answer: the key may exist.',
          theme.warn,
        );
      else
        say(
          '⚠ Not sent yet: the create sent before these edits got no answer it could read, so that key may exist.',
          '⚠ Not sent: the last create may exist.',
          theme.warn,
        );
      // Short: the answer to enter, when it was pressed, takes the hint's line.
      if (!compact || !heldUntilChecked)
        say('Press r to open the key list, refreshed, and check before trying again. Nothing is resent.', 'r checks the key list first.');
      if (heldUntilChecked)
        say('✗ Not sent: check the key list first (r), then make the key from there (n).', '✗ Not sent: r checks the list first.', theme.error);
    } else if (failed) {
      const canRetry = retryable(failed.error);
      const room = Math.max(1, height - 1 - fields.length);
      for (const line of errorLines(failure, width, canRetry ? 'enter' : undefined, room)) status.push({ text: line, color: theme.error });
      if (!canRetry) say('Sending it again would fail the same way: e edits the form.', 'e edits the form.', theme.muted);
    } else if (unread) {
      say('✗ Not sent: read all of what will be sent first (↓ shows the rest).', '✗ Not sent: ↓ shows the rest first', theme.error);
    } else if (confirm?.refused) {
      // Where the whole reason has no room, the short one (Confirm's placeholder names the sub-account).
      say(
        `✗ Not sent: type ${sanitize(review.subAccount)} in Confirm first (a LIVE key that can move funds or has no IP).`,
        '✗ Not sent: type the name in Confirm',
        theme.error,
      );
    } else if (mustRead) {
      if (confirm && confirm.value.trim() !== review.subAccount)
        say("LIVE: read to the end (↓), type the sub-account's name, then enter sends", '↓ to its end, type the name', theme.warn);
      else say('Read to the end of what will be sent (↓), then enter sends · esc edits', '↓ to its end, then enter sends', theme.muted);
    } else if (confirm && confirm.value.trim() !== review.subAccount) {
      say(
        width >= 50 ? "LIVE: type the sub-account's name to send · esc edits" : 'Type the name to send · esc edits',
        'Type the name to send · esc edits',
        theme.warn,
      );
    } else if (confirm) say('enter sends · esc edits (nothing is sent)', 'enter sends · esc edits', theme.muted);
    else status.push({ text: 'enter sends · e edits (nothing is sent)', color: theme.muted });
    return status;
  };
  const said = statusFor(false);
  const status = said.length <= height - least ? said : statusFor(true);

  const title = width >= 61 ? 'Review: this is exactly what will be sent to create the key' : 'Review: exactly what will be sent';
  // After those lines, the status; then the risks in full, the fields whole, and blank lines around the fields last.
  const statusRoom = Math.max(1, Math.min(status.length, height - least));
  const risked = riskLines(risks, width, Math.max(1, height - least - statusRoom + 1));
  const fieldRoom = Math.max(fields.length, height - 1 - statusRoom - confirmRows - risked.length);
  // Every line whole; taller than the room, they scroll, one line saying where (nothing of what is sent is cut).
  const whole = fieldLines(fields, width, LABEL_WIDTH);
  const scrolls = whole.length > fieldRoom;
  const room = scrolls ? Math.max(1, fieldRoom - 1) : fieldRoom;
  const maxTop = Math.max(0, whole.length - room);
  const shownTop = Math.min(top, maxTop);
  useEffect(() => onLayout({ scrolls, maxTop, room }), [onLayout, scrolls, maxTop, room]);
  const linesUsed = scrolls ? fieldRoom : whole.length;
  const gaps = Math.max(0, Math.min(2, height - 1 - statusRoom - linesUsed - confirmRows - risked.length));
  const shown = status.slice(0, statusRoom);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{fit(title, width).trimEnd()}</Text>
      <Box marginTop={gaps >= 1 ? 1 : 0} marginBottom={gaps >= 2 ? 1 : 0} flexDirection="column">
        {scrolls ? (
          <>
            {whole.slice(shownTop, shownTop + room).map((line, i) => (
              <Text key={shownTop + i}>
                <Text color={theme.muted}>{line.label}</Text>
                {line.text}
              </Text>
            ))}
            <Text color={theme.muted}>
              {fit(`lines ${shownTop + 1}–${shownTop + room} of ${whole.length}${shownTop < maxTop ? ' · ↓ more' : ' · ↑ back'}`, width).trimEnd()}
            </Text>
          </>
        ) : (
          whole.map((line, i) => (
            <Text key={i}>
              <Text color={theme.muted}>{line.label}</Text>
              {line.text}
            </Text>
          ))
        )}
      </Box>
      {risked.map((line, i) => (
        <Text key={`r-${i}`} color={theme.warn}>
          {line}
        </Text>
      ))}
      {confirm ? (
        <LabeledInput
          label="Confirm"
          value={confirm.value}
          onChange={confirm.onChange}
          focused={confirm.focused}
          placeholder={`type ${sanitize(review.subAccount)}`}
          width={width}
          labelWidth={fieldLabelWidth(width, LABEL_WIDTH)}
          maxErrorLines={0}
        />
      ) : null}
      {mode === 'reviewSending' ? <Spinner label="Creating the key… (sent once)" width={width} /> : null}
      {(mode === 'reviewSending' ? shown.slice(1) : shown).map((line, i) => (
        <Text key={i} color={line.color}>
          {line.text}
        </Text>
      ))}
    </Box>
  );
}

/** Whole seconds until `deadline` (at least 0), ticking each second; undefined when there is none. */
function useTimeLeft(deadline: number | undefined): number | undefined {
  const now = useClockUntil(deadline);
  return deadline === undefined ? undefined : Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** What the form says first after an attempt of unknown outcome: whether a key matching it exists now. */
function unknownOutcomeNotice(check: UnknownOutcomeCheck): { text: string; warn: boolean } | undefined {
  if (check.status === 'none') return undefined;
  const when = localTime(Date.parse(check.attempt.time));
  if (check.status === 'inProgress')
    return {
      text: `⚠ The last attempt (${when}, note '${sanitize(check.attempt.note, 40)}') is still waiting for its answer in another broker-console (pid ${check.pid}): let it finish, then check the key list, before creating again.`,
      warn: true,
    };
  const last = `The last attempt (${when}, note '${sanitize(check.attempt.note, 40)}') had an unknown outcome`;
  if (check.status === 'mayStillArrive')
    return {
      text: `⚠ ${last}: it may still reach the service until ${localTime(check.until, true)}; the key list is checked then. Creating again before that may make a second key.`,
      warn: true,
    };
  if (check.status === 'checking') return { text: `${last}: checking whether a matching key exists…`, warn: true };
  if (check.status === 'failed') return { text: `${last}, and the key list could not be read to check: a matching key may exist.`, warn: true };
  if (check.matching.length === 0) return { text: `${last}: no matching key exists now, so it was not created.`, warn: false };
  const keys = check.matching.map((k) => shortKey(k.apiKey)).join(', ');
  return {
    text: `⚠ ${last}, and a matching key exists now (${keys}): its secret was never received — delete it in the web console rather than create a duplicate.`,
    warn: true,
  };
}

function allPermissions(checked: readonly string[], other: string): string[] {
  return [
    ...checked,
    ...other
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
  ];
}

export const CREATE_KEY_SCREEN = defineScreen({ route: 'createKey', mode: 'createKey', render: (route) => <CreateKeyScreen subAccount={route.subAccount} /> });

/** Said once the console has closed on a create that never left it. */
function leftUnsent(subAccount: string): string {
  return `create key for ${subAccount}: left before it was sent: nothing was sent, no key was created`;
}

/** Said once the console has closed on a create whose answer never came. */
function leftUnknown(subAccount: string, listCommand: string | undefined): string {
  return `create key for ${subAccount}: left before its answer came: ${checkBeforeCreatingAgain(subAccount, listCommand)} (on record as unknown)`;
}
