// The chart of every transfer of the filter: per asset, one bar per local day, newest first: the
// exact decimal sum, then the bar, its length scaled to the window (block characters, to an eighth of a cell);
// the asset's total and its counts by status above. Pages come in the background (useTransferChart) and the
// bars grow as they come; esc stops, keeping a partial chart that says it is partial. Asset and status names
// are service text and go through the sanitiser; the bars are visible without colour.
import React, { useLayoutEffect, useState } from 'react';
import { Box, Text } from 'ink';
import Big from 'big.js';
import type { Transfer, TransferQuery } from '../../api/types';
import type { TransferSummary } from '../../export/summary';
import { displayWidth, fit, plural, sanitize, wrapText } from '../../terminal/text';
import { ProgressBar } from '../components/ProgressBar';
import { errorLine } from '../hooks/useResource';
import { useScreenKeystrokes } from '../keyboard/keystrokes';
import { type ChartPhase, useTransferChart } from '../hooks/useTransferChart';
import { commandFor, defineModes } from '../keyboard/bindings';
import type { ScreenId } from '../keyboard/modes';
import { useScreenFrame } from '../screenFrame';
import { useServices } from '../services';
import { barText } from '../chartBars';

// The chart's assets and days: the same keys while its pages come and after.
const chartMoves = [
  { command: 'nextAsset', keystrokes: ['right', 'tab'], hint: '←→ asset', description: 'Next asset' },
  { command: 'previousAsset', keystrokes: ['left', 'shift+tab'], description: 'Previous asset' },
  { command: 'up', keystrokes: ['up', 'k'], description: 'Scroll to newer days' },
  { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ days', description: 'Scroll to older days (when they do not fit)' },
  { command: 'pageUp', keystrokes: ['pageup'], description: 'Scroll up a screenful' },
  { command: 'pageDown', keystrokes: ['pagedown'], description: 'Scroll down a screenful' },
  { command: 'first', keystrokes: ['home', 'g'], description: 'The newest days' },
  { command: 'last', keystrokes: ['end', 'G'], description: 'The oldest days' },
] as const;

/** The key bindings of each mode of this screen, beside the handlers below; the footer and `?` help are drawn from them. */
export const CHART_MODES = defineModes({
  // The chart, every page read (or stopped: a partial chart).
  transfersChart: {
    title: 'Transfers: chart',
    bindings: [
      ...chartMoves,
      { command: 'refresh', keystrokes: ['r'], hint: 'r refetch', description: 'Fetch every page again' },
      { command: 'close', keystrokes: ['esc', 'v'], hint: 'esc close', description: 'Back to the transfers page' },
    ],
  },
  // The chart while its pages come: the bars grow; esc stops and keeps a partial chart.
  transfersChartLoading: {
    title: 'Transfers: chart (fetching pages)',
    bindings: [
      ...chartMoves,
      { command: 'stop', keystrokes: ['esc'], hint: 'esc stop', description: 'Stop fetching; the chart so far stays, marked partial' },
      { command: 'close', keystrokes: ['v'], hint: 'v close', description: 'Stop fetching and go back to the transfers page' },
    ],
  },
});

interface ChartRow {
  day: string;
  /** The asset's SUCCESS volume that day, exact ("0" on a day without it). */
  sum: string;
  count: number;
}

/** One asset's days, newest first: every day of the summary, the days without this asset at 0. */
function assetDays(summary: TransferSummary, asset: string): ChartRow[] {
  const rows = summary.days.map((d) => {
    const a = d.assets.find((x) => x.asset === asset);
    return { day: d.day, sum: a?.volume ?? '0', count: a?.count ?? 0 };
  });
  return rows.reverse();
}

/** The chart's mode: while pages come, and once they stopped (all, or a partial chart). */
function chartMode(phase: ChartPhase): keyof typeof CHART_MODES {
  return phase === 'loading' ? 'transfersChartLoading' : 'transfersChart';
}

export function TransferChart({
  query,
  keep,
  keepText,
  width,
  height,
  onClose,
  onModeChange,
}: {
  query: TransferQuery;
  /** The `/` text kept on the transfers page: only the rows it matches are summed. */
  keep?: (t: Transfer) => boolean;
  keepText?: string;
  width: number;
  height: number;
  onClose: () => void;
  onModeChange: (mode: ScreenId) => void;
}) {
  const { theme } = useServices();
  const { active } = useScreenFrame();
  const chart = useTransferChart(query, keep);
  const { summary, phase } = chart;
  const [assetAt, setAssetAt] = useState(0);
  const [top, setTop] = useState(0);
  const mode = chartMode(phase);
  // In the commit that changes the phase, so the footer never shows the keys of the phase before.
  useLayoutEffect(() => onModeChange(mode), [mode, onModeChange]);

  const assets = summary.assets;
  const shownAt = Math.min(assetAt, Math.max(0, assets.length - 1));
  const asset = assets[shownAt];
  const days = asset ? assetDays(summary, asset.asset) : [];
  // The title, the state line, and the asset's line (two when the window is tall enough) come first.
  const assetLines = asset
    ? wrapText(
        `${sanitize(asset.asset, 40)} ${asset.volume} · ${plural(asset.count, 'transfer')}: ${asset.statuses.map((s) => `${s.count} ${sanitize(s.status, 24)}`).join(', ')}`,
        width,
        height >= 14 ? 2 : 1,
      )
    : [];
  const room = Math.max(1, height - 2 - Math.max(1, assetLines.length));
  const maxTop = Math.max(0, days.length - room);
  const shownTop = Math.min(top, maxTop);

  useScreenKeystrokes(
    (input, keystroke) => {
      const command = commandFor(CHART_MODES[mode], input, keystroke);
      const scroll = (by: number) => setTop((t) => Math.max(0, Math.min(maxTop, Math.min(t, maxTop) + by)));
      const turn = (by: number) => {
        if (assets.length > 0) setAssetAt((a) => (Math.min(a, assets.length - 1) + by + assets.length) % assets.length);
      };
      switch (command) {
        case 'nextAsset':
          turn(1);
          break;
        case 'previousAsset':
          turn(-1);
          break;
        case 'up':
          scroll(-1);
          break;
        case 'down':
          scroll(1);
          break;
        case 'pageUp':
          scroll(-room);
          break;
        case 'pageDown':
          scroll(room);
          break;
        case 'first':
          scroll(-Infinity);
          break;
        case 'last':
          scroll(Infinity);
          break;
        case 'stop':
          chart.cancel();
          break;
        case 'refresh':
          chart.restart();
          break;
        case 'close':
          onClose();
          break;
        default:
          return false; // other keys reach the global ones (? help)
      }
      return true;
    },
    // Its moves work while pages come; a key only the finished chart has (r) waits for it.
    {
      active,
      busy: (input, keystroke) =>
        mode === 'transfersChartLoading' &&
        commandFor(CHART_MODES.transfersChartLoading, input, keystroke) === undefined &&
        commandFor(CHART_MODES.transfersChart, input, keystroke) !== undefined,
    },
  );

  const partial = phase === 'cancelled' || phase === 'failed';
  const which = asset ? `${sanitize(asset.asset, 24)}${assets.length > 1 ? ` ${shownAt + 1}/${assets.length}` : ''}` : 'no asset';
  const title = `Chart${partial ? ' (PARTIAL)' : ''}: ${which}`;
  const about = ` · ${summary.volumeStatus} volume per day (${summary.timeZone})`;
  const matching = keepText ? ` · ${plural(summary.rows, 'match', 'matches')} for “${sanitize(keepText, 24)}”` : '';
  const position = days.length > room ? ` · days ${shownTop + 1}–${Math.min(days.length, shownTop + room)} of ${days.length}` : '';
  let state: React.ReactNode;
  if (phase === 'loading') {
    const counts = ` ${plural(chart.pages, 'page')} · ${plural(chart.rows, 'row')} · esc stops`;
    const barWidth = Math.max(4, Math.min(16, width - displayWidth(counts) - 5));
    state = (
      <Box height={1} overflow="hidden">
        <ProgressBar fraction={chart.fraction} width={barWidth} />
        <Text>{fit(counts, Math.max(1, width - barWidth - 5)).trimEnd()}</Text>
      </Box>
    );
  } else if (phase === 'done') {
    // Below 60 columns the page count goes, so the position in the days still fits.
    const read = width >= 60 ? `All ${plural(chart.pages, 'page')} · ${plural(chart.rows, 'transfer')}` : plural(chart.rows, 'transfer');
    state = <Text color={theme.muted}>{fit(`${read}${matching}${position}`, width).trimEnd()}</Text>;
  } else {
    const why =
      phase === 'cancelled'
        ? `stopped after ${plural(chart.pages, 'page')} (${plural(chart.rows, 'row')})`
        : `${errorLine(chart.error)} (after ${plural(chart.pages, 'page')})`;
    state = <Text color={phase === 'failed' ? theme.error : theme.warn}>{fit(`PARTIAL: ${why} · r fetches all again${position}`, width).trimEnd()}</Text>;
  }

  // Stable while scrolling: the sums' column fits the widest of the asset's days (cut with "…" past the room).
  const labelWidth = width >= 60 ? 10 : 5;
  const widest = Math.max(1, ...days.map((d) => d.sum.length));
  const sumWidth = Math.min(widest, Math.max(1, width - labelWidth - 2 - 4));
  const barCells = Math.max(1, width - labelWidth - 2 - sumWidth);
  const max = days.reduce((m, d) => (new Big(d.sum).abs().gt(m) ? new Big(d.sum).abs() : m), new Big(0));

  let body: React.ReactNode;
  if (!asset) {
    // Nothing came: said as what happened, not as a filter that matches nothing.
    const text =
      phase === 'loading'
        ? 'Fetching the first page…'
        : phase === 'failed' && chart.pages === 0
          ? 'Nothing to chart: the first page failed (above).'
          : phase === 'cancelled' && chart.pages === 0
            ? 'Nothing to chart: stopped before the first page came.'
            : `No transfers match this filter${keepText ? ` and the “${sanitize(keepText, 24)}” text` : ''}.`;
    body = <Text color={theme.muted}>{fit(text, width).trimEnd()}</Text>;
  } else {
    body = days.slice(shownTop, shownTop + room).map((d) => (
      <Text key={d.day}>
        <Text color={theme.muted}>{labelWidth === 10 ? d.day : d.day.slice(5)} </Text>
        <Text>{fit(d.sum, sumWidth, 'right')} </Text>
        <Text color={theme.accent}>{fit(barText(new Big(d.sum), max, barCells), barCells).trimEnd()}</Text>
      </Text>
    ));
  }

  return (
    <Box flexDirection="column">
      <Text>
        <Text bold color={partial ? theme.warn : undefined}>
          {fit(title, width).trimEnd()}
        </Text>
        <Text color={theme.muted}>{fit(about, Math.max(0, width - displayWidth(title))).trimEnd()}</Text>
      </Text>
      {state}
      {assetLines.map((line, i) => (
        <Text key={`asset-${i}`}>{line}</Text>
      ))}
      {body}
    </Box>
  );
}
