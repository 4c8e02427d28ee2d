// Transfers for a filter: a windowed table with a cursor, paging (next, previous, jump, size), the page's
// per-asset totals, the detail of a transfer, and export. The active filter stays in view. Everything from the
// service is sanitised, and every part is sized from the window (never from a page's content), so the frame
// fits from 40x12 up and the columns stay put from page to page.
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FilterLine, matchesFilter, useRowFilter, filterLineMode } from '../hooks/useRowFilter';
import { useSyncedState } from '../hooks/useSyncedState';
import { Box, Text } from 'ink';
import { TextField } from '../components/TextField';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Transfer, type TransferQuery } from '../../api/types';
import { checkLimit, checkPage } from '../../api/validation';
import { totalsOf } from '../../export/totals';
import { displayWidth, fit, grouped, wrapWords } from '../../terminal/text';
import { ErrorLine, capLines, errorLines } from '../components/ErrorLine';
import { Spinner } from '../components/Spinner';
import { WindowedTable } from '../components/WindowedTable';
import { commandFor, defineModes, noMatchReason, sameMode, whenRetryable, type BindingContext, type CommandOf, type ScreenContext } from '../keyboard/bindings';
import type { ActiveMode, ScreenId } from '../keyboard/modes';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { cursorOnRow, listMoveFor, useListCursor } from '../hooks/useListCursor';
import { retryable, useErrorLine, useRetryable } from '../hooks/useResource';
import { useTransfers } from '../hooks/useTransfers';
import { useNavigate } from '../navigation';
import { SUB_ACCOUNT_KEYS, namesNoSubAccount, noSubAccountReason, subAccountOfTransfer } from '../transferSubAccount';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { describeFilter, totalsText, transferColumns, transferSearchText } from '../transferTable';
import { ExportPanel } from './ExportPanel';
import { TransferChart } from './TransferChart';
import { TransferDetail } from './TransferDetail';
import { keepPageSize } from './TransferFilterForm';
import { useDrafts } from '../drafts';
import { SERVED_ORDER, nextSortColumn, pageAsShown, sortText, sortTransfers, sortedColumns, type PageSort } from '../pageSort';
import { fieldMessage } from '../fieldLabels';
import { useTryingAgain } from '../hooks/useTryingAgain';

/** How long a notice stays in place of the totals line. */
const NOTICE_MS = 8000;

/** Rows of the page are in hand: there is something to move to, open, sort, chart or export. */
const hasRows = ({ empty, failed }: BindingContext) => empty !== true && failed !== true;
/** An empty page after the first: past the end (p goes back to the last page seen with rows). */
const pastTheEnd = ({ empty, onFirstPage }: BindingContext) => empty === true && onFirstPage !== true;

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const TRANSFER_MODES = defineModes({
  // The page; an empty one (no match, or past the end) or one that failed has no rows to move in, open or export.
  transfers: {
    title: ({ empty, failed }) => `Transfers${empty ? ' (an empty page)' : failed ? ' (the page failed)' : ''}`,
    bindings: [
      // First in the footer of a failed page: r only where a retry can help (network, timeout, 5xx, 429).
      {
        command: 'refresh',
        keystrokes: ['r'],
        hint: 'r retry',
        description: 'Ask for this page again (the error is one a retry can fix)',
        when: (context) => context.failed === true && whenRetryable(context),
      },
      { command: 'up', keystrokes: ['up', 'k'], description: 'Previous transfer', when: hasRows },
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ move', description: 'Next transfer', when: hasRows },
      { command: 'pageUp', keystrokes: ['pageup'], description: 'Scroll up a screenful', when: hasRows },
      { command: 'pageDown', keystrokes: ['pagedown'], description: 'Scroll down a screenful', when: hasRows },
      { command: 'first', keystrokes: ['home'], description: 'First row of the page (g is go to page here)', when: hasRows },
      { command: 'last', keystrokes: ['end', 'G'], description: 'Last row of the page', when: hasRows },
      {
        command: 'detail',
        keystrokes: ['enter'],
        hint: 'enter detail',
        description: 'Every field of the selected transfer, j/k step through the rows',
        when: hasRows,
        disabledReason: noMatchReason('No row matches the search: nothing to open (esc clears it)'),
      },
      {
        command: 'nextPage',
        keystrokes: [']', 'n'],
        hint: 'n/] next page',
        description: 'Next page',
        when: hasRows,
        disabledReason: ({ onLastPage }) => (onLastPage ? 'Next page (this is the last page)' : undefined),
      },
      { command: 'nextPage', keystrokes: [']', 'n'], description: 'Next page (there is none after an empty one)', when: ({ empty }) => empty === true },
      // Page 1 whose load failed: the error takes the line its "first page" notice would use.
      {
        command: 'previousPage',
        keystrokes: ['[', 'p'],
        hint: 'p/[ prev',
        description: 'Previous page',
        when: (context) => !pastTheEnd(context) && context.firstPageFailed !== true,
        disabledReason: ({ onFirstPage }) => (onFirstPage ? 'Previous page (this is the first page)' : undefined),
      },
      {
        command: 'previousPage',
        keystrokes: ['[', 'p'],
        hint: 'p/[ prev',
        description: 'Previous page (from past the end: the last page seen with rows)',
        when: pastTheEnd,
      },
      { command: 'jump', keystrokes: ['g'], hint: 'g go to page', description: 'Jump to a page number' },
      { command: 'pageSize', keystrokes: ['s'], description: `Change the page size (1–${MAX_PAGE_SIZE})` },
      {
        command: 'export',
        keystrokes: ['x'],
        hint: 'x export',
        description: 'Export this page or all pages to CSV or JSON',
        when: hasRows,
        disabledReason: noMatchReason('No row matches the search: nothing to export (esc clears it, then x)'),
      },
      { command: 'filter', keystrokes: ['f'], hint: 'f filter', description: 'Change the filter' },
      {
        command: 'refresh',
        keystrokes: ['r'],
        hint: 'r retry',
        description: 'Ask for this page again (its reload failed; the rows are the last answer)',
        when: (context) => hasRows(context) && whenRetryable(context),
      },
      { command: 'refresh', keystrokes: ['r'], description: 'Reload this page', when: (context) => context.failed !== true && !whenRetryable(context) },
      { command: 'search', keystrokes: ['/'], hint: '/ search', description: "Filter this page's rows as you type, any column (esc clears)", when: hasRows },
      { command: 'sort', keystrokes: ['o'], hint: 'o sort', description: 'Sort the current page only: time (as served), amount, asset, status', when: hasRows },
      { command: 'reverse', keystrokes: ['O'], description: 'Turn the sort of the page the other way (the arrow shows which)', when: hasRows },
      {
        command: 'chart',
        keystrokes: ['v'],
        hint: 'v chart',
        description: 'Chart every page of the filter: volume per day per asset, counts by status',
        when: hasRows,
      },
      { command: 'keys', keystrokes: ['K'], hint: 'K keys', description: SUB_ACCOUNT_KEYS, when: hasRows, disabledReason: noSubAccountReason },
      { command: 'quit', keystrokes: ['q'], description: 'Quit' },
    ],
  },
  // The filter line is open: typing filters the rows of the page.
  transfersFilterLine: filterLineMode('Transfers: search the page', 'transfer'),
  transferPrompt: {
    title: 'Transfers: page or page size',
    bindings: [
      { command: 'go', keystrokes: ['enter'], hint: 'enter go', description: 'Go to that page, or use that page size' },
      { command: 'cancel', keystrokes: ['esc'], hint: 'esc cancel', description: 'Close the prompt; nothing changes' },
    ],
  },
});

type Mode =
  { name: 'list' } | { name: 'detail' } | { name: 'prompt'; what: 'page' | 'size'; text: string; error?: string } | { name: 'export' } | { name: 'chart' };

/** Lines kept for the totals (or a notice) under the page line: fixed per window height, so the table never moves. */
function statusRoom(height: number): number {
  return height >= 20 ? 3 : 2;
}

export function TransferBrowser({ query, fromFilter = false }: { query: TransferQuery; fromFilter?: boolean }) {
  const { theme, api } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const drafts = useDrafts();
  const [page, setPage, pageRef] = useSyncedState(query.page ?? 1);
  const [limit, setLimit, limitRef] = useSyncedState(query.limit ?? DEFAULT_PAGE_SIZE);
  const [reloadToken, setReloadToken, reloadRef] = useSyncedState(0);
  const [mode, setMode, modeRef] = useSyncedState<Mode>({ name: 'list' });
  const [notice, setNotice] = useState<string | undefined>();
  // A notice answers the key that asked (a page not loaded, the first page): it gives the totals line back after a while.
  useEffect(() => {
    if (notice === undefined) return undefined;
    const timer = setTimeout(() => setNotice(undefined), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  // The filter opens over these results (starting from their query and page size): esc there comes back to them as they are.
  const changeFilter = () =>
    navigate({
      type: 'push',
      route: fromFilter
        ? { screen: 'transferFilter', overResults: true }
        : { screen: 'transferFilter', initial: { ...query, page: undefined, limit }, overResults: true },
    });
  // The highest page seen with rows at this page size: where p goes back to from a page past the end.
  // The last page seen with rows at this page size (for an empty page past the end): a ref, as nothing on screen
  // changes when it does (a state set after each page drew that page a second time).
  const lastWithRows = useRef<{ limit: number; page: number } | undefined>(undefined);
  // Detail and export report their own state (scrollable, running, done…) for the footer.
  const [child, setChild] = useState<ActiveMode | undefined>();
  const childMode = child?.id;
  const childContext = child?.context ?? {};
  const setChildMode = useCallback(
    (id: ScreenId | undefined, context: ScreenContext = {}) =>
      setChild((c) => (id === undefined ? undefined : c && sameMode(c, { id, context }) ? c : { id, context })),
    [],
  );
  const transfers = useTransfers(query, page, limit, reloadToken);
  const loaded = transfers.status === 'ready';
  const tryingAgain = useTryingAgain('list transfers', transfers.status === 'loading');
  // The page and size the rows in hand belong to: `r` asks for the same page again, and its rows stay while it loads.
  const readyFor = useRef<string | undefined>(undefined);
  // And the reload they came with: back on that page (esc), the same request, whose rows are in hand.
  const readyReload = useRef(0);
  const pageKey = `${page}:${limit}`;
  if (loaded) {
    readyFor.current = pageKey;
    readyReload.current = reloadToken;
  }
  const reloading = transfers.status === 'loading' && readyFor.current === pageKey;
  // The same page asked again and failed in a way a retry can fix: its rows stay on screen under the error, as the
  // key list's do, and r tries again. Any other failure is the page's state, shown whole.
  const reloadFailed = transfers.status === 'error' && readyFor.current === pageKey && (transfers.data?.length ?? 0) > 0 && retryable(transfers.error);
  // Only the page asked for: while another one loads, or after it failed, the previous page's rows (and totals) are gone.
  const pageRows = useMemo(() => (loaded || reloading || reloadFailed ? (transfers.data ?? []) : []), [loaded, reloading, reloadFailed, transfers.data]);
  // `o` sorts the page, `/` filters it: a new list only when the page, the sort or the filter text change.
  const [sort, setSort] = useState<PageSort>(SERVED_ORDER);
  const sortedRows = useMemo(() => sortTransfers(pageRows, sort), [pageRows, sort]);
  const filter = useRowFilter(sortedRows, transferSearchText);
  const rows = pageRows;
  const shown = filter.rows;
  const filtering = filter.text.trim() !== '';
  const failed = transfers.status === 'error';
  const canRetry = useRetryable(failed ? transfers.error : undefined);
  const failure = useErrorLine(failed ? transfers.error : undefined);
  // The rows shown are an answer: this one, or the last one when its reload failed (they stay, and act as rows).
  const inHand = loaded || reloadFailed;
  const lastPage = inHand && rows.length < limit;
  const seen = lastWithRows.current;
  if (loaded && rows.length > 0 && !(seen?.limit === limit && seen.page >= page)) lastWithRows.current = { limit, page };
  const known = lastWithRows.current?.limit === limit ? lastWithRows.current.page : undefined;

  const screenMode: ScreenId =
    mode.name === 'detail'
      ? (childMode ?? 'transferDetail')
      : mode.name === 'export'
        ? (childMode ?? 'export')
        : mode.name === 'chart'
          ? (childMode ?? 'transfersChartLoading')
          : mode.name === 'prompt'
            ? 'transferPrompt'
            : filter.editing
              ? 'transfersFilterLine'
              : 'transfers';
  const noSubAccount = namesNoSubAccount(query);
  const noMatch = inHand && filter.noMatch;
  // What the page's bindings depend on: the footer, the help and the keys below read the same.
  const pageContext: BindingContext = {
    retryable: canRetry,
    noSubAccount,
    noMatch,
    empty: loaded && rows.length === 0,
    failed: failed && !reloadFailed,
    firstPageFailed: failed && page === 1,
    onFirstPage: page === 1,
    onLastPage: lastPage,
    filtered: filter.kept,
  };
  useScreenMode(screenMode, mode.name === 'detail' || mode.name === 'export' || mode.name === 'chart' ? childContext : pageContext);

  // Room: the filter line and the page line, the totals (or notice, or error), an open prompt, the table's header.
  // Never more lines than the room: Ink squeezes an overfull column, and squeezed lines print over each other.
  const promptErrorRoom = Math.max(1, height - 5);
  const promptLabel = mode.name === 'prompt' && mode.what === 'page' ? 'Go to page: ' : `Page size (1–${MAX_PAGE_SIZE}): `;
  const promptLines = mode.name === 'prompt' ? 1 + (mode.error ? errorLines(mode.error, width, undefined, promptErrorRoom).length : 0) : 0;
  const filterLines = filter.shown && mode.name !== 'prompt' ? 1 : 0;
  const status = Math.max(1, Math.min(statusRoom(height), height - 2 - promptLines - filterLines - 2));
  const rest = height - 2 - promptLines - filterLines - status;
  const showTable = rest >= 2;
  const tableRoom = Math.max(1, rest - 1);
  const list = useListCursor(shown.length, tableRoom);
  const selected = shown[list.cursor];
  // After `r`: once the new answer is in, the cursor goes to the transfer it was on (by id), if the page still has it.
  const reloadFollow = useRef<{ tranId: string; data: unknown } | undefined>(undefined);
  if (reloadFollow.current !== undefined && loaded && transfers.data !== reloadFollow.current.data) {
    const { tranId } = reloadFollow.current;
    reloadFollow.current = undefined;
    const at = shown.findIndex((t) => t.tranId === tranId);
    if (at >= 0 && at !== list.cursor) list.setCursor(at, shown.length);
  }
  // The totals, like the export of this page, are of the rows shown: a search's subset, when one is kept.
  const totals = useMemo(() => totalsOf(shown), [shown]);
  const needle = filter.text.trim();
  const columns = useMemo(() => sortedColumns(transferColumns(width), sort), [width, sort]);
  // Made once per filter, page and width, not on every key.
  const filterLine = useMemo(() => {
    const described = describeFilter(query);
    const sides = displayWidth(describeFilter({ ...query, startTime: undefined, endTime: undefined, clientTranId: undefined }));
    // At 40 columns `Filter: FUTURES → SPOT · from gridbot2901` would cut the name: the label goes, not the name.
    return fit(sides + 'Filter: '.length > width && sides <= width ? described : `Filter: ${described}`, width).trimEnd();
  }, [query, width]);
  const totalsLine = useMemo(
    () => (shown.length > 0 ? totalsText(totals, shown.length, needle === '' ? undefined : { text: needle, of: rows.length }) : ' '),
    [totals, shown.length, needle, rows.length],
  );
  const statusText = notice ?? totalsLine;
  const statusLines = useMemo(() => capLines(wrapWords(statusText, width), status, width), [statusText, status, width]);

  // What "this page" exports: the rows as shown, and how they differ from the page as served.
  const shownAs = useMemo(() => pageAsShown(shown.length, rows.length, needle, sort), [shown.length, rows.length, needle, sort]);

  const goToPage = (next: number) => {
    // A page the client would not send (a ban, a long wait the service asked for) is not asked for: the page in
    // hand stays, and the notice says why and for how long.
    const held = api.heldBack('listUniversalTransfers');
    if (held) return setNotice(`page ${next} not asked for: ${held.toLine()}`);
    setNotice(undefined);
    setPage(next);
    list.setCursor(0);
  };

  const previousPage = () => {
    const page = pageRef.current;
    // From an empty page past the end, back to the last page seen with rows (not one empty page at a time).
    if (loaded && rows.length === 0 && page > 1) goToPage(known !== undefined && known < page ? known : page - 1);
    else if (page > 1) goToPage(page - 1);
    else setNotice('this is the first page');
  };

  /** Opens the keys of the transfer's sub-account; says why not when both sides are the master. */
  const openKeys = (transfer: Transfer): string | undefined => {
    const found = subAccountOfTransfer(query, transfer);
    if (!found.ok) return found.reason;
    navigate({ type: 'push', route: { screen: 'keys', subAccount: found.subAccount } });
    return undefined;
  };

  /** What a page does whether it loaded or failed: ask again, change the filter, go to another page or size. */
  const pagingCommand = (command: CommandOf<typeof TRANSFER_MODES.transfers> | undefined): boolean => {
    switch (command) {
      case 'refresh':
        // The same page again: the cursor stays on the selected transfer wherever the new answer puts it.
        reloadFollow.current = selected === undefined ? undefined : { tranId: selected.tranId, data: transfers.data };
        setReloadToken((t) => t + 1);
        return true;
      case 'filter':
        changeFilter();
        return true;
      case 'previousPage':
        previousPage();
        return true;
      case 'jump':
        setMode({ name: 'prompt', what: 'page', text: '' });
        return true;
      case 'pageSize':
        // Empty, the size now its placeholder: what is typed replaces it, never adds to it.
        setMode({ name: 'prompt', what: 'size', text: '' });
        return true;
      default:
        return false;
    }
  };

  useScreenKeystrokes(
    (input, keystroke) => {
      const mode = modeRef.current;
      const page = pageRef.current;
      // The detail and the export panel take their own keys (they registered after this screen).
      if (mode.name === 'export' || mode.name === 'detail' || mode.name === 'chart') return false;
      if (filter.editing && mode.name === 'list') return filter.listKey(TRANSFER_MODES.transfersFilterLine, input, keystroke, list, selected) ?? false;
      if (mode.name === 'prompt') {
        const command = commandFor(TRANSFER_MODES.transferPrompt, input, keystroke);
        if (command === 'cancel') setMode({ name: 'list' });
        else if (command === 'go' && mode.what === 'size' && mode.text.trim() === '') setMode({ name: 'list' });
        else if (command === 'go') {
          const checked = mode.what === 'page' ? checkPage(mode.text) : checkLimit(mode.text);
          if (!checked.ok) setMode({ ...mode, error: fieldMessage(checked.error) });
          else {
            if (mode.what === 'page') goToPage(checked.value);
            else {
              setLimit(checked.value);
              if (fromFilter) keepPageSize(drafts.transferFilter, checked.value);
              goToPage(1);
            }
            setMode({ name: 'list' });
          }
        }
        return command !== undefined;
      }
      // esc while another page loads: that load is given up, and the page in hand stays (its rows, not asked
      // again), as k9s or lazygit would; esc again goes back.
      const shownPage = readyFor.current;
      if (
        keystroke.escape &&
        mode.name === 'list' &&
        transfers.status === 'loading' &&
        shownPage !== undefined &&
        shownPage !== `${page}:${limitRef.current}`
      ) {
        const [backTo = 1, size = limitRef.current] = shownPage.split(':').map(Number);
        setNotice(`page ${page} not loaded: back on page ${backTo}`);
        setLimit(size);
        if (fromFilter) keepPageSize(drafts.transferFilter, size);
        setPage(backTo);
        // A reload of it that failed since is given up too: its rows are the ones in hand.
        setReloadToken(readyReload.current);
        return true;
      }
      // A kept filter: esc clears it before it goes back.
      const keptFilter = filter.listKey(TRANSFER_MODES.transfersFilterLine, input, keystroke, list, selected);
      if (keptFilter !== undefined) return keptFilter;
      const command = commandFor(TRANSFER_MODES.transfers, input, keystroke, pageContext);
      const move = listMoveFor(command);
      if (move) {
        list.move(move);
        return true;
      }
      switch (command) {
        case 'search':
          if (inHand && rows.length > 0) filter.open();
          return true;
        case 'sort':
        case 'reverse': {
          const next = command === 'sort' ? nextSortColumn(sort) : { ...sort, reversed: !sort.reversed };
          setSort(next);
          // The cursor stays on the selected transfer in the new order.
          cursorOnRow(list, selected, filter.apply(sortTransfers(pageRows, next)));
          return true;
        }
        case 'detail':
          if (selected) {
            setChildMode(undefined);
            setMode({ name: 'detail' });
          }
          return true;
        case 'nextPage':
          if (lastPage)
            setNotice(
              rows.length > 0
                ? `no more pages: page ${page} is the last`
                : page === 1
                  ? 'no more pages: no transfer matches this filter'
                  : `no more pages: page ${page} is past the end`,
            );
          else goToPage(page + 1);
          return true;
        case 'export':
          // Nothing shown: the line in place of the table says why.
          if (inHand && !noMatch) {
            setChildMode(undefined);
            setMode({ name: 'export' });
          }
          return true;
        case 'keys':
          if (selected) setNotice(openKeys(selected));
          return true;
        case 'chart':
          setChildMode(undefined);
          setMode({ name: 'chart' });
          return true;
        default:
          return pagingCommand(command);
      }
    },
    {
      active,
      textEntry: mode.name === 'prompt' ? 'text' : false,
      // The list's keys act on the page asked for: they wait while it loads (a key of the same chunk already asked for another).
      busy: () =>
        modeRef.current.name === 'list' &&
        (transfers.status === 'loading' || pageRef.current !== page || limitRef.current !== limit || reloadRef.current !== reloadToken),
    },
  );

  const perPage = `${grouped(limit)} per page`;
  const noMore = lastPage ? 'no more pages' : undefined;
  const sortedBy = sortText(sort) !== '' ? `sorted by ${sortText(sort)}` : undefined;
  const fullLine = [
    `Page ${page}`,
    perPage,
    ...(inHand ? [filtering ? `${grouped(shown.length)} of ${grouped(rows.length)} rows` : `${grouped(rows.length)} rows`] : []),
    ...(noMore ? [noMore] : []),
    ...(inHand && shown.length > 0 ? [`row ${list.cursor + 1}`] : []),
    ...(sortedBy ? [sortedBy] : []),
  ];
  // A narrow window keeps the page, the rows and the cursor's row: the notes the table shows anyway go first (the
  // sort's arrow is in its header, a short page is its last), then the page size.
  let pageLine = fullLine;
  for (const part of [sortedBy, noMore, perPage]) {
    if (displayWidth(pageLine.join(' · ')) <= width) break;
    pageLine = pageLine.filter((p) => p !== part);
  }
  const header = (
    <>
      <Text color={theme.accent}>{filterLine}</Text>
      <Text>
        <Text bold>{fit(pageLine[0]!, width).trimEnd()}</Text>
        <Text color={theme.muted}>{fit(` · ${pageLine.slice(1).join(' · ')}`, Math.max(0, width - displayWidth(pageLine[0]!))).trimEnd()}</Text>
      </Text>
    </>
  );
  const closeChild = () => {
    setChildMode(undefined);
    setMode({ name: 'list' });
  };

  if (mode.name === 'detail' && selected) {
    // The detail takes the whole body when the window is small; the filter stays above it when there is room.
    const withHeader = height >= 16;
    return (
      <Box flexDirection="column">
        {withHeader ? header : null}
        <TransferDetail
          key={selected.tranId}
          transfer={selected}
          position={{ index: list.cursor, count: shown.length }}
          onStep={(by) => list.move(by === 1 ? 'down' : 'up')}
          width={width}
          height={withHeader ? height - 2 : height}
          onClose={closeChild}
          onModeChange={setChildMode}
          onKeys={() => openKeys(selected)}
          noSubAccount={noSubAccount}
        />
      </Box>
    );
  }

  if (mode.name === 'export') {
    const withHeader = height >= 12;
    return (
      <Box flexDirection="column">
        {withHeader ? header : null}
        <ExportPanel
          query={{ ...query, limit }}
          page={shown}
          shownAs={shownAs}
          pageNumber={page}
          width={width}
          height={withHeader ? height - 2 : height}
          onClose={closeChild}
          onModeChange={setChildMode}
        />
      </Box>
    );
  }

  if (mode.name === 'chart') {
    // Every page of the filter, and of the `/` text when one is kept (TransferChart.tsx).
    const needle = filter.text.trim();
    const withHeader = height >= 16;
    return (
      <Box flexDirection="column">
        {withHeader ? header : null}
        <TransferChart
          query={query}
          keep={needle === '' ? undefined : (t) => matchesFilter(transferSearchText(t), needle)}
          keepText={needle === '' ? undefined : needle}
          width={width}
          height={withHeader ? height - 2 : height}
          onClose={closeChild}
          onModeChange={setChildMode}
        />
      </Box>
    );
  }

  let statusArea: React.ReactNode;
  if (transfers.status === 'loading') {
    statusArea = (
      <Box height={status}>
        {transfers.slow ? <Spinner label={fit(`Loading page ${page}…${tryingAgain}`, Math.max(1, width - 2)).trimEnd()} /> : <Text> </Text>}
      </Box>
    );
  } else if (failed) {
    // An error is shown whole (wrapped) when there are no rows to make room for; over kept rows, in the status's room.
    statusArea = (
      <ErrorLine
        message={failure}
        retryKey={canRetry ? 'r' : undefined}
        width={width}
        maxLines={reloadFailed ? status : Math.max(1, height - 2 - promptLines)}
      />
    );
  } else {
    statusArea = (
      <Box height={status} flexDirection="column">
        {statusLines.map((line, i) => (
          <Text key={i} color={notice ? theme.warn : theme.muted}>
            {line}
          </Text>
        ))}
      </Box>
    );
  }

  const beyondKnown = page > 1 && known !== undefined && known < page;
  const emptyLines =
    page === 1
      ? ['No transfers match this filter.', 'f changes the filter.']
      : [
          `Page ${page} is empty: there are fewer transfers than that.`,
          beyondKnown ? `p goes back to page ${known}, the last seen with rows.` : 'p goes back a page.',
        ];

  return (
    <Box flexDirection="column">
      {header}
      {statusArea}
      {mode.name === 'prompt' ? (
        <Box flexDirection="column">
          <Box height={1} overflow="hidden">
            <Text>{promptLabel}</Text>
            <TextField
              value={mode.text}
              onChange={(text) => setMode((m) => (m.name === 'prompt' ? { ...m, text, error: undefined } : m))}
              focus={active}
              placeholder={mode.what === 'size' ? `now ${limit}; enter keeps it` : ''}
              width={Math.max(4, width - displayWidth(promptLabel))}
            />
          </Box>
          {mode.error ? <ErrorLine message={mode.error} width={width} maxLines={promptErrorRoom} /> : null}
        </Box>
      ) : null}
      {filterLines > 0 ? (
        <FilterLine filter={filter} list={list} focus={active && mode.name === 'list'} width={width} matched={shown.length} total={rows.length} />
      ) : null}
      {inHand && rows.length > 0 && shown.length === 0 ? (
        <Text color={theme.muted}>{fit('No row of this page matches; esc clears the filter.', width).trimEnd()}</Text>
      ) : null}
      {loaded && rows.length === 0 ? (
        <Box flexDirection="column">
          {emptyLines
            .flatMap((line) => wrapWords(line, width))
            .slice(0, Math.max(0, rest))
            .map((line, i) => (
              <Text key={i} color={i === 0 ? undefined : theme.muted}>
                {line}
              </Text>
            ))}
        </Box>
      ) : null}
      {(loaded || reloading || reloadFailed) && shown.length > 0 && showTable ? (
        <WindowedTable columns={columns} rows={shown} from={list.from} to={list.to} cursor={list.cursor} width={width} highlight={filter.text} />
      ) : null}
    </Box>
  );
}

export const TRANSFERS_SCREEN = defineScreen({
  route: 'transfers',
  mode: 'transfers',
  context: (route) => ({ noSubAccount: namesNoSubAccount(route.query) }),
  render: (route) => <TransferBrowser query={route.query} fromFilter={route.fromFilter} />,
});
