// Every field of one transfer, each value sanitised and shown whole (wrapped under its label, never cut); when the
// fields are taller than the room, the lines scroll and the footer says so. j/k step to the next and previous
// transfer of the page as shown; c and C copy the transfer id and the client id.
import React, { useEffect, useState } from 'react';
import { useFlash } from '../hooks/useFlash';
import { Box, Text } from 'ink';
import { isoTime } from '../../api/serviceTime';
import type { Transfer } from '../../api/types';
import { fit, sanitize, wrapWords } from '../../terminal/text';
import { commandFor, defineModes, type BindingContext, type ScreenContext } from '../keyboard/bindings';
import type { ScreenId } from '../keyboard/modes';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useScreenFrame } from '../screenFrame';
import { SUB_ACCOUNT_KEYS, noSubAccountReason } from '../transferSubAccount';
import { useServices } from '../services';
import { copyValue } from '../clipboard';
import { formatLocalTime as localTime } from '../../api/timeInput';

const whenScrolls = ({ scrolls }: BindingContext) => scrolls === true;

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const TRANSFER_DETAIL_MODES = defineModes({
  // The scrolling keys only when the detail is taller than the window.
  transferDetail: {
    title: 'Transfer detail',
    bindings: [
      { command: 'up', keystrokes: ['up'], description: 'Scroll up a line', when: whenScrolls },
      { command: 'down', keystrokes: ['down'], hint: '↑↓ scroll', description: 'Scroll down a line (the detail is taller than the window)', when: whenScrolls },
      { command: 'pageUp', keystrokes: ['pageup'], description: 'Scroll up a screenful', when: whenScrolls },
      { command: 'pageDown', keystrokes: ['pagedown', 'space'], description: 'Scroll down a screenful', when: whenScrolls },
      { command: 'close', keystrokes: ['enter', 'esc'], hint: 'enter close', description: 'Back to the list' },
      { command: 'keys', keystrokes: ['K'], hint: 'K keys', description: SUB_ACCOUNT_KEYS, disabledReason: noSubAccountReason },
      { command: 'next', keystrokes: ['j'], hint: 'j/k next/prev', description: "The next transfer of the page as shown (the list's cursor follows)" },
      { command: 'previous', keystrokes: ['k'], description: 'The previous transfer of the page as shown' },
      { command: 'copyId', keystrokes: ['c'], hint: 'c copy id', description: 'Copy the transfer id (tranId)' },
      { command: 'copyClientId', keystrokes: ['C'], description: 'Copy the client id (clientTranId)' },
    ],
  },
});

function transferFields(t: Transfer): Array<[string, string]> {
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
function detailLines(t: Transfer, width: number): Line[] {
  const labelWidth = width >= 60 ? 15 : 13;
  const valueWidth = Math.max(4, width - labelWidth);
  return transferFields(t).flatMap(([label, value]) =>
    wrapWords(value === '' ? '—' : sanitize(value), valueWidth).map((text, i) => ({ label: i === 0 ? fit(label, labelWidth) : ' '.repeat(labelWidth), text })),
  );
}

/** Where the transfer is among the rows shown: its index and their count. */
interface RowPosition {
  index: number;
  count: number;
}

export function TransferDetail({
  transfer,
  position,
  onStep,
  width,
  height,
  onClose,
  onModeChange,
  onKeys,
  noSubAccount = false,
}: {
  transfer: Transfer;
  position?: RowPosition;
  /** Moves the list's cursor by one row (the detail then shows that row's transfer). */
  onStep?: (by: 1 | -1) => void;
  width: number;
  height: number;
  onClose: () => void;
  onModeChange: (mode: ScreenId, context: ScreenContext) => void;
  /** Opens the keys of the transfer's sub-account; says why not when it names none. */
  onKeys: () => string | undefined;
  noSubAccount?: boolean;
}) {
  const { theme, copy } = useServices();
  const { active } = useScreenFrame();
  const [flash, setFlash] = useFlash();
  const lines = detailLines(transfer, width);
  // The title takes a line, a notice (copied, the end of the page) one more; the rest scroll.
  const room = Math.max(1, height - 1 - (flash ? 1 : 0));
  const scrolls = lines.length > room;
  const maxTop = Math.max(0, lines.length - room);
  const [top, setTop] = useState(0);
  const shownTop = Math.min(top, maxTop);
  useEffect(() => onModeChange('transferDetail', { scrolls, noSubAccount }), [scrolls, noSubAccount, onModeChange]);

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(TRANSFER_DETAIL_MODES.transferDetail, input, keystroke, { scrolls, noSubAccount });
      const move = (by: number) => setTop((t) => Math.max(0, Math.min(maxTop, Math.min(t, maxTop) + by)));
      const copyField = (label: string, value: string) => {
        if (value === '') setFlash(`this transfer has no ${label}`);
        else void copyValue(copy, label, value, { shown: value }).then(setFlash);
      };
      if (command === 'close') onClose();
      else if (command === 'next' || command === 'previous') {
        const by = command === 'next' ? 1 : -1;
        const at = position?.index ?? 0;
        const count = position?.count ?? 1;
        if (at + by < 0) setFlash('this is the first row of the page');
        else if (at + by >= count) setFlash('this is the last row of the page (esc, then n for the next page)');
        else onStep?.(by);
      } else if (command === 'copyId') copyField('transfer id', transfer.tranId);
      else if (command === 'copyClientId') copyField('client id', transfer.clientTranId);
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

  // Narrow, the row's place goes short so the title keeps some of the id (the first field has it whole).
  const row = position ? (width >= 60 ? ` · row ${position.index + 1} of ${position.count}` : ` · ${position.index + 1}/${position.count}`) : '';
  const where = `${row}${scrolls ? ` · lines ${shownTop + 1}–${shownTop + room} of ${lines.length}` : ''}`;
  const title = `Transfer ${sanitize(transfer.tranId, width)}`;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{fit(title, Math.max(1, width - where.length)).trimEnd()}</Text>
        <Text color={theme.muted}>{fit(where, width).trimEnd()}</Text>
      </Text>
      {lines.slice(shownTop, shownTop + room).map((line, i) => (
        <Text key={shownTop + i}>
          <Text color={theme.muted}>{line.label}</Text>
          {line.text}
        </Text>
      ))}
      {flash ? <Text color={theme.muted}>{fit(flash, width).trimEnd()}</Text> : null}
    </Box>
  );
}
