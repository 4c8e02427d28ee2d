// Transfers for a filter: a windowed table with a cursor, paging (next, previous, jump, size), the page's
// per-asset totals, the detail of a transfer, and export. The active filter stays in view.
import React, { useMemo, useState } from 'react';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { TextField } from '../components/TextField';
import { DEFAULT_PAGE_SIZE, type Transfer, type TransferQuery } from '../../api/types';
import { checkLimit, checkPage } from '../../api/validation';
import { totalsOf } from '../../export/totals';
import { ErrorLine } from '../components/ErrorLine';
import { FieldList } from '../components/FieldList';
import { Spinner } from '../components/Spinner';
import { WindowedTable, sizeColumns, type TableColumn } from '../components/WindowedTable';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { useListCursor } from '../hooks/useListCursor';
import { errorLine } from '../hooks/useResource';
import { useTransfers } from '../hooks/useTransfers';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { fit, localTime } from '../text';
import { ExportPanel } from './ExportPanel';

type Mode = { name: 'list' } | { name: 'detail' } | { name: 'prompt'; what: 'page' | 'size'; text: string; error?: string } | { name: 'export' };

export function describeFilter(query: TransferQuery): string {
  const parts = [
    `${query.fromAccountType} → ${query.toAccountType}`,
    `from ${query.fromAccount ?? 'master'}`,
    `to ${query.toAccount ?? 'master'}`,
  ];
  if (query.startTime !== undefined) parts.push(`since ${localTime(query.startTime)}`);
  if (query.endTime !== undefined) parts.push(`until ${localTime(query.endTime)}`);
  if (query.clientTranId) parts.push(`client id ${query.clientTranId}`);
  return parts.join(' · ');
}

export function TransferBrowser({ query }: { query: TransferQuery }) {
  const { theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const [page, setPage, pageRef] = useSyncedState(query.page ?? 1);
  const [limit, setLimit] = useState(query.limit ?? DEFAULT_PAGE_SIZE);
  const [reloadToken, setReloadToken] = useState(0);
  const [mode, setMode, modeRef] = useSyncedState<Mode>({ name: 'list' });
  const [notice, setNotice] = useState<string | undefined>();
  useScreenMode(mode.name === 'detail' ? 'transferDetail' : mode.name === 'export' ? 'export' : 'transfers');
  const transfers = useTransfers(query, page, limit, reloadToken);
  const rows = transfers.data ?? [];
  const loaded = transfers.status === 'ready';
  const lastPage = loaded && rows.length < limit;
  // filter, page line, two lines of totals, the table's header
  const tableRoom = Math.max(1, height - 5 - (mode.name === 'prompt' ? 2 : 0));
  const list = useListCursor(rows.length, tableRoom);
  const selected = rows[list.cursor];
  const totals = useMemo(() => totalsOf(rows).entries(), [rows]);

  const goToPage = (next: number) => {
    setNotice(undefined);
    setPage(next);
    list.setCursor(0);
  };

  useScreenKeys(
    (input, key) => {
      const mode = modeRef.current;
      const page = pageRef.current;
      if (mode.name === 'export') return false;
      if (mode.name === 'detail') {
        const command = commandFor('transferDetail', input, key);
        if (command === 'close') setMode({ name: 'list' });
        return command !== undefined; // other keys reach the global ones (? help)
      }
      if (mode.name === 'prompt') {
        if (key.escape) setMode({ name: 'list' });
        else if (key.return) {
          const checked = mode.what === 'page' ? checkPage(mode.text) : checkLimit(mode.text);
          if (!checked.ok) setMode({ ...mode, error: checked.error.message });
          else {
            if (mode.what === 'page') goToPage(checked.value);
            else {
              setLimit(checked.value);
              goToPage(1);
            }
            setMode({ name: 'list' });
          }
        }
        return key.escape || key.return;
      }
      switch (commandFor('transfers', input, key)) {
        case 'up': list.move('up'); return true;
        case 'down': list.move('down'); return true;
        case 'pageUp': list.move('pageUp'); return true;
        case 'pageDown': list.move('pageDown'); return true;
        case 'detail': if (selected) setMode({ name: 'detail' }); return true;
        case 'nextPage':
          if (!loaded) return true;
          if (lastPage) setNotice(`no more pages: page ${page} is the last`);
          else goToPage(page + 1);
          return true;
        case 'previousPage':
          if (page > 1) goToPage(page - 1);
          else setNotice('this is the first page');
          return true;
        case 'jump': setMode({ name: 'prompt', what: 'page', text: '' }); return true;
        case 'pageSize': setMode({ name: 'prompt', what: 'size', text: String(limit) }); return true;
        case 'export': if (loaded) setMode({ name: 'export' }); return true;
        case 'filter': navigate({ type: 'back' }); return true;
        case 'refresh': setReloadToken((t) => t + 1); return true;
        default: return false;
      }
    },
    { active, textEntry: mode.name === 'prompt' ? 'text' : false },
  );

  const header = (
    <>
      <Text color={theme.accent}>{fit(`Filter: ${describeFilter(query)}`, width)}</Text>
      <Text>
        <Text bold>Page {page}</Text>
        <Text color={theme.muted}>
          {' '}· {limit} per page{loaded ? ` · ${rows.length} rows` : ''}
          {loaded && lastPage ? ' · no more pages' : ''}
          {loaded && rows.length > 0 ? ` · row ${list.cursor + 1}` : ''}
        </Text>
      </Text>
    </>
  );

  if (mode.name === 'detail' && selected) {
    return (
      <Box flexDirection="column">
        {header}
        <Text bold>Transfer {selected.tranId}</Text>
        <FieldList fields={transferFields(selected)} labelWidth={17} />
      </Box>
    );
  }

  // Below 80 columns the types column goes (the filter line names them): the row must fit on one line.
  const narrow = width < 80;
  // Amounts and statuses are never cut: their columns are as wide as the page's longest value.
  const amountWidth = Math.min(24, Math.max(6, ...rows.map((t) => t.amount.length)));
  const statusWidth = Math.min(12, Math.max(6, ...rows.map((t) => t.status.length)));
  const { fixed, flexible } = narrow
    ? sizeColumns(width, [16, 5, amountWidth, statusWidth], [1])
    : sizeColumns(width, [16, 11, 5, amountWidth, statusWidth], [1]);
  const [timeWidth, assetWidth] = narrow ? [fixed[0]!, fixed[1]!] : [fixed[0]!, fixed[2]!];
  const columns: TableColumn<Transfer>[] = [
    { title: 'TIME', width: timeWidth, cell: (t) => localTime(t.timestamp) },
    { title: 'FROM → TO', width: flexible[0]!, cell: (t) => `${t.fromAccount || 'master'} → ${t.toAccount || 'master'}` },
    ...(narrow ? [] : [{ title: 'TYPES', width: fixed[1]!, cell: (t: Transfer) => `${t.fromAccountType}→${t.toAccountType}` }]),
    { title: 'ASSET', width: assetWidth, cell: (t) => t.asset },
    { title: 'AMOUNT', width: amountWidth, align: 'right', cell: (t) => t.amount },
    { title: 'STATUS', width: statusWidth, cell: (t) => t.status },
  ];

  const status =
    transfers.status === 'loading' ? <Box height={2}>{transfers.slow ? <Spinner label={`Loading page ${page}…`} /> : <Text> </Text>}</Box>
    : transfers.status === 'error' ? <Box height={2}><ErrorLine message={errorLine(transfers.error)} retryKey="r" width={width} /></Box>
    : <Box height={2} overflow="hidden"><Text color={notice ? theme.warn : theme.muted} wrap="wrap">{notice ?? totalsLine(totals)}</Text></Box>;

  return (
    <Box flexDirection="column">
      {header}
      {status}
      {mode.name === 'prompt' ? (
        <Box flexDirection="column">
          <Box>
            <Text>{mode.what === 'page' ? 'Go to page: ' : `Page size (1–500): `}</Text>
            <TextField value={mode.text} onChange={(text) => setMode((m) => (m.name === 'prompt' ? { ...m, text, error: undefined } : m))} focus={active} />
          </Box>
          {mode.error ? <Text color={theme.error}>✗ {mode.error}</Text> : <Text color={theme.muted}>enter goes · esc cancels</Text>}
        </Box>
      ) : null}
      {mode.name === 'export' ? <ExportPanel query={{ ...query, limit }} page={rows} onClose={() => setMode({ name: 'list' })} /> : null}
      {mode.name !== 'export' && loaded && rows.length === 0 ? (
        <Box marginTop={1} flexDirection="column">
          <Text>{page === 1 ? 'No transfers match this filter.' : `Page ${page} is empty: there are fewer transfers than that.`}</Text>
          <Text color={theme.muted}>{page === 1 ? 'f changes the filter.' : 'p goes back a page.'}</Text>
        </Box>
      ) : null}
      {mode.name === 'list' && rows.length > 0 ? (
        <WindowedTable columns={columns} rows={rows} from={list.from} to={list.to} cursor={list.cursor} rowKey={(t) => t.tranId} />
      ) : null}
    </Box>
  );
}

function totalsLine(totals: [string, string][]): string {
  if (totals.length === 0) return ' ';
  return `Page totals: ${totals.map(([asset, sum]) => `${asset} ${sum}`).join(' · ')}`;
}

function transferFields(t: Transfer): Array<[string, string]> {
  return [
    ['Transfer id', t.tranId],
    ['Client id', t.clientTranId],
    ['Time', `${localTime(t.timestamp, true)} (local) · ${new Date(t.timestamp).toISOString()}`],
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
