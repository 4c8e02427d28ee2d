// Export of this page or of every page, to CSV or JSON, with progress; Esc cancels a running export.
import React, { useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import type { Transfer, TransferQuery } from '../../api/types';
import type { ExportFormat, ExportProgress, ExportResult, ExportScope } from '../../export/types';
import { ErrorLine } from '../components/ErrorLine';
import { ProgressBar } from '../components/ProgressBar';
import { commandFor } from '../keymap';
import { useScreenKeys } from '../hooks/useKeys';
import { errorLine } from '../hooks/useResource';
import { useScreenFrame } from '../screenFrame';
import { useServices } from '../services';

type Phase = { name: 'choose' } | { name: 'running'; progress: ExportProgress } | { name: 'done'; result: ExportResult } | { name: 'failed'; error: Error };

export function ExportPanel({ query, page, onClose }: { query: TransferQuery; page: readonly Transfer[]; onClose: () => void }) {
  const { exporter, theme } = useServices();
  const { active, width } = useScreenFrame();
  const [scope, setScope] = useState<ExportScope>('page');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [phase, setPhase] = useState<Phase>({ name: 'choose' });
  const [tick, setTick] = useState(0);
  const controller = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (phase.name !== 'running') return undefined;
    const timer = setInterval(() => setTick((t) => t + 1), 120);
    return () => clearInterval(timer);
  }, [phase.name]);

  const start = () => {
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ name: 'running', progress: { pages: 0, rows: 0 } });
    exporter
      .run({ query, scope, format, rows: page }, (progress) => !abort.signal.aborted && setPhase({ name: 'running', progress }), abort.signal)
      .then(
        (result) => !abort.signal.aborted && setPhase({ name: 'done', result }),
        (error: unknown) => !abort.signal.aborted && setPhase({ name: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
      );
  };

  useScreenKeys(
    (input, key) => {
      const command = commandFor('export', input, key);
      if (phase.name === 'running') {
        if (command === 'cancel') {
          controller.current?.abort();
          setPhase({ name: 'failed', error: new Error('export cancelled; the partial file was removed') });
        }
        return command !== undefined;
      }
      if (phase.name !== 'choose') {
        if (command === 'cancel' || command === 'start') onClose();
        return command !== undefined;
      }
      if (command === 'scope') setScope((s) => (s === 'page' ? 'all' : 'page'));
      else if (command === 'format') setFormat((f) => (f === 'csv' ? 'json' : 'csv'));
      else if (command === 'start') start();
      else if (command === 'cancel') onClose();
      // Other keys reach the global ones (? help); the browser ignores them while the panel is open.
      return command !== undefined;
    },
    { active },
  );

  const option = (label: string, on: boolean) => <Text inverse={on}> {label} </Text>;
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Export transfers</Text>
      <Box>
        <Text>Scope  </Text>
        {option(`this page (${page.length} rows)`, scope === 'page')}
        <Text> </Text>
        {option('all pages', scope === 'all')}
        <Text color={theme.muted}>  a</Text>
      </Box>
      <Box>
        <Text>Format </Text>
        {option('CSV', format === 'csv')}
        <Text> </Text>
        {option('JSON', format === 'json')}
        <Text color={theme.muted}>  f</Text>
      </Box>
      {phase.name === 'choose' ? <Text color={theme.muted}>enter starts · esc cancels · the file goes in the current folder</Text> : null}
      {phase.name === 'running' ? (
        <Box flexDirection="column">
          <ProgressBar fraction={phase.progress.fraction} width={Math.min(40, width - 20)} tick={tick} />
          <Text>
            {phase.progress.pages} {phase.progress.pages === 1 ? 'page' : 'pages'} · {phase.progress.rows} rows · esc cancels
          </Text>
        </Box>
      ) : null}
      {phase.name === 'done' ? (
        <Text color={theme.ok}>
          ✓ Wrote {phase.result.rows} rows ({phase.result.pages} {phase.result.pages === 1 ? 'page' : 'pages'}) to {phase.result.path}
        </Text>
      ) : null}
      {phase.name === 'failed' ? <ErrorLine message={errorLine(phase.error)} width={width - 4} /> : null}
    </Box>
  );
}
