// Export of this page or of every page, to CSV or JSON, with progress; Esc cancels a running export (and the
// panel then says "cancelled" once the partial file is gone). The panel fits the room it is given: the border
// goes when there is no room for it, long text wraps, and the choices are marked without colour too.
import React, { useEffect, useRef, useState } from 'react';
import { Box, Text, type Key } from 'ink';
import type { Transfer, TransferQuery } from '../../api/types';
import { type ExportFormat, type ExportProgress, type ExportResult, type ExportScope, PartialExport } from '../../export/types';
import { displayWidth, fit, plural, sanitize, wrapWords } from '../../terminal/text';
import { capLines, errorLines } from '../components/ErrorLine';
import { ProgressBar } from '../components/ProgressBar';
import { commandFor, defineModes, whenRetryable, type ScreenContext } from '../keyboard/bindings';
import type { ScreenId } from '../keyboard/modes';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { errorLine, retryable } from '../hooks/useResource';
import { useScreenFrame } from '../screenFrame';
import { useServices } from '../services';
import { useLeaveGuard } from '../leaveGuard';

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const EXPORT_MODES = defineModes({
  export: {
    title: 'Export',
    bindings: [
      { command: 'scope', keystrokes: ['a'], hint: 'a page/all', description: 'Export this page or all pages' },
      { command: 'format', keystrokes: ['f'], hint: 'f csv/json', description: 'Export as CSV or JSON' },
      { command: 'start', keystrokes: ['enter'], hint: 'enter start', description: 'Start the export' },
      { command: 'cancel', keystrokes: ['esc'], hint: 'esc close', description: 'Close the panel, nothing written' },
    ],
  },
  exportRunning: {
    title: 'Export in progress',
    bindings: [{ command: 'cancel', keystrokes: ['esc'], hint: 'esc cancel', description: 'Stop the export; the partial file is removed' }],
  },
  exportDone: {
    title: 'Export finished',
    bindings: [{ command: 'close', keystrokes: ['enter', 'esc'], hint: 'enter close', description: 'Close the export panel' }],
  },
  // r only where a retry can help.
  exportFailed: {
    title: 'Export failed',
    bindings: [
      {
        command: 'retry',
        keystrokes: ['r'],
        hint: 'r retry',
        description: 'Start the export again (the error is one a retry can fix)',
        when: whenRetryable,
      },
      { command: 'close', keystrokes: ['enter', 'esc'], hint: 'enter close', description: 'Close the export panel' },
    ],
  },
});

/** Whether a key pressed during the export has a meaning once it has ended (finished or failed). */
const actsOnceEnded = (input: string, keystroke: Key): boolean =>
  commandFor(EXPORT_MODES.exportDone, input, keystroke) !== undefined ||
  commandFor(EXPORT_MODES.exportFailed, input, keystroke, { retryable: true }) !== undefined;

type Phase =
  | { name: 'choose' }
  | { name: 'running'; progress: ExportProgress }
  | { name: 'cancelling' }
  | { name: 'cancelled' }
  | { name: 'done'; result: ExportResult }
  | { name: 'failed'; error: Error };

function modeOf(phase: Phase): keyof typeof EXPORT_MODES {
  switch (phase.name) {
    case 'choose':
      return 'export';
    case 'running':
    case 'cancelling':
      return 'exportRunning';
    case 'done':
    case 'cancelled':
      return 'exportDone';
    case 'failed':
      return 'exportFailed';
  }
}

/** What failed: an export that kept its pages so far failed as its service did. */
const failureOf = (error: Error): Error => (error instanceof PartialExport ? error.failure : error);

export function ExportPanel({
  query,
  page,
  pageNumber,
  shownAs,
  width,
  height,
  onClose,
  onModeChange,
}: {
  query: TransferQuery;
  /** The page's rows as shown (a search's subset, in the shown sort): what "this page" writes. */
  page: readonly Transfer[];
  pageNumber?: number;
  /** The scope's words for those rows, e.g. `this page as shown (9 of 50 rows, searched "USDT")`. */
  shownAs?: string;
  width: number;
  height: number;
  onClose: () => void;
  onModeChange?: (mode: ScreenId, context: ScreenContext) => void;
}) {
  const { exporter, theme, sayOnLeaving } = useServices();
  const { active } = useScreenFrame();
  const [scope, setScope] = useState<ExportScope>('page');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [phase, setPhase] = useState<Phase>({ name: 'choose' });
  const controller = useRef<AbortController | undefined>(undefined);
  const mode = modeOf(phase);

  // Left while it runs (the console closing): stopped, its partial file removed, and the terminal told so.
  const leavingLine = useRef<string | undefined>(undefined);
  // Files left incomplete by a service failing part way (each retry starts a file of its own): named on leaving.
  const keptFiles = useRef<string[]>([]);
  const say = useRef(sayOnLeaving);
  say.current = sayOnLeaving;
  useEffect(
    () => () => {
      controller.current?.abort();
      const line = leavingLine.current;
      if (line !== undefined) say.current?.(line);
      for (const kept of keptFiles.current) say.current?.(kept);
    },
    [],
  );
  // Another profile would close this console and stop the export: ctrl+p waits for its end or its cancel.
  const [switchHeld, setSwitchHeld] = useState(false);
  useLeaveGuard((intent) => {
    if (intent !== 'profiles' || (phase.name !== 'running' && phase.name !== 'cancelling')) return false;
    setSwitchHeld(true);
    return true;
  });
  const canRetry = phase.name === 'failed' && retryable(failureOf(phase.error));
  useEffect(() => onModeChange?.(mode, { retryable: canRetry }), [mode, canRetry, onModeChange]);

  const start = () => {
    const abort = new AbortController();
    controller.current = abort;
    setSwitchHeld(false);
    setPhase({ name: 'running', progress: { pages: 0, rows: 0 } });
    exporter
      .run(
        { query: { ...query, page: pageNumber ?? query.page }, scope, format, rows: page },
        (progress) => !abort.signal.aborted && setPhase({ name: 'running', progress }),
        abort.signal,
      )
      .then(
        // A file finished before the cancel took effect is complete: say so rather than "cancelled".
        (result) => setPhase({ name: 'done', result }),
        (error: unknown) => {
          if (error instanceof PartialExport)
            keptFiles.current.push(
              `export of transfers (all pages): ${plural(error.rows, 'row')} of ${plural(error.pages, 'page')} kept in ${error.kept} (incomplete)`,
            );
          setPhase(abort.signal.aborted ? { name: 'cancelled' } : { name: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
  };

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(EXPORT_MODES[mode], input, keystroke, { retryable: canRetry });
      if (phase.name === 'running') {
        if (command === 'cancel') {
          controller.current?.abort();
          setPhase({ name: 'cancelling' });
        }
      } else if (phase.name === 'cancelling') {
        // Waits for the exporter to remove its partial file.
      } else if (phase.name !== 'choose') {
        if (command === 'close') onClose();
        else if (command === 'retry') start();
      } else if (command === 'scope') setScope((s) => (s === 'page' ? 'all' : 'page'));
      else if (command === 'format') setFormat((f) => (f === 'csv' ? 'json' : 'csv'));
      else if (command === 'start') start();
      else if (command === 'cancel') onClose();
      // Other keys reach the global ones (? help); the browser ignores them while the panel is open.
      return command !== undefined;
    },
    // Keys that mean something once it ends (enter closes, r retries) wait for its end; esc stops it at once; any
    // other key acts now (ctrl+t, ?), and one with nothing to do does nothing, rather than waiting unseen.
    { active, busy: (input, keystroke) => (phase.name === 'running' || phase.name === 'cancelling') && actsOnceEnded(input, keystroke) },
  );

  // The border and its padding take 4 columns and 2 lines; below that room the panel goes without them.
  const boxed = width >= 44 && height >= 8;
  const inner = Math.max(10, boxed ? width - 4 : width);
  const room = Math.max(1, boxed ? height - 2 : height);
  const asShown = shownAs?.startsWith('this page as shown') === true;
  const what = `${scope === 'page' ? `page ${pageNumber ?? query.page ?? 1}${asShown ? ' as shown' : ''}` : 'all pages'} as ${format === 'csv' ? 'CSV' : 'JSON'}`;
  leavingLine.current =
    phase.name === 'running' ? `export of transfers (${what}): stopped as the console closed; the partial file was removed, nothing was written` : undefined;

  // One choice line: the label, then the options; the chosen one inverse and bold with a › marker (visible without colour).
  const choice = (label: string, options: Array<[string, string, boolean]>, keyHint: string) => {
    const long = `${label} ${options.map(([full]) => `  ${full}  `).join('')} ${keyHint}`;
    const short = displayWidth(long) > inner;
    const optionsWidth = options.reduce((sum, [full, brief]) => sum + displayWidth(short ? brief : full) + 4, 0);
    const showHint = !short || displayWidth(label) + 1 + optionsWidth + 2 + keyHint.length <= inner;
    return (
      <Box height={1} overflow="hidden">
        <Text>{label} </Text>
        {options.map(([full, brief, on]) => (
          <React.Fragment key={full}>
            <Text inverse={on} bold={on}>
              {on ? '› ' : '  '}
              {short ? brief : full}{' '}
            </Text>
            <Text> </Text>
          </React.Fragment>
        ))}
        {showHint ? <Text color={theme.muted}>{keyHint}</Text> : null}
      </Box>
    );
  };

  const body: React.ReactNode[] = [];
  let used = 1; // the title
  const text = (key: string, lines: string[], color?: string) => {
    const kept = capLines(lines, Math.max(1, room - used), inner);
    used += kept.length;
    kept.forEach((line, i) =>
      body.push(
        <Text key={`${key}-${i}`} color={color}>
          {line}
        </Text>,
      ),
    );
  };
  if (phase.name === 'choose') {
    const thisPage = shownAs ?? `this page (${plural(page.length, 'row')})`;
    // A page as shown is named whole on its own lines: the choice line has room for its short form only.
    const full = asShown ? `page as shown (${page.length})` : thisPage;
    body.push(
      <React.Fragment key="scope">
        {choice(
          'Scope ',
          [
            [full, `page (${page.length})`, scope === 'page'],
            ['all pages', 'all', scope === 'all'],
          ],
          'a',
        )}
      </React.Fragment>,
    );
    body.push(
      <React.Fragment key="format">
        {choice(
          'Format',
          [
            ['CSV', 'CSV', format === 'csv'],
            ['JSON', 'JSON', format === 'json'],
          ],
          'f',
        )}
      </React.Fragment>,
    );
    used += 2;
    if (asShown && room - used >= 1) {
      text(
        'shown',
        wrapWords(scope === 'page' ? `Writes ${thisPage}.` : 'All pages are written as served: the search and the sort are of this page only.', inner),
        theme.accent,
      );
    }
    if (room - used >= 1) text('where', wrapWords('The file goes in the current folder; enter starts.', inner), theme.muted);
  } else if (phase.name === 'running') {
    const { fraction, pages, rows } = phase.progress;
    text('what', [fit(`Exporting ${what}…`, inner).trimEnd()]);
    if (room - used >= 1) {
      body.push(
        <ProgressBar
          key="bar"
          fraction={fraction !== undefined && Number.isFinite(fraction) ? fraction : undefined}
          width={Math.max(4, Math.min(40, inner - 6))}
        />,
      );
      used += 1;
    }
    text('count', wrapWords(`${plural(pages, 'page')} · ${plural(rows, 'row')} · esc cancels`, inner));
    const { waitingMs } = phase.progress;
    if (waitingMs !== undefined && waitingMs >= 1000 && room - used >= 1)
      text('wait', [fit(`waiting for the rate limit (${(waitingMs / 1000).toFixed(1)} s)…`, inner).trimEnd()], theme.warn);
    if (switchHeld && room - used >= 1)
      text('held', wrapWords('ctrl+p waits for the export: another profile would stop it (esc cancels it).', inner), theme.warn);
  } else if (phase.name === 'cancelling') {
    text('cancelling', wrapWords('Cancelling: removing the partial file…', inner), theme.warn);
  } else if (phase.name === 'cancelled') {
    text('cancelled', wrapWords(`Export cancelled: the partial file was removed, nothing was written.`, inner), theme.warn);
  } else if (phase.name === 'done') {
    const { rows, pages, path } = phase.result;
    text('done', wrapWords(`✓ Wrote ${plural(rows, 'row')} (${plural(pages, 'page')}) to ${sanitize(path)}`, inner), theme.ok);
  } else {
    const failure = failureOf(phase.error);
    // Pages already written stay in the file: said first, so a short panel keeps it.
    if (phase.error instanceof PartialExport) {
      const { rows, pages, kept } = phase.error;
      text('kept', wrapWords(`The ${plural(rows, 'row')} of ${plural(pages, 'page')} so far are in ${sanitize(kept)} (incomplete)`, inner), theme.warn);
    }
    const lines = errorLines(errorLine(failure), inner, retryable(failure) ? 'r' : undefined, Math.max(1, room - used));
    text('failed', lines, theme.error);
  }

  return (
    <Box flexDirection="column" borderStyle={boxed ? 'round' : undefined} paddingX={boxed ? 1 : 0} width={boxed ? Math.min(width, inner + 4) : undefined}>
      <Text bold>{fit(phase.name === 'choose' ? 'Export transfers' : `Export transfers: ${what}`, inner).trimEnd()}</Text>
      {body}
    </Box>
  );
}
