// The API keys of a sub-account: a windowed table, a detail view, copy, refresh, and the way to a new key.
// Every value in it came from the service: each is sanitised and fitted by display width.
import React, { useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import { isoTime } from '../../api/serviceTime';
import { auditKeys } from '../../audit/keyAudit';
import { keyAgeText } from '../keyAge';
import type { SubAccountKey } from '../../api/types';
import { errorLines } from '../components/ErrorLine';
import { FieldList } from '../components/FieldList';
import { RECENT_ATTEMPTS, RecentAttempts, recentAttemptsHeight } from '../components/RecentAttempts';
import { Spinner } from '../components/Spinner';
import { WindowedTable, type TableColumn } from '../components/WindowedTable';
import { commandFor, defineModes, noMatchReason, whenRetryable, type BindingContext } from '../keyboard/bindings';
import { useFlash } from '../hooks/useFlash';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { listMoveFor, useListCursor } from '../hooks/useListCursor';
import { FilterLine, useRowFilter, filterLineMode } from '../hooks/useRowFilter';
import { useErrorLine, useRetryable } from '../hooks/useResource';
import { isSubAccountRefused } from '../../api/errors';
import { useSubAccountKeys } from '../hooks/useSubAccountKeys';
import { useRecentAttempts } from '../hooks/useRecentAttempts';
import { ATTEMPTS_READ, LOST_SECRET_TEXT, type LostSecret, lostSecrets } from '../../audit/lostSecrets';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { keySearchText } from '../keySearch';
import { useServices } from '../services';
import { cell, displayWidth, fit, grouped, sanitize, wrapText } from '../../terminal/text';
import { formatLocalTime as localTime } from '../../api/timeInput';
import { shortenApiKey as shortKey } from '../../api/redact';
import { ipsText } from '../../format/noIp';
import { ipCell, ipLines } from '../ipList';
import { copyValue } from '../clipboard';
import { useTryingAgain } from '../hooks/useTryingAgain';

/** A read-only target keeps n bound, only to say why nothing opens; the footer does not offer it. */
const readOnlyReason = ({ readOnly }: BindingContext) => (readOnly ? 'Creating keys is disabled (read-only): n says why, opens nothing' : undefined);

/** Keys are in hand: there is something to move to, open, copy, filter or audit. */
const hasKeys = ({ empty, failed }: BindingContext) => empty !== true && failed !== true;
const noKeys = ({ empty }: BindingContext) => empty === true;

const TRANSFERS_OF_IT = "This sub-account's transfers (the filter opens on them)";

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const KEY_LIST_MODES = defineModes({
  // The list; with no keys yet (empty), or none loaded (failed), there is nothing to move to, show, copy or filter.
  keys: {
    title: ({ readOnly, empty, failed }) =>
      failed ? 'API keys (could not be loaded)' : `API keys${empty ? (readOnly ? ' (none yet, read-only)' : ' (none yet)') : readOnly ? ' (read-only)' : ''}`,
    bindings: [
      // r only where a retry can help (not when, e.g., the sub-account does not exist).
      {
        command: 'refresh',
        keystrokes: ['r'],
        hint: 'r retry',
        description: 'Load the keys again',
        when: (context) => context.failed === true && whenRetryable(context),
      },
      { command: 'up', keystrokes: ['up', 'k'], description: 'Previous key', when: hasKeys },
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ move', description: 'Next key', when: hasKeys },
      { command: 'first', keystrokes: ['home', 'g'], description: 'First key', when: hasKeys },
      { command: 'last', keystrokes: ['end', 'G'], description: 'Last key', when: hasKeys },
      {
        command: 'detail',
        keystrokes: ['enter'],
        hint: 'enter detail',
        description: 'Every field of the selected key',
        when: hasKeys,
        disabledReason: noMatchReason('No key matches the filter: nothing to open (esc clears it)'),
      },
      {
        command: 'create',
        keystrokes: ['n'],
        hint: 'n new key',
        description: 'Create an API key for this sub-account',
        when: ({ failed }) => failed !== true,
        disabledReason: readOnlyReason,
      },
      {
        command: 'copy',
        keystrokes: ['c'],
        hint: 'c copy key',
        description: 'Copy the selected API key to the clipboard',
        when: hasKeys,
        disabledReason: noMatchReason('No key matches the filter: nothing to copy (esc clears it)'),
      },
      {
        command: 'refresh',
        keystrokes: ['r'],
        hint: 'r refresh',
        description: 'Reload the keys',
        when: (context) => hasKeys(context) && !whenRetryable(context),
      },
      {
        command: 'refresh',
        keystrokes: ['r'],
        hint: 'r retry',
        description: 'Ask for the keys again (their reload failed; the list is the last answer)',
        when: (context) => hasKeys(context) && whenRetryable(context),
      },
      { command: 'refresh', keystrokes: ['r'], hint: 'r refresh', description: 'Reload the keys', when: noKeys },
      { command: 'transfers', keystrokes: ['t'], hint: 't transfers', description: TRANSFERS_OF_IT },
      { command: 'search', keystrokes: ['/'], hint: '/ filter', description: 'Filter the keys as you type, any column (esc clears the filter)', when: hasKeys },
      {
        command: 'audit',
        keystrokes: ['a'],
        hint: 'a audit',
        description: 'Audit these keys: no linked IP, write/withdraw/transfer, old, a shared note',
        when: hasKeys,
      },
      { command: 'audit', keystrokes: ['a'], hint: 'a audit', description: 'Audit this sub-account (no keys: nothing to flag)', when: noKeys },
      { command: 'quit', keystrokes: ['q'], description: 'Quit' },
    ],
  },
  // The filter line is open: typing filters the keys.
  keysFilter: filterLineMode('API keys: filter', 'key'),
  keyDetail: {
    title: 'Key detail',
    bindings: [
      { command: 'copy', keystrokes: ['c'], hint: 'c copy key', description: 'Copy the API key to the clipboard' },
      { command: 'close', keystrokes: ['enter', 'esc'], hint: 'enter close', description: 'Back to the list' },
      { command: 'next', keystrokes: ['j', 'down'], hint: 'j/k next/prev', description: "The next key of the list as shown (the list's cursor follows)" },
      { command: 'previous', keystrokes: ['k', 'up'], description: 'The previous key of the list as shown' },
      { command: 'transfers', keystrokes: ['t'], hint: 't transfers', description: TRANSFERS_OF_IT },
    ],
  },
});

const CREATED_WIDTH = 16;
const SHORT_KEY_WIDTH = 11;
const FULL_KEY_WIDTH = 32;

/**
 * The table's columns for a width: they depend on the width alone (never on the rows), so they do not jump
 * from row to row or page to page, and a row is exactly `width` cells with its two-cell marker.
 */
function keyColumns(width: number, lost?: ReadonlyMap<string, LostSecret>): TableColumn<SubAccountKey>[] {
  const wide = width >= 100;
  // A key whose secret was lost carries a mark before its note (the status line says what it means).
  const noteOf = (k: SubAccountKey) => (lost?.has(k.apiKey) ? `⚠ ${k.note}` : k.note);
  const keyWidth = wide ? FULL_KEY_WIDTH : SHORT_KEY_WIDTH;
  const apiKey = (k: SubAccountKey) => (wide ? k.apiKey : shortKey(k.apiKey));
  const room = width - 2;
  if (width >= 60) {
    const flexible = room - 4 - keyWidth - CREATED_WIDTH;
    const [note, permissions, ipWidth] = share(flexible, [3, 4, 3]);
    return [
      { title: 'NOTE', width: note!, cell: (k) => cell(noteOf(k), note!) },
      { title: 'API KEY', width: keyWidth, cell: (k) => cell(apiKey(k), keyWidth) },
      { title: 'PERMISSIONS', width: permissions!, cell: (k) => cell(k.permissions.join(','), permissions!) },
      { title: 'IPS', width: ipWidth!, cell: (k) => cell(ipCell(k.ips, ipWidth!), ipWidth!) },
      { title: 'CREATED', width: CREATED_WIDTH, cell: (k) => localTime(k.createdAt) },
    ];
  }
  // Narrow: the note, the key and its permissions; the detail view (enter) has the rest.
  const [note, permissions] = share(room - 2 - SHORT_KEY_WIDTH, [1, 1]);
  return [
    { title: 'NOTE', width: note!, cell: (k) => cell(noteOf(k), note!) },
    { title: 'API KEY', width: SHORT_KEY_WIDTH, cell: (k) => cell(shortKey(k.apiKey), SHORT_KEY_WIDTH) },
    { title: 'PERMISSIONS', width: permissions!, cell: (k) => cell(k.permissions.join(','), permissions!) },
  ];
}

/** Splits `total` cells by weight, every cell given out (the rest to the first). */
function share(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const widths = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  widths[0] = Math.max(1, widths[0]! + total - widths.reduce((a, b) => a + b, 0));
  return widths;
}

export function KeyList({
  subAccount,
  highlightApiKey,
  refreshToken,
  landing: landOn,
}: {
  subAccount: string;
  highlightApiKey?: string;
  refreshToken?: number;
  landing?: number;
}) {
  const { copy, theme, readOnly, now } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const keys = useSubAccountKeys(subAccount, refreshToken);
  const allRows = useMemo(() => keys.data ?? [], [keys.data]);
  // `/` filters the rows: a new list only when the keys or the filter text change.
  const filter = useRowFilter(allRows, keySearchText);
  const rows = filter.rows;
  const [detail, setDetail] = useState(false);
  const [flash, setFlash] = useFlash();
  const name = sanitize(subAccount);

  // The status line: a spinner, the error (whole, wrapped; the retry key only when a retry can help), or the position.
  const failed = keys.status === 'error';
  const tryingAgain = useTryingAgain('list keys', keys.status === 'loading');
  const canRetry = useRetryable(failed ? keys.error : undefined);
  const failure = useErrorLine(failed ? keys.error : undefined);
  // The mode in force says what the footer offers and what the keys do: the same bindings for both.
  const mode: keyof typeof KEY_LIST_MODES = detail ? 'keyDetail' : filter.editing ? 'keysFilter' : 'keys';
  const empty = keys.status === 'ready' && allRows.length === 0;
  const noMatch = filter.noMatch;
  // What the list's bindings depend on: the footer, the help and the keys below read the same.
  const listContext: BindingContext = { retryable: canRetry, empty, failed: failed && allRows.length === 0, noMatch, filtered: filter.kept };
  useScreenMode(mode, listContext);
  // Unknown or forbidden: another sub-account is the way on.
  const missing = failed && isSubAccountRefused(keys.error);
  const errorText = failed ? `${failure}${missing ? ' — esc goes back to choose another' : ''}` : '';
  const error = failed ? errorLines(errorText, width, canRetry ? 'r' : undefined, Math.max(1, height - (rows.length > 0 ? 4 : 2))) : [];
  const statusLines = Math.max(1, error.length);
  const filterLines = filter.shown ? 1 : 0;
  // The last create attempts (audit trail) take only what the table can spare: it keeps room for its header and
  // up to 6 rows (all of them when fewer), so at 40x12 a list of 6 keys shows no block.
  // The trail's attempts for this sub-account, newest first: the block shows the first few, the lost-secret marks read them all.
  const trail = useRecentAttempts(subAccount, ATTEMPTS_READ);
  const attempts = useMemo(() => trail.slice(0, RECENT_ATTEMPTS), [trail]);
  const listNeeds = keys.status === 'ready' && allRows.length === 0 ? 3 : 1 + Math.min(rows.length, 6);
  const spare = height - 1 - statusLines - filterLines - listNeeds;
  const attemptLines = keys.status === 'loading' ? 0 : recentAttemptsHeight(attempts.length, spare);
  // A blank line sets the block apart when there is room for it.
  const attemptGap = attemptLines > 0 && spare > attemptLines ? 1 : 0;
  const tableRoom = Math.max(1, height - 2 - statusLines - filterLines - attemptLines - attemptGap);
  const list = useListCursor(rows.length, tableRoom);
  const selected = rows[list.cursor];
  // The columns (and so each row's line, made once per list) change with the width alone.
  const lost = useMemo(() => lostSecrets(allRows, trail), [allRows, trail]);
  const columns = useMemo(() => keyColumns(width, lost), [width, lost]);
  const lostHere = selected ? lost.get(selected.apiKey) : undefined;
  const highlightAt = highlightApiKey ? rows.findIndex((k) => k.apiKey === highlightApiKey) : -1;
  // After a key was created, the cursor lands on it in the very render that brings it (an effect would let one
  // frame with the cursor on the first row reach the terminal first).
  const [landed, setLanded] = useState('');
  const landing = `${refreshToken ?? 0}:${landOn ?? 0}:${highlightAt}`;
  if (highlightAt >= 0 && landed !== landing) {
    setLanded(landing);
    list.setCursor(highlightAt);
  }
  // A key asked for (chosen in the audit, or just created) that the kept `/` search hides: the search gives way, or
  // the cursor would sit on another key. Once per arrival, on the list loaded for it (a created key is not in the
  // list from before): a search typed after it is the operator's own and stays.
  const [arrived, setArrived] = useState('');
  const arrival = `${refreshToken ?? 0}:${landOn ?? 0}:${highlightApiKey ?? ''}`;
  if (keys.status === 'ready' && arrived !== arrival) {
    setArrived(arrival);
    const hiddenAt = highlightApiKey && highlightAt < 0 && filter.text !== '' ? allRows.findIndex((k) => k.apiKey === highlightApiKey) : -1;
    if (hiddenAt >= 0) {
      filter.clear();
      list.setCursor(hiddenAt, allRows.length);
    }
  }

  const copyKey = (row: SubAccountKey | undefined) => {
    if (!row) return;
    void copyValue(copy, 'API key', row.apiKey, { shown: shortKey(row.apiKey) }).then(setFlash);
  };

  const openTransfers = () => navigate({ type: 'push', route: { screen: 'transferFilter', subAccount } });

  useScreenKeystrokes(
    (input, keystroke) => {
      if (detail) {
        const command = commandFor(KEY_LIST_MODES.keyDetail, input, keystroke);
        if (command === 'close') setDetail(false);
        else if (command === 'copy') copyKey(selected);
        else if (command === 'next' || command === 'previous') {
          const by = command === 'next' ? 1 : -1;
          if (list.cursor + by < 0) setFlash('this is the first key');
          else if (list.cursor + by >= rows.length) setFlash('this is the last key');
          else list.move(by === 1 ? 'down' : 'up');
        } else if (command === 'transfers') openTransfers();
        return command !== undefined;
      }
      const filtering = filter.listKey(KEY_LIST_MODES.keysFilter, input, keystroke, list, selected);
      if (filtering !== undefined) return filtering;
      const command = commandFor(KEY_LIST_MODES[mode === 'keyDetail' ? 'keys' : mode], input, keystroke, listContext);
      const move = listMoveFor(command);
      if (move) {
        list.move(move);
        return true;
      }
      switch (command) {
        case 'search':
          if (allRows.length > 0) filter.open();
          return true;
        case 'detail':
          if (selected) setDetail(true);
          return true;
        case 'create':
          // Read-only: n says why (narrow: the short reason, whole, rather than the long one cut).
          if (readOnly) setFlash(displayWidth(sanitize(readOnly)) <= width ? sanitize(readOnly) : 'read-only: creating keys is disabled');
          else navigate({ type: 'push', route: { screen: 'createKey', subAccount } });
          return true;
        case 'copy':
          copyKey(selected);
          return true;
        case 'refresh':
          keys.reload();
          return true;
        case 'transfers':
          openTransfers();
          return true;
        case 'audit':
          navigate({ type: 'push', route: { screen: 'keyAudit', subAccounts: [subAccount] } });
          return true;
        default:
          return false;
      }
    },
    // The list's keys act on the keys: they wait while the list loads.
    { active, busy: () => !detail && keys.loadingNow() },
  );

  if (detail && selected) {
    const where = ` · ${list.cursor + 1} of ${rows.length}`;
    // What the key audit would flag, among every key of the sub-account (a shared note is a matter between them).
    const measuredAt = now();
    const flags = auditKeys(allRows, measuredAt).find((f) => f.key === selected)?.flags ?? [];
    const flagText = flags.length === 0 ? 'nothing flagged' : flags.map((f) => `${f.kind}: ${f.reason}`).join(' · ');
    const age = keyAgeText(selected.createdAt, measuredAt).replace(/^ · /u, '');
    const created = `${localTime(selected.createdAt, true)} (local) · ${isoTime(selected.createdAt)}${keyAgeText(selected.createdAt, measuredAt)}`;
    return (
      <Box flexDirection="column" width={width}>
        <Text bold>
          {fit(`Key ${sanitize(shortKey(selected.apiKey))} of ${name}`, Math.max(1, width - where.length)).trimEnd()}
          <Text color={theme.muted}>{fit(where, width).trimEnd()}</Text>
        </Text>
        <FieldList
          width={width}
          maxLines={Math.max(5, height - 1 - (flash ? 1 : 0))}
          fields={[
            ['Note', selected.note],
            ...(lostHere ? [['Secret', LOST_SECRET_TEXT[lostHere]] as [string, string]] : []),
            ['API key', selected.apiKey],
            ['Permissions', selected.permissions.join(', ')],
            ['Linked IPs', ipsText(selected.ips), (room, lines) => ipLines(selected.ips, room, lines)],
            ['Created', created, (room, lines) => shortWhenCut(created, `${age}${age ? ' · ' : ''}${localTime(selected.createdAt, true)}`, room, lines)],
            ['Audit flags', flagText, (room, lines) => shortWhenCut(flagText, flags.map((f) => f.kind).join(', '), room, lines)],
          ]}
        />
        {flash ? <Text color={theme.muted}>{fit(flash, width).trimEnd()}</Text> : null}
      </Box>
    );
  }

  const total = allRows.length;
  const count = keys.data
    ? filter.text.trim() !== ''
      ? ` · ${grouped(rows.length)} of ${grouped(total)} ${total === 1 ? 'key' : 'keys'}`
      : ` · ${grouped(total)} ${total === 1 ? 'key' : 'keys'}`
    : '';
  const titleRoom = Math.max(1, width - count.length);
  const status =
    keys.status === 'loading' ? (
      keys.slow ? (
        <Spinner label={`Loading keys…${tryingAgain}`} width={width} />
      ) : (
        <Text> </Text>
      )
    ) : failed && !flash ? (
      <Box flexDirection="column">
        {error.map((line, i) => (
          <Text key={i} color={theme.error}>
            {line}
          </Text>
        ))}
      </Box>
    ) : lostHere && !flash ? (
      <Text color={theme.warn}>{fit(`${list.cursor + 1}/${rows.length} · ⚠ ${LOST_SECRET_TEXT[lostHere]}`, width).trimEnd()}</Text>
    ) : (
      <Text color={theme.muted}>
        {fit(flash ?? (rows.length === 0 ? (total > 0 ? 'no key matches the filter' : ' ') : `${list.cursor + 1}/${rows.length}`), width).trimEnd() || ' '}
      </Text>
    );

  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        {fit(`API keys of ${name}`, titleRoom).trimEnd()}
        {count ? <Text color={theme.muted}>{count}</Text> : null}
      </Text>
      {status}
      {filter.shown ? <FilterLine filter={filter} list={list} focus={active} width={width} matched={rows.length} total={total} /> : null}
      {keys.status === 'ready' && total === 0 ? (
        <Box flexDirection="column" marginTop={height >= 5 ? 1 : 0}>
          <Text>{fit(`No API keys for ${name} yet.`, width).trimEnd()}</Text>
          <Text color={theme.muted}>{readOnly ? fit('Read-only: creating keys is disabled.', width).trimEnd() : 'Press n to create one.'}</Text>
        </Box>
      ) : rows.length > 0 ? (
        <WindowedTable
          columns={columns}
          rows={rows}
          from={list.from}
          to={list.to}
          cursor={list.cursor}
          mark={(k) => k.apiKey === highlightApiKey}
          highlight={filter.text}
        />
      ) : null}
      {attemptLines > 0 ? (
        <Box marginTop={attemptGap}>
          <RecentAttempts entries={attempts} width={width} height={attemptLines} />
        </Box>
      ) : null}
    </Box>
  );
}

export const KEYS_SCREEN = defineScreen({
  route: 'keys',
  mode: 'keys',
  render: (route) => (
    <KeyList subAccount={route.subAccount} highlightApiKey={route.highlightApiKey} refreshToken={route.refreshToken} landing={route.landing} />
  ),
});

/** A value whole when its lines fit, else the short form (at 40x12 the age and flag names, not a cut-off sentence). */
function shortWhenCut(value: string, short: string, room: number, lines: number): string[] {
  const whole = wrapText(value, room);
  return whole.length <= lines ? whole : wrapText(short, room, lines);
}
