// The key audit of one or several sub-accounts: a summary row per sub-account, then a row per flagged key,
// in one windowed list; under it, why the selected row is there. Every name, note and error came from outside
// (the service, the stores): each is sanitised and fitted by display width.
import React, { useMemo, useRef } from 'react';
import { Box, Text } from 'ink';
import type { SubAccountAudit } from '../../audit/fetchAudit';
import { type KeyFinding, ageInDays, formatSpan, summaryText } from '../../audit/keyAudit';
import { capLines } from '../components/ErrorLine';
import { Spinner } from '../components/Spinner';
import { WindowedTable, type TableColumn } from '../components/WindowedTable';
import { commandFor, defineModes, noMatchReason } from '../keyboard/bindings';
import { FilterLine, useRowFilter, filterLineMode } from '../hooks/useRowFilter';
import { useKeyAudit } from '../hooks/useKeyAudit';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { listMoveFor, useListCursor } from '../hooks/useListCursor';
import { errorLine } from '../hooks/useResource';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { cell, fit, grouped, sanitize, wrapText } from '../../terminal/text';
import { shortenApiKey as shortKey } from '../../api/redact';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const KEY_AUDIT_MODES = defineModes({
  // The key audit: a summary row per sub-account, a row per flagged key.
  keyAudit: {
    title: 'Key audit',
    bindings: [
      { command: 'up', keystrokes: ['up', 'k'], description: 'Previous row' },
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ move', description: 'Next row' },
      { command: 'pageUp', keystrokes: ['pageup'], description: 'Scroll up a screenful' },
      { command: 'pageDown', keystrokes: ['pagedown'], description: 'Scroll down a screenful' },
      { command: 'first', keystrokes: ['home', 'g'], description: 'First row' },
      { command: 'last', keystrokes: ['end', 'G'], description: 'Last row' },
      {
        command: 'open',
        keystrokes: ['enter'],
        hint: 'enter open keys',
        description: "Open the sub-account's key list, on the selected key",
        disabledReason: noMatchReason('No row matches the filter: nothing to open (esc clears it)'),
      },
      { command: 'refresh', keystrokes: ['r'], hint: 'r refresh', description: 'Audit again' },
      {
        command: 'transfers',
        keystrokes: ['t'],
        hint: 't transfers',
        description: "Transfers of the selected row's sub-account (the filter opens on them)",
        disabledReason: noMatchReason('No row matches the filter: no sub-account to open transfers of (esc clears it)'),
      },
      {
        command: 'search',
        keystrokes: ['/'],
        hint: '/ filter',
        description: 'Filter the rows as you type: a sub-account, a key, a note or a flag (a key keeps its sub-account row; esc clears)',
      },
      { command: 'quit', keystrokes: ['q'], description: 'Quit' },
    ],
  },
  // The filter line is open: typing filters the rows.
  keyAuditFilter: filterLineMode('Key audit: filter', 'row'),
});

type AuditRow = { kind: 'account'; audit: SubAccountAudit } | { kind: 'key'; subAccount: string; finding: KeyFinding };

/** A row's identity across arrivals: the sub-account, or the sub-account and the key. */
function auditRowId(row: AuditRow): string {
  return row.kind === 'account' ? `account ${row.audit.subAccount}` : `key ${row.subAccount} ${row.finding.key.apiKey}`;
}

/** What `/` matches in a row: what its columns show (a sub-account's state and flag counts; a key's whole API key, note and flags). */
function auditSearchText(row: AuditRow): string {
  if (row.kind === 'account') {
    const counts = row.audit.status === 'audited' ? ` ${summaryText(row.audit.summary)}` : '';
    return `${sanitize(row.audit.subAccount)} ${accountState(row.audit)}${counts}`;
  }
  const { key, flags } = row.finding;
  return `${sanitize(row.subAccount)} ${key.apiKey} ${sanitize(key.note)} ${flags.map((f) => f.kind).join(' ')}`;
}

/** The rows a filter leaves, each key row with its sub-account's row above it. */
function withTheirAccounts(rows: readonly AuditRow[], matched: readonly AuditRow[]): readonly AuditRow[] {
  if (matched === rows) return rows;
  const kept = new Set(matched);
  const ofKeys = new Set(matched.flatMap((r) => (r.kind === 'key' ? [r.subAccount] : [])));
  return rows.filter((r) => kept.has(r) || (r.kind === 'account' && ofKeys.has(r.audit.subAccount)));
}

/** The list: each sub-account that answered, in the order asked, followed by its flagged keys. */
function auditRows(results: ReadonlyArray<SubAccountAudit | undefined>): AuditRow[] {
  return results.flatMap((audit): AuditRow[] =>
    audit === undefined
      ? []
      : [
          { kind: 'account', audit },
          ...(audit.status === 'audited'
            ? audit.findings.filter((f) => f.flags.length > 0).map((finding): AuditRow => ({ kind: 'key', subAccount: audit.subAccount, finding }))
            : []),
        ],
  );
}

function accountState(audit: SubAccountAudit): string {
  if (audit.status === 'audited')
    return `${grouped(audit.summary.keys)} ${audit.summary.keys === 1 ? 'key' : 'keys'} · ${grouped(audit.summary.flagged)} flagged`;
  return audit.status === 'failed' ? (audit.unknown ? 'no such sub-account' : 'could not be audited') : 'not audited';
}

const KEY_WIDTH = 13;
const AGE_WIDTH = 5;

/** Columns by width alone. A sub-account row uses them as name · state · - · flag counts; a key row is indented. */
function auditColumns(width: number, now: number): TableColumn<AuditRow>[] {
  const room = width - 2;
  // From 100 columns the whole API key, as the key list shows it.
  const wide = width >= 100;
  const first = (r: AuditRow, w: number) =>
    cell(r.kind === 'account' ? r.audit.subAccount : `  ${wide ? r.finding.key.apiKey : shortKey(r.finding.key.apiKey)}`, w);
  const flags = (r: AuditRow) =>
    r.kind === 'key' ? r.finding.flags.map((f) => f.kind).join(' ') : r.audit.status === 'audited' ? summaryText(r.audit.summary) : accountState(r.audit);
  if (width >= 60) {
    const nameWidth = wide ? 34 : 16;
    const flexible = room - 3 - nameWidth - AGE_WIDTH;
    const note = Math.max(8, Math.floor(flexible * 0.4));
    const flagWidth = Math.max(8, flexible - note);
    return [
      { title: 'ACCOUNT / KEY', width: nameWidth, cell: (r) => first(r, nameWidth) },
      { title: 'NOTE', width: note, cell: (r) => cell(r.kind === 'key' ? r.finding.key.note : accountState(r.audit), note) },
      { title: 'AGE', width: AGE_WIDTH, align: 'right', cell: (r) => (r.kind === 'key' ? `${ageInDays(r.finding.key.createdAt, now)}d` : '') },
      { title: 'FLAGS', width: flagWidth, cell: (r) => cell(flags(r), flagWidth) },
    ];
  }
  // Narrow: who, and what is wrong; the lines under the list say why.
  const flagWidth = Math.max(8, room - 1 - KEY_WIDTH);
  return [
    { title: 'ACCOUNT / KEY', width: KEY_WIDTH, cell: (r) => first(r, KEY_WIDTH) },
    { title: 'FLAGS', width: flagWidth, cell: (r) => cell(r.kind === 'key' ? flags(r) : accountState(r.audit), flagWidth) },
  ];
}

/** Why the selected row is there, in plain words (outside text inside: wrapped, hence sanitised, by the caller). */
function whyText(row: AuditRow | undefined): string[] {
  if (!row) return [];
  if (row.kind === 'key') return row.finding.flags.map((f) => `${f.kind}: ${f.reason}`);
  const audit = row.audit;
  if (audit.status === 'audited') return [`${audit.subAccount}: ${accountState(audit)} — ${summaryText(audit.summary)}`];
  if (audit.status === 'failed') return [`✗ ${audit.subAccount}: ${errorLine(audit.error)}`];
  return [`${audit.subAccount}: not audited — stopped after ${audit.after} failed (r audits again)`];
}

export function KeyAuditScreen({ subAccounts }: { subAccounts: readonly string[] }) {
  const { theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const audit = useKeyAudit(subAccounts);
  const allRows = useMemo(() => auditRows(audit.results), [audit.results]);
  const filter = useRowFilter(allRows, auditSearchText);
  const rows = useMemo(() => withTheirAccounts(allRows, filter.rows), [allRows, filter.rows]);
  const noMatch = filter.noMatch;
  useScreenMode(filter.editing ? 'keyAuditFilter' : 'keyAudit', { noMatch, filtered: filter.kept });
  // Room: title, status, the filter line when shown, the table's header, and the lines saying why (fewer when the window is short).
  const whyRoom = height >= 16 ? 4 : height >= 10 ? 2 : 1;
  const tableRoom = Math.max(1, height - 3 - whyRoom - (filter.shown ? 1 : 0));
  const list = useListCursor(rows.length, tableRoom);
  // Sub-accounts answer in any order and their rows go in the order asked: when rows arrive above the cursor,
  // the cursor follows the row it was on (in this render, so no frame shows it on another row).
  const anchor = useRef<{ rows: readonly AuditRow[]; id: string | undefined }>({ rows: allRows, id: undefined });
  if (anchor.current.rows !== allRows) {
    const at = anchor.current.id === undefined ? -1 : rows.findIndex((r) => auditRowId(r) === anchor.current.id);
    anchor.current.rows = allRows;
    if (at >= 0 && at !== list.cursor) list.setCursor(at);
  }
  const selected = rows[list.cursor];
  anchor.current.id = selected ? auditRowId(selected) : undefined;
  const columns = useMemo(() => auditColumns(width, audit.now), [width, audit.now]);

  useScreenKeystrokes(
    (input, keystroke) => {
      const filtering = filter.listKey(KEY_AUDIT_MODES.keyAuditFilter, input, keystroke, list, selected);
      if (filtering !== undefined) return filtering;
      const command = commandFor(KEY_AUDIT_MODES.keyAudit, input, keystroke, { noMatch });
      const move = listMoveFor(command);
      if (move) {
        list.move(move);
        return true;
      }
      switch (command) {
        case 'search':
          filter.open();
          return true;
        case 'refresh':
          audit.reload();
          list.setCursor(0);
          return true;
        case 'transfers':
          if (selected)
            navigate({
              type: 'push',
              route: { screen: 'transferFilter', subAccount: selected.kind === 'key' ? selected.subAccount : selected.audit.subAccount },
            });
          return true;
        case 'open':
          if (selected?.kind === 'key')
            navigate({ type: 'push', route: { screen: 'keys', subAccount: selected.subAccount, highlightApiKey: selected.finding.key.apiKey } });
          else if (selected) navigate({ type: 'push', route: { screen: 'keys', subAccount: selected.audit.subAccount } });
          return true;
        default:
          return false;
      }
    },
    // Rows arrive while it runs, and move the rows under the cursor: keys wait for the whole audit.
    { active, busy: audit.runningNow },
  );

  const answered = audit.results.filter((r): r is SubAccountAudit => r !== undefined);
  const audited = answered.flatMap((r) => (r.status === 'audited' ? [r] : []));
  const keys = audited.reduce((n, r) => n + r.summary.keys, 0);
  const flagged = audited.reduce((n, r) => n + r.summary.flagged, 0);
  const failed = answered.length - audited.length;
  const title = subAccounts.length === 1 ? `Key audit of ${sanitize(subAccounts[0] ?? '')}` : `Key audit · ${grouped(subAccounts.length)} sub-accounts`;
  const narrow = width < 60;
  // Nothing audited (every sub-account failed): no count of flags, which would read as a clean audit.
  const count =
    answered.length === 0 || audited.length === 0
      ? ''
      : narrow
        ? ` · ${grouped(flagged)}/${grouped(keys)} flagged`
        : ` · ${grouped(flagged)} of ${grouped(keys)} ${keys === 1 ? 'key' : 'keys'} flagged`;
  const titleRoom = Math.max(1, width - count.length);

  const status = audit.running ? (
    <Spinner label={subAccounts.length === 1 ? 'Auditing…' : `Auditing ${grouped(audit.done)} of ${grouped(audit.total)}…`} width={width} />
  ) : failed > 0 ? (
    <Text color={theme.error}>
      {fit(`✗ ${grouped(failed)} of ${grouped(answered.length)} not audited · old: over ${formatSpan(audit.maxAgeMs)}`, width).trimEnd()}
    </Text>
  ) : (
    <Text color={theme.muted}>
      {fit(
        `${rows.length === 0 ? '-' : `${list.cursor + 1}/${rows.length}`} · ${flagged === 0 ? 'nothing flagged' : narrow ? 'enter: keys' : 'enter opens the keys'} · old: over ${formatSpan(audit.maxAgeMs)}`,
        width,
      ).trimEnd()}
    </Text>
  );
  const why = capLines(
    whyText(selected).flatMap((line) => wrapText(line, width)),
    whyRoom,
    width,
  );
  const failedRow = selected?.kind === 'account' && selected.audit.status !== 'audited';

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>
        {fit(title, titleRoom).trimEnd()}
        {count ? <Text color={theme.muted}>{count}</Text> : null}
      </Text>
      {status}
      {filter.shown ? <FilterLine filter={filter} list={list} focus={active} width={width} matched={rows.length} total={allRows.length} noun="rows" /> : null}
      {rows.length > 0 ? (
        <WindowedTable columns={columns} rows={rows} from={list.from} to={list.to} cursor={list.cursor} width={width} highlight={filter.text} />
      ) : (
        <Text color={theme.muted}>
          {fit(audit.running ? ' ' : noMatch ? 'No row matches the filter; esc clears it.' : 'No sub-account to audit.', width).trimEnd() || ' '}
        </Text>
      )}
      {/* Pushed to the bottom of the body, so it does not jump with the length of the list. */}
      <Box flexGrow={1} />
      {why.map((line, i) => (
        <Text key={i} color={failedRow ? theme.error : theme.muted}>
          {line || ' '}
        </Text>
      ))}
    </Box>
  );
}

export const KEY_AUDIT_SCREEN = defineScreen({ route: 'keyAudit', mode: 'keyAudit', render: (route) => <KeyAuditScreen subAccounts={route.subAccounts} /> });
