// Discover sub-accounts: how many days back, then the scan with its progress (esc cancels and keeps
// what was found), then the sub-accounts found with their last transfer; enter opens one's keys. What it finds
// is remembered for this target (services.discovered), so the picker offers it next time. Names come from the
// service: sanitised, each in one line of the width.
import React, { useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import type { DiscoveredSubAccount } from '../../config/discoveredSubAccounts';
import { DEFAULT_SCAN_DAYS, ScanFailed, checkScanDays, discoverSubAccounts, scanQueries, type ScanProgress } from '../../export/subAccountScan';
import { errorLines } from '../components/ErrorLine';
import { ProgressBar } from '../components/ProgressBar';
import { Matched } from '../components/WindowedTable';
import { TextField } from '../components/TextField';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { useListCursor } from '../hooks/useListCursor';
import { useSyncedState } from '../hooks/useSyncedState';
import { errorLine } from '../hooks/useResource';
import { commandFor, defineModes, noMatchReason, type BindingContext } from '../keyboard/bindings';
import { FilterLine, useRowFilter, filterLineMode } from '../hooks/useRowFilter';
import { useNavigate } from '../navigation';
import { defineScreen, useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { formatLocalTime as localTime } from '../../api/timeInput';
import { fit, grouped, plural, sanitize, wrapText } from '../../terminal/text';

const hasFound = ({ empty }: BindingContext) => empty !== true;

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const DISCOVER_MODES = defineModes({
  // Discover: how many days back (typed), then the scan, then what it found.
  discover: {
    title: 'Discover sub-accounts',
    bindings: [
      { command: 'start', keystrokes: ['enter'], hint: 'enter scan', description: 'Scan the transfer history of that many days' },
      { command: 'back', keystrokes: ['esc'], hint: 'esc back', description: 'Back to the sub-accounts, nothing sent' },
    ],
  },
  discoverRunning: {
    title: 'Discovering sub-accounts',
    bindings: [{ command: 'cancel', keystrokes: ['esc'], hint: 'esc cancel', description: 'Stop the scan; what was found so far is kept' }],
  },
  discoverDone: {
    title: 'Discovered sub-accounts',
    bindings: [
      { command: 'up', keystrokes: ['up', 'k'], description: 'Previous sub-account' },
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ move', description: 'Next sub-account' },
      { command: 'first', keystrokes: ['home', 'g'], description: 'First sub-account' },
      { command: 'last', keystrokes: ['end', 'G'], description: 'Last sub-account' },
      {
        command: 'open',
        keystrokes: ['enter'],
        hint: 'enter keys',
        description: 'Open the API keys of the highlighted sub-account',
        when: hasFound,
        disabledReason: noMatchReason('No sub-account matches the filter: nothing to open (esc clears it)'),
      },
      { command: 'search', keystrokes: ['/'], hint: '/ filter', description: 'Filter the sub-accounts as you type (esc clears the filter)', when: hasFound },
      { command: 'again', keystrokes: ['r'], hint: 'r scan again', description: 'Scan again (asks the days first)' },
      {
        command: 'back',
        keystrokes: ['esc'],
        hint: 'esc clear filter',
        description: 'Clear the kept filter (esc again goes back)',
        when: (c) => c.filtered === true,
      },
      { command: 'back', keystrokes: ['esc'], hint: 'esc back', description: 'Back to the sub-accounts', when: (c) => c.filtered !== true },
      { command: 'quit', keystrokes: ['q'], description: 'Quit' },
    ],
  },
  // The filter line is open: typing filters what was found.
  discoverFilter: filterLineMode('Discovered sub-accounts: filter', 'sub-account'),
});

type Phase =
  | { name: 'ask'; problem?: string }
  | { name: 'running'; days: number; progress: ScanProgress }
  | { name: 'cancelling'; days: number }
  | { name: 'done'; days: number; found: DiscoveredSubAccount[]; outcome: 'whole' | 'cancelled' | Error; progress: ScanProgress; refused?: string[] };

const NOTHING_FOUND: DiscoveredSubAccount[] = [];

const MODE: Record<Phase['name'], keyof typeof DISCOVER_MODES> = {
  ask: 'discover',
  running: 'discoverRunning',
  cancelling: 'discoverRunning',
  done: 'discoverDone',
};

export function DiscoverScreen() {
  const { api, recent, suggestions, discovered, theme, now } = useServices();
  const { active, width, height } = useScreenFrame();
  const navigate = useNavigate();
  const [days, setDays] = useState(String(DEFAULT_SCAN_DAYS));
  const [phase, setPhase, phaseRef] = useSyncedState<Phase>({ name: 'ask' });
  const controller = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => controller.current?.abort(), []);

  // Every name known here is asked for: the service lists transfers only of the accounts a query names.
  const names = [...new Set([...recent.list(), ...suggestions, ...discovered.list().map((d) => d.name)])];
  const found = phase.name === 'done' ? phase.found : NOTHING_FOUND;
  // `/` filters what was found by name and last transfer, as shown.
  const filter = useRowFilter(found, (entry) => `${sanitize(entry.name)} ${localTime(entry.lastTransferTime)}`);
  const rows = filter.rows;
  const noMatch = filter.noMatch;
  useScreenMode(phase.name === 'done' && filter.editing ? 'discoverFilter' : MODE[phase.name], { empty: found.length === 0, noMatch, filtered: filter.kept });
  // Title, summary, a blank line, the filter line when shown: the list takes the rest. On a short screen each part
  // of the summary takes one line, so that a few rows still show.
  const around = 2 + (filter.shown ? 1 : 0);
  const whole = phase.name === 'done' ? summaryOf(phase, width) : { lines: [] };
  const summary = phase.name === 'done' && height - around - whole.lines.length < Math.min(found.length, 3) ? summaryOf(phase, width, 1) : whole;
  const listRoom = Math.max(1, height - around - summary.lines.length);
  const list = useListCursor(rows.length, listRoom);

  const start = () => {
    const checked = checkScanDays(days);
    if (!checked.ok) return setPhase({ name: 'ask', problem: checked.message });
    const abort = new AbortController();
    controller.current = abort;
    const scanDays = checked.value;
    const first = scanQueries(names, scanDays, 0).length;
    setPhase({ name: 'running', days: scanDays, progress: { done: 0, queries: first, pages: 0, transfers: 0, found: 0, rateLimited: 0, waitingMs: 0 } });
    discoverSubAccounts(api, discovered, {
      days: scanDays,
      now: now(),
      names,
      signal: abort.signal,
      onProgress: (progress) => {
        if (!abort.signal.aborted) setPhase({ name: 'running', days: scanDays, progress });
      },
    }).then(
      (result) =>
        setPhase({
          name: 'done',
          days: scanDays,
          found: result.found,
          outcome: result.cancelled ? 'cancelled' : 'whole',
          progress: result.progress,
          refused: result.refused,
        }),
      (error: unknown) => {
        const partial = error instanceof ScanFailed ? error.partial : undefined;
        const cause = error instanceof ScanFailed ? error.cause : error instanceof Error ? error : new Error(String(error));
        setPhase({
          name: 'done',
          days: scanDays,
          found: partial?.found ?? [],
          outcome: cause,
          progress: partial?.progress ?? { done: 0, queries: first, pages: 0, transfers: 0, found: 0, rateLimited: 0, waitingMs: 0 },
          refused: partial?.refused ?? [],
        });
      },
    );
  };

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(DISCOVER_MODES[MODE[phase.name]], input, keystroke);
      switch (phase.name) {
        case 'ask':
          if (command === 'start') {
            start();
            return true;
          }
          return false;
        case 'running':
          if (command === 'cancel') {
            controller.current?.abort();
            setPhase({ name: 'cancelling', days: phase.days });
          }
          // Other keys reach the global ones (? help, ctrl+c).
          return command !== undefined;
        case 'cancelling':
          return command !== undefined;
        case 'done': {
          const filtering = filter.listKey(DISCOVER_MODES.discoverFilter, input, keystroke, list, rows[list.cursor]);
          if (filtering !== undefined) return filtering;
          const done = commandFor(DISCOVER_MODES.discoverDone, input, keystroke, { empty: found.length === 0, noMatch });
          if (done === 'up' || done === 'down') list.move(done);
          else if (done === 'first' || done === 'last') list.move(done === 'first' ? 'home' : 'end');
          else if (done === 'search') {
            if (found.length > 0) filter.open();
          } else if (done === 'open') {
            const picked = rows[list.cursor];
            if (picked) navigate({ type: 'push', route: { screen: 'keys', subAccount: picked.name } });
          } else if (done === 'again') {
            filter.clear();
            setPhase({ name: 'ask' });
          } else return false;
          return true;
        }
      }
    },
    // What the scan finds is what the keys act on: they wait for it (esc still stops it at once).
    { active, textEntry: phase.name === 'ask' ? 'text' : false, busy: () => phaseRef.current.name === 'running' || phaseRef.current.name === 'cancelling' },
  );

  const lines: React.ReactNode[] = [];
  const add = (key: string, texts: string[], color?: string) =>
    texts.forEach((text, i) =>
      lines.push(
        <Text key={`${key}-${i}`} color={color}>
          {text}
        </Text>,
      ),
    );

  if (phase.name === 'ask') {
    const label = 'Days back: ';
    lines.push(
      <Box key="days" height={1} overflow="hidden">
        <Text>{label}</Text>
        <Box width={Math.max(4, width - label.length)} height={1} overflow="hidden" flexShrink={0}>
          <TextField value={days} focus={active} width={Math.max(4, width - label.length)} onChange={(value) => (setDays(value), setPhase({ name: 'ask' }))} />
        </Box>
      </Box>,
    );
    if (phase.problem) add('problem', wrapText(`✗ ${phase.problem}`, width, 2), theme.error);
    const queries = scanQueries(names, 1, 0).length;
    const about =
      `Reads the transfer history of the days typed above for the accounts it names: master to master, and both ways between the master and each of the ${plural(names.length, 'name')} known here, ` +
      `in each account-type pair (${grouped(queries)} queries or more, paced by the service's rate limit). What it finds is remembered for this service.`;
    add('about', wrapText(about, width, Math.max(1, height - 2 - lines.length)), theme.muted);
  } else if (phase.name === 'running' || phase.name === 'cancelling') {
    const progress = phase.name === 'running' ? phase.progress : undefined;
    add('what', [fit(`Scanning ${plural(phase.days, 'day')} of transfers…`, width).trimEnd()]);
    if (progress) {
      lines.push(
        <ProgressBar key="bar" fraction={progress.queries > 0 ? progress.done / progress.queries : undefined} width={Math.max(4, Math.min(40, width - 6))} />,
      );
      add(
        'count',
        wrapText(
          `query ${grouped(Math.min(progress.done + 1, progress.queries))} of ${grouped(progress.queries)} · ${plural(progress.pages, 'page')} · ${plural(progress.transfers, 'transfer')}`,
          width,
          2,
        ),
      );
      add('found', [fit(`${plural(progress.found, 'sub-account')} found so far`, width).trimEnd()], theme.ok);
      if (progress.waitingMs > 0) add('wait', [fit(`waiting for the rate limit (${(progress.waitingMs / 1000).toFixed(1)} s)…`, width).trimEnd()], theme.warn);
      add('esc', [fit('esc cancels; what was found is kept', width).trimEnd()], theme.muted);
    } else add('cancelling', [fit('Cancelling…', width).trimEnd()], theme.warn);
  } else {
    const color = summary.tone === 'ok' ? theme.ok : summary.tone === 'warn' ? theme.warn : theme.error;
    add('summary', summary.lines, color);
    if (found.length > 0) {
      lines.push(<Text key="blank"> </Text>);
      if (filter.shown) {
        lines.push(<FilterLine key="filter" filter={filter} list={list} focus={active} width={width} matched={rows.length} total={found.length} />);
      }
      if (noMatch) add('nomatch', [fit('No sub-account matches the filter; esc clears it.', width).trimEnd()], theme.muted);
      const timeWidth = width >= 60 ? 30 : 16;
      rows.slice(list.from, list.to).forEach((entry, i) => {
        const selected = list.from + i === list.cursor;
        const when = width >= 60 ? `last transfer ${localTime(entry.lastTransferTime)}` : localTime(entry.lastTransferTime);
        lines.push(
          <Text key={`row-${entry.name}`} inverse={selected}>
            <Matched
              line={`${selected ? '› ' : '  '}${fit(sanitize(entry.name), Math.max(1, width - 3 - timeWidth))}`}
              highlight={filter.text.trim()}
              selected={selected}
            />{' '}
            <Text color={selected ? undefined : theme.muted}>{fit(when, timeWidth).trimEnd()}</Text>
          </Text>,
        );
      });
    }
  }

  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{width >= 50 ? 'Discover sub-accounts in transfer history' : 'Discover sub-accounts'}</Text>
      {lines.slice(0, Math.max(1, height - 1))}
    </Box>
  );
}

/** What the scan came to and what it skipped, in at most five lines (`each`: at most that many lines a part), and its tone. */
function summaryOf(phase: Extract<Phase, { name: 'done' }>, width: number, each = 3): { lines: string[]; tone?: 'ok' | 'warn' | 'error' } {
  const { lines, tone } = outcomeOf(phase, width, each);
  // Names the service refused were skipped, whatever the end: said and named, so a ✗ of theirs in the status bar
  // reads as what it is, and "none found" is not taken for names that were never asked.
  const refused = phase.refused ?? [];
  if (refused.length === 0) return { lines, tone };
  const names = refused.map((n) => sanitize(n)).join(', ');
  const named =
    each === 1 ? `${plural(refused.length, 'name')} refused: ${names}` : `${plural(refused.length, 'name')} refused (unknown or frozen), skipped: ${names}`;
  return { lines: [...lines, ...wrapText(named, width, Math.min(2, each))], tone };
}

/** What the scan came to, before what it skipped. */
function outcomeOf(phase: Extract<Phase, { name: 'done' }>, width: number, each: number): { lines: string[]; tone?: 'ok' | 'warn' | 'error' } {
  const count = plural(phase.found.length, 'sub-account');
  if (phase.outcome === 'whole') {
    if (phase.found.length === 0) {
      return {
        lines: wrapText(
          `None found in ${plural(phase.days, 'day')}: the service lists transfers only of the accounts asked for. Open or browse a sub-account by name, then scan again.`,
          width,
          Math.min(3, each),
        ),
        tone: 'warn',
      };
    }
    return {
      lines: wrapText(
        `✓ ${count} in ${plural(phase.days, 'day')} of transfers (${plural(phase.progress.pages, 'page')}), remembered`,
        width,
        Math.min(2, each),
      ),
      tone: 'ok',
    };
  }
  if (phase.outcome === 'cancelled') return { lines: wrapText(`Cancelled: ${count} found before it stopped, kept`, width, Math.min(2, each)), tone: 'warn' };
  const error = errorLines(errorLine(phase.outcome), width, undefined, Math.min(2, each));
  const kept = `${count} found before it, kept`;
  const again = ' (r scans again)';
  return { lines: [...error, fit(kept.length + again.length <= width ? kept + again : kept, width).trimEnd()], tone: 'error' };
}

export const DISCOVER_SCREEN = defineScreen({ route: 'discover', mode: 'discover', render: () => <DiscoverScreen /> });
