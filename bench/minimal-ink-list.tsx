// The baseline of the keystroke and first-frame probes: about the least an Ink app can be and still show a 500-row
// list a screen at a time (rows like the console's transfers, as wide as the window), with a cursor j/k move.
// Bundled like the console (esbuild, production React), but without the console's compile cache: what a plain Ink
// app costs to draw the same kind of frame.
import React, { useState } from 'react';
import { Box, Text, render, useApp, useInput, useStdout } from 'ink';

const STATUSES = ['SUCCESS', 'SUCCESS', 'SUCCESS', 'PROCESSING', 'FAILED'];
const ASSETS = ['USDT', 'BTC', 'ETH', 'USDC', 'SOL'];
/** Rows like the console's transfers page (time, accounts, types, asset, amount, status, one line each) at `width`. */
function rowsFor(width: number): string[] {
  const route = Math.max(10, width - 2 - 5 - (16 + 11 + 8 + 20 + 11));
  return Array.from({ length: 500 }, (_, i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const amount = ((i * 7919) % 10_000_000) / 1000;
    return [
      `2026-11-${day} ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
      `master → sub${String(i % 40).padStart(2, '0')}`.padEnd(route),
      'SPOT→FUTURE',
      ASSETS[i % ASSETS.length]!.padEnd(8),
      String(amount).padStart(20),
      STATUSES[i % STATUSES.length]!.padEnd(11),
    ].join(' ');
  });
}

function List() {
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const { exit } = useApp();
  const width = stdout.columns;
  const visible = Math.max(1, stdout.rows - 4);
  const [rows] = useState(() => rowsFor(width));
  const [{ cursor, from }, setView] = useState({ cursor: 0, from: 0 });
  useInput((input, key) => {
    if (input === 'q' || key.escape) exit();
    const step = input === 'j' || key.downArrow ? 1 : input === 'k' || key.upArrow ? -1 : 0;
    if (step === 0) return;
    setView((view) => {
      const next = Math.max(0, Math.min(rows.length - 1, view.cursor + step));
      return { cursor: next, from: next < view.from ? next : next >= view.from + visible ? next - visible + 1 : view.from };
    });
  });
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        Minimal list · row {cursor + 1} of {rows.length}
      </Text>
      <Text color="gray">{'  TIME              FROM → TO       TYPES        ASSET        AMOUNT  STATUS'}</Text>
      {rows.slice(from, from + visible).map((row, i) => (
        <Text key={from + i} inverse={from + i === cursor}>
          {(from + i === cursor ? '› ' : '  ') + row}
        </Text>
      ))}
      <Text color="gray">j/k move · q quits</Text>
    </Box>
  );
}

render(<List />);
