// Every field of one transfer, each value sanitised and shown whole (wrapped under its label, never cut); when the
// fields are taller than the room, the lines scroll and the footer says so.
import React, { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { isoTime } from '../../api/serviceTime';
import type { Transfer } from '../../api/types';
import { fit, sanitize, wrapWords } from '../../terminal/text';
import { commandFor, defineModes, type BindingContext, type ScreenContext } from '../keyboard/bindings';
import type { ScreenId } from '../keyboard/modes';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useFlash } from '../hooks/useFlash';
import { useScreenFrame } from '../screenFrame';
import { SUB_ACCOUNT_KEYS, noSubAccountReason } from '../transferSubAccount';
import { useServices } from '../services';
import { formatLocalTime as localTime } from '../../api/timeInput';

const whenScrolls = ({ scrolls }: BindingContext) => scrolls === true;

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const TRANSFER_DETAIL_MODES = defineModes({
  // The scrolling keys only when the detail is taller than the window.
  transferDetail: {
    title: 'Transfer detail',
    bindings: [
      { command: 'up', keys: ['up', 'k'], description: 'Scroll up a line', when: whenScrolls },
      { command: 'down', keys: ['down', 'j'], hint: '↑↓ scroll', description: 'Scroll down a line (the detail is taller than the window)', when: whenScrolls },
      { command: 'pageUp', keys: ['pageup'], description: 'Scroll up a screenful', when: whenScrolls },
      { command: 'pageDown', keys: ['pagedown', 'space'], description: 'Scroll down a screenful', when: whenScrolls },
      { command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Back to the list' },
      { command: 'keys', keys: ['K'], hint: 'K keys', description: SUB_ACCOUNT_KEYS, disabledReason: noSubAccountReason },
    ],
  },
});

export function transferFields(t: Transfer): Array<[string, string]> {
  return [
    ['Transfer id', t.tranId],
    ['Client id', t.clientTranId],
    ['Time', `${localTime(t.timestamp, true)} (local) · ${isoTime(t.timestamp)}`],
    ['From account', t.fromAccount || 'master'],
    ['From type', t.fromAccountType],
    ['From symbol', t.fromSymbol],
    ['To account', t.toAccount || 'master'],
    ['To type', t.toAccountType],
    ['To symbol', t.toSymbol],
    ['Asset', t.asset],
    ['Amount', t.amount],
    ['Status', t.status],
  ];
}

interface Line {
  label: string;
  text: string;
}

/** The detail as lines of at most `width` cells: a label, then its value wrapped in the column beside it. */
export function detailLines(t: Transfer, width: number): Line[] {
  const labelWidth = width >= 60 ? 15 : 13;
  const valueWidth = Math.max(4, width - labelWidth);
  return transferFields(t).flatMap(([label, value]) =>
    wrapWords(value === '' ? '—' : sanitize(value), valueWidth).map((text, i) => ({ label: i === 0 ? fit(label, labelWidth) : ' '.repeat(labelWidth), text })),
  );
}

export function TransferDetail({ transfer, width, height, onClose, onModeChange, onKeys, noSubAccount = false }: { transfer: Transfer; width: number; height: number; onClose: () => void; onModeChange: (mode: ScreenId, context: ScreenContext) => void; onKeys: () => string | undefined; noSubAccount?: boolean }) {
  const { theme } = useServices();
  const [flash, setFlash] = useFlash();
  const { active } = useScreenFrame();
  const lines = detailLines(transfer, width);
  // The title takes a line; the rest scroll.
  const room = Math.max(1, height - 1);
  const scrolls = lines.length > room;
  const maxTop = Math.max(0, lines.length - room);
  const [top, setTop] = useState(0);
  const shownTop = Math.min(top, maxTop);
  useEffect(() => onModeChange('transferDetail', { scrolls, noSubAccount }), [scrolls, noSubAccount, onModeChange]);

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(TRANSFER_DETAIL_MODES.transferDetail, input, keystroke, { scrolls, noSubAccount });
      const move = (by: number) => setTop((t) => Math.max(0, Math.min(maxTop, Math.min(t, maxTop) + by)));
      if (command === 'close') onClose();
      else if (command === 'up') move(-1);
      else if (command === 'down') move(1);
      else if (command === 'pageUp') move(-room);
      else if (command === 'pageDown') move(room);
      else if (command === 'keys') {
        const why = onKeys();
        if (why !== undefined) setFlash(why);
      }
      return command !== undefined; // other keys reach the global ones (? help)
    },
    { active },
  );

  const position = scrolls ? ` · lines ${shownTop + 1}–${shownTop + room} of ${lines.length}` : '';
  const title = `Transfer ${sanitize(transfer.tranId, width)}`;
  return (
    <Box flexDirection="column">
      {flash !== undefined ? (
        <Text color={theme.warn}>{fit(flash, width).trimEnd()}</Text>
      ) : (
        <Text>
          <Text bold>{fit(title, Math.max(1, width - position.length)).trimEnd()}</Text>
          <Text color={theme.muted}>{position}</Text>
        </Text>
      )}
      {lines.slice(shownTop, shownTop + room).map((line, i) => (
        <Text key={shownTop + i}>
          <Text color={theme.muted}>{line.label}</Text>
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
