// The one-time secret: masked until revealed, copyable, and gone from state and screen once the operator
// confirms it is stored (docs/design.md, secrets). Every way out (enter, esc, q, ctrl+p, ctrl+t, ctrl+c once) first asks
// for that confirmation; only y leaves. The key and secret are shown whole, never cut: one the window cannot hold
// whole is not shown in part, the screen says how long it is and that the copy still works.
import React, { useEffect, useRef, useState } from 'react';
import { Box, Text, useStdin } from 'ink';
import type { CreatedKey } from '../../api/types';
import { displayWidth, fit, grouped, sanitize, wrapByWidth, wrapWords } from '../../terminal/text';
import { commandFor, defineModes } from '../keyboard/bindings';
import { useFlash } from '../hooks/useFlash';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useSyncedState } from '../hooks/useSyncedState';
import { useLeaveGuard } from '../leaveGuard';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { secretUnreadableReason } from '../hooks/useCreateKey';
import { formatLocalTime as localTime } from '../../api/timeInput';
import { ipLines } from '../ipList';
import { copyValue, notCopiedReason } from '../clipboard';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const SECRET_MODES = defineModes({
  secret: {
    title: 'One-time secret',
    bindings: [
      { command: 'reveal', keystrokes: ['v'], hint: 'v show/hide', description: 'Show or hide the secret key' },
      { command: 'copySecret', keystrokes: ['s'], hint: 's copy secret', description: 'Copy the secret key to the clipboard' },
      { command: 'copyKey', keystrokes: ['c'], hint: 'c copy key', description: 'Copy the API key to the clipboard' },
      { command: 'leave', keystrokes: ['esc', 'enter'], hint: 'enter done', description: 'Leave; asks you to confirm the secret is stored' },
      { command: 'confirm', keystrokes: ['y'], description: 'Confirm you stored the secret (it is then gone for good)' },
      { command: 'quit', keystrokes: ['q'], description: 'Quit (asks you to confirm the secret is stored first, like every way out)' },
    ],
  },
  secretConfirm: {
    title: 'Leave the secret?',
    bindings: [
      { command: 'confirm', keystrokes: ['y'], hint: 'y stored it, leave', description: 'Yes, the secret is stored: leave (it is gone for good)' },
      { command: 'stay', keystrokes: ['esc', 'n'], hint: 'any other key: stay', description: 'Any other key stays on the secret (a second ctrl+c quits)' },
    ],
  },
});

const LABEL = 12;
/** Characters of the key or the secret the screen shows whole at most. */
const SHOWN_LIMIT = 4096;

/** A value shown whole: on one line when it fits, else in groups of 8 that wrap (copy the groups, drop the spaces). */
function wholeValueLines(value: string, room: number): string[] {
  if (displayWidth(value) <= room) return [value];
  const groups = value.match(/.{1,8}/gu) ?? [value];
  const lines: string[] = [];
  let line = '';
  for (const group of groups) {
    const next = line === '' ? group : `${line} ${group}`;
    if (displayWidth(next) > room && line !== '') {
      lines.push(line);
      line = group;
    } else line = next;
  }
  lines.push(line);
  return lines.flatMap((l) => (displayWidth(l) > room ? wrapByWidth(l, room) : [l]));
}

interface Asking {
  /** What the operator was doing when asked (quit, switch profile…), done once they confirm. */
  proceed?: () => void;
  /** The chunk of input the asking key came in: a y in the same one (alt+y, typed ahead) is no answer. */
  chunk?: number;
  /** Asked by a ctrl+c: a second one quits. Asked another way (enter, esc, q), a ctrl+c is the first one. */
  byInterrupt?: boolean;
}

/** Said on the terminal once the console has closed on this screen before y: the secret may be lost. */
export function leftUnconfirmed(created: CreatedKey, onRecord: boolean, unrecorded = false): string {
  const record = onRecord ? ' (on record as not confirmed)' : unrecorded ? ' (not on record: the audit trail could not be written)' : '';
  return (
    `key ${created.apiKey} for ${created.subAccount}: the console closed before you confirmed its secret was stored: ` +
    `if you do not have the secret, delete this key in the service's web console and create another${record}`
  );
}

/** Said on the secret screen when the trail could not take the attempt: nothing will mark the key if its secret is lost. */
export const UNRECORDED_SHORT = '⚠ Not on record: the audit trail could not be written.';

/**
 * `attempt`: the trail's attempt whose line says "not confirmed stored": y writes "created" over it.
 * `unrecorded`: the trail could not take this attempt.
 */
export function SecretReveal({ created, attempt, unrecorded = false }: { created: CreatedKey; attempt?: string; unrecorded?: boolean }) {
  const { copy, theme, audit, sayOnLeaving } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  // The console's key stream (src/terminal/keyStream.ts) says which keys came together.
  const { stdin } = useStdin();
  const chunkOfKey = (): number | undefined => (stdin as { chunkOfLastKey?: () => number }).chunkOfLastKey?.();
  const [revealed, setRevealed] = useState(false);
  const [asking, setAsking, askingRef] = useSyncedState<Asking | undefined>(undefined);
  const [flash, setFlash] = useFlash(4000);
  useScreenMode(asking ? 'secretConfirm' : 'secret');

  // Ends a copy still under way when the screen is left: the secret must not reach a clipboard after that.
  const copies = useRef(new AbortController());
  useEffect(() => {
    const running = new AbortController();
    copies.current = running;
    return () => running.abort();
  }, []);

  const stored = useRef(false);
  // Any end of this screen but y (a signal, a closed terminal, a second ctrl+c at the prompt) is said on leaving.
  useEffect(() => {
    const confirmed = stored;
    return () => {
      if (!confirmed.current) sayOnLeaving?.(leftUnconfirmed(created, attempt !== undefined, unrecorded));
    };
  }, [created, sayOnLeaving, attempt, unrecorded]);

  const leave = (proceed?: () => void) => {
    stored.current = true;
    if (attempt !== undefined) void audit?.again(attempt, { created }).catch(() => undefined);
    navigate({ type: 'returnToKeys', subAccount: created.subAccount, highlightApiKey: created.apiKey });
    proceed?.();
  };

  useLeaveGuard((intent, proceed) => {
    if (askingRef.current?.byInterrupt === true && intent === 'interrupt') return false; // a second ctrl+c at the prompt quits
    setAsking({ proceed, chunk: chunkOfKey(), byInterrupt: intent === 'interrupt' });
    return true;
  });

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(SECRET_MODES.secret, input, keystroke);
      if (askingRef.current) {
        const asked = askingRef.current;
        // A y that came with the key that asked (alt+y is ESC then y) was not typed after reading the question.
        if (command === 'confirm' && asked.chunk !== undefined && asked.chunk === chunkOfKey()) return true;
        if (command === 'confirm') leave(asked.proceed);
        else setAsking(undefined);
        return true; // every key is ours here: only y leaves
      }
      switch (command) {
        case 'reveal':
          setRevealed((r) => !r);
          return true;
        case 'copySecret':
          // Said at once: a clipboard tool may take seconds, and the operator should not answer "stored?" unaware.
          setFlash('Copying the secret key…');
          {
            const { signal } = copies.current;
            void copyValue(copy, 'secret key', created.secretKey, { ifFailed: 'copy it from the screen (v shows it)', signal }).then(
              (said) => signal.aborted || setFlash(said),
            );
          }
          return true;
        case 'copyKey':
          setFlash('Copying the API key…');
          {
            const { signal } = copies.current;
            void copyValue(copy, 'API key', created.apiKey, { signal }).then((said) => signal.aborted || setFlash(said));
          }
          return true;
        case 'leave':
          setAsking({ chunk: chunkOfKey() });
          return true;
        case 'quit':
          return false; // App asks the guard, which asks the operator
        default:
          return command !== undefined;
      }
    },
    { active },
  );

  const narrow = width < 60;
  const room = narrow ? width : width - LABEL;
  // A value's lines; `told` when they say the value is too long for the window, which needs no label line of its own.
  interface Shown {
    lines: string[];
    told?: boolean;
  }
  // Narrow, a value on one line may sit beside its label (`inline`) when the window has no line to spare for the label.
  const besideLabel = (label: string, shown: Shown) => shown.lines.length === 1 && displayWidth(`${label} ${shown.lines[0]!}`) <= width;
  const block = (label: string, shown: Shown, inline: boolean) => {
    if (!narrow)
      return shown.lines.map((line, i) => (
        <Text key={`${label}-${i}`}>
          <Text color={theme.muted}>{fit(i === 0 ? label : '', LABEL)}</Text>
          {line}
        </Text>
      ));
    if (inline && besideLabel(label, shown))
      return [
        <Text key={`${label}-0`}>
          <Text color={theme.muted}>{label} </Text>
          {shown.lines[0]}
        </Text>,
      ];
    const labelLine = shown.told
      ? []
      : [
          <Text key={`${label}-l`} color={theme.muted}>
            {label}
          </Text>,
        ];
    return [...labelLine, ...shown.lines.map((line, i) => <Text key={`${label}-${i}`}>{line}</Text>)];
  };
  const blockHeight = (label: string, shown: Shown, inline: boolean) =>
    shown.lines.length + (narrow && !shown.told && !(inline && besideLabel(label, shown)) ? 1 : 0);
  const tooLong = (what: string, value: string, key: string): Shown => {
    const copies = notCopiedReason(what, value) === undefined ? `, or press ${key} to copy it` : '';
    return {
      lines: wrapWords(`The ${what} is ${grouped(Array.from(value).length)} characters: enlarge the window to see it whole${copies}`, room),
      told: true,
    };
  };
  // Past SHOWN_LIMIT characters the sanitiser would cut a value: it is then told, never shown.
  const whole = (what: string, value: string, key: string): Shown =>
    Array.from(value).length > SHOWN_LIMIT ? tooLong(what, value, key) : { lines: wholeValueLines(sanitize(value, SHOWN_LIMIT), room) };
  const keyWhole = whole('API key', created.apiKey, 'c');
  const secretWhole: Shown = revealed ? whole('secret', created.secretKey, 's') : { lines: [fit(`${'•'.repeat(24)}  (v shows it)`, room).trimEnd()] };

  const title = fit(`✓ Key created for ${sanitize(created.subAccount)}`, width).trimEnd();
  // Bytes that were not UTF-8 (or characters a terminal cannot show): what is on screen is not the secret.
  const unreadable = secretUnreadableReason(created) !== undefined;
  const warning = unreadable
    ? "⚠ The secret the service sent is not readable text: what is shown is not it. Delete this key in the service's web console."
    : width >= 56
      ? '⚠ Store the secret key now: it will not be shown again.'
      : '⚠ Store the secret now: shown only once.';
  // The trail's failure is said with the warning, one line, at any size: never dropped for room.
  const unrecordedLine = unrecorded ? fit(width >= 56 ? UNRECORDED_SHORT : '⚠ Not on record: trail not written', width).trimEnd() : undefined;
  const warningLines = (unreadable ? wrapWords(warning, width).length : 1) + (unrecordedLine === undefined ? 0 : 1);
  const bottomFor = (short: boolean) =>
    wrapWords(
      asking
        ? short
          ? `Stored it? y: leave · other key: stay${asking.byInterrupt === true ? ' · ctrl+c: quit' : ''}`
          : `Have you stored the secret key? y: yes, leave (it is gone for good) · any other key: stay${asking.byInterrupt === true ? ' · ctrl+c again: quit without it' : ''}`
        : (flash ?? (short ? 's/c copy secret/key · enter: stored' : 's copies the secret · c copies the API key · enter when you have stored it')),
      width,
    );
  // The key and the secret whole if they fit (labels beside short values, a copy's words cut to one line before
  // that), else the longer one, then both, told by how long they are: never a frame taller than the window, never a value cut.
  const shorter = (told: Shown, shown: Shown) => (told.lines.length < shown.lines.length ? told : shown);
  const keyTold = shorter(tooLong('API key', created.apiKey, 'c'), keyWhole);
  const secretTold = revealed ? shorter(tooLong('secret', created.secretKey, 's'), secretWhole) : secretWhole;
  const pairs: Array<[Shown, Shown]> = [
    [keyWhole, secretWhole],
    secretWhole.lines.length >= keyWhole.lines.length ? [keyWhole, secretTold] : [keyTold, secretWhole],
    [keyTold, secretTold],
  ];
  const layouts = pairs.flatMap(([key, secret]) => [false, ...(narrow ? [true] : [])].map((inline) => ({ key, secret, inline })));
  const shortBottom = bottomFor(true);
  const oneLine = shortBottom.length > 1 ? [fit(shortBottom.join(' '), width).trimEnd()] : shortBottom;
  const valueLines = ({ key, secret, inline }: (typeof layouts)[number]) => blockHeight('API key', key, inline) + blockHeight('Secret key', secret, inline);
  const layout = layouts.find((l) => warningLines + valueLines(l) + oneLine.length <= height) ?? layouts[layouts.length - 1]!;
  // Nothing fits even so (the long warning at the smallest window): the lines that fit, the prompt kept.
  const essentials = [...block('API key', layout.key, layout.inline), ...block('Secret key', layout.secret, layout.inline)].slice(
    0,
    Math.max(0, height - warningLines - oneLine.length),
  );
  const fixedLines = 1 + warningLines + essentials.length;
  const bottomWhole = fixedLines + bottomFor(false).length > height ? shortBottom : bottomFor(false);
  // A revealed secret at 40x12 leaves no room for the long prompt: a clipped frame would cut the title or the prompt.
  const bottomLines = warningLines + essentials.length + bottomWhole.length <= height ? bottomWhole : oneLine;
  // Still too tall (a copy's words in two lines): the title goes first, never the warning, key, secret or prompt.
  const showTitle = fixedLines + bottomLines.length <= height;
  // What is left after the title, warning, key, secret and prompt goes to the other fields, as many as fit.
  const spare = height - fixedLines - bottomLines.length;
  // The other fields keep their label column at any width (narrow, the key and the secret have lines of their own).
  const detailWidth = Math.max(1, width - LABEL);
  const oneLineOf = (value: string) => fit(sanitize(value), detailWidth).trimEnd();
  const fieldCount = 4;
  const detailRoom = Math.max(0, spare - (spare > fieldCount ? 1 : 0));
  // Whole addresses, on as many lines as the room left by the other three fields allows; the rest said as +N.
  const ipRows = ipLines(created.ips, detailWidth, Math.max(1, detailRoom - (fieldCount - 1)));
  const details: Array<[string, string]> = [
    ['Permissions', oneLineOf(created.permissions.join(', '))],
    ...ipRows.map((line, i): [string, string] => [i === 0 ? 'Linked IPs' : '', line]),
    ['Note', oneLineOf(created.note)],
    ['Created', oneLineOf(localTime(created.createdAt, true))],
  ];
  return (
    <Box flexDirection="column">
      {showTitle ? (
        <Text bold color={theme.ok}>
          {title}
        </Text>
      ) : null}
      {unreadable ? (
        wrapWords(warning, width).map((line, i) => (
          <Text key={`w-${i}`} color={theme.error} bold>
            {line}
          </Text>
        ))
      ) : (
        <Text color={theme.warn} bold>
          {fit(warning, width).trimEnd()}
        </Text>
      )}
      {unrecordedLine !== undefined ? <Text color={theme.warn}>{unrecordedLine}</Text> : null}
      {spare > details.length ? <Text> </Text> : null}
      {essentials}
      {details.slice(0, detailRoom).map(([label, value], i) => (
        <Text key={`d-${i}`}>
          <Text color={theme.muted}>{fit(label, LABEL)}</Text>
          {value}
        </Text>
      ))}
      {bottomLines.map((line, i) => (
        <Text key={`b-${i}`} color={asking ? theme.warn : theme.muted} bold={asking !== undefined} inverse={asking !== undefined && !theme.color}>
          {line}
        </Text>
      ))}
    </Box>
  );
}

export const SECRET_SCREEN = defineScreen({
  route: 'secret',
  mode: 'secret',
  render: (route) => (
    <SecretReveal
      created={route.created}
      {...(route.attempt !== undefined ? { attempt: route.attempt } : {})}
      {...(route.unrecorded === true ? { unrecorded: true } : {})}
    />
  ),
});
