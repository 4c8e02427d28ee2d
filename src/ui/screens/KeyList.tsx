// The API keys of a sub-account: a windowed table, a detail view, copy, refresh, and the way to a new key.
import React, { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import type { SubAccountKey } from '../../api/types';
import { ErrorLine } from '../components/ErrorLine';
import { FieldList } from '../components/FieldList';
import { Spinner } from '../components/Spinner';
import { WindowedTable, sizeColumns, type TableColumn } from '../components/WindowedTable';
import { commandFor } from '../keymap';
import { useFlash } from '../hooks/useFlash';
import { useScreenKeys } from '../hooks/useKeys';
import { useListCursor } from '../hooks/useListCursor';
import { errorLine } from '../hooks/useResource';
import { useSubAccountKeys } from '../hooks/useSubAccountKeys';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { localTime, shortKey } from '../text';

export function KeyList({ subAccount, highlightApiKey, refreshToken }: { subAccount: string; highlightApiKey?: string; refreshToken?: number }) {
  const { copy, theme } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const keys = useSubAccountKeys(subAccount, refreshToken);
  const rows = keys.data ?? [];
  const [detail, setDetail] = useState(false);
  const [flash, setFlash] = useFlash();
  useScreenMode(detail ? 'keyDetail' : 'keys');
  const tableRoom = Math.max(1, height - 4);
  const list = useListCursor(rows.length, tableRoom);
  const selected = rows[list.cursor];
  const highlightAt = highlightApiKey ? rows.findIndex((k) => k.apiKey === highlightApiKey) : -1;
  // After a key was created, the cursor lands on it.
  useEffect(() => {
    if (highlightAt >= 0) list.setCursor(highlightAt);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [highlightAt, refreshToken]);

  const copyKey = (key: SubAccountKey | undefined) => {
    if (!key) return;
    copy(key.apiKey);
    setFlash(`Copied API key ${shortKey(key.apiKey)} to the clipboard`);
  };

  useScreenKeys(
    (input, key) => {
      if (detail) {
        const command = commandFor('keyDetail', input, key);
        if (command === 'close') setDetail(false);
        else if (command === 'copy') copyKey(selected);
        return command !== undefined;
      }
      switch (commandFor('keys', input, key)) {
        case 'up': list.move('up'); return true;
        case 'down': list.move('down'); return true;
        case 'detail': if (selected) setDetail(true); return true;
        case 'create': navigate({ type: 'push', route: { screen: 'createKey', subAccount } }); return true;
        case 'copy': copyKey(selected); return true;
        case 'refresh': keys.reload(); return true;
        case 'transfers': navigate({ type: 'push', route: { screen: 'transferFilter' } }); return true;
        default: return false;
      }
    },
    { active },
  );

  const status =
    keys.status === 'loading' ? (keys.slow ? <Spinner label="Loading keys…" /> : <Text> </Text>)
    : keys.status === 'error' ? <ErrorLine message={errorLine(keys.error)} retryKey="r" width={width} />
    : <Text color={theme.muted}>{flash ?? (rows.length === 0 ? ' ' : `${list.cursor + 1}/${rows.length}`)}</Text>;

  if (detail && selected) {
    return (
      <Box flexDirection="column">
        <Text bold>Key {shortKey(selected.apiKey)} of {subAccount}</Text>
        <FieldList
          fields={[
            ['Note', selected.note],
            ['API key', selected.apiKey],
            ['Permissions', selected.permissions.join(', ')],
            ['Linked IPs', selected.ips.join(', ')],
            ['Created', `${localTime(selected.createdAt, true)} (local) · ${new Date(selected.createdAt).toISOString()}`],
          ]}
        />
        <Text color={theme.muted}>{flash ?? ' '}</Text>
      </Box>
    );
  }

  const { fixed, flexible } = sizeColumns(width, [width >= 100 ? 32 : 11, 16], [3, 4, 3]);
  const columns: TableColumn<SubAccountKey>[] = [
    { title: 'NOTE', width: flexible[0]!, cell: (k) => k.note },
    { title: 'API KEY', width: fixed[0]!, cell: (k) => (width >= 100 ? k.apiKey : shortKey(k.apiKey)) },
    { title: 'PERMISSIONS', width: flexible[1]!, cell: (k) => k.permissions.join(',') },
    { title: 'IPS', width: flexible[2]!, cell: (k) => (k.ips.length === 0 ? 'any' : k.ips.join(',')) },
    { title: 'CREATED', width: fixed[1]!, cell: (k) => localTime(k.createdAt) },
  ];

  return (
    <Box flexDirection="column">
      <Text bold>
        API keys of {subAccount}
        {keys.data ? <Text color={theme.muted}> · {rows.length} {rows.length === 1 ? 'key' : 'keys'}</Text> : null}
      </Text>
      {status}
      {keys.status === 'ready' && rows.length === 0 ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>No API keys for {subAccount} yet.</Text>
          <Text color={theme.muted}>Press n to create one.</Text>
        </Box>
      ) : rows.length > 0 ? (
        <WindowedTable
          columns={columns}
          rows={rows}
          from={list.from}
          to={list.to}
          cursor={list.cursor}
          rowKey={(k) => k.apiKey}
          mark={(k) => k.apiKey === highlightApiKey}
        />
      ) : null}
    </Box>
  );
}
