import React from 'react';
import { Box, Text } from 'ink';
import { bindingsIn, displayKey, titleOf, type BindingContext } from '../keyboard/bindings';
import { MODES, type ScreenId } from '../keyboard/modes';
import { useServices } from '../services';
import { displayWidth, fit, wrapText } from '../../terminal/text';

interface HelpLine {
  key: string;
  text: string;
  title?: boolean;
}

/** The help's lines for a width: descriptions wrapped under their column, or (`wrap` false) cut to one line each. */
function helpLines(screen: ScreenId, width: number, wrap: boolean, context: BindingContext = {}): HelpLine[] {
  const sections: ScreenId[] = [screen, 'global'];
  const keyWidth = Math.min(18, Math.max(8, Math.floor(width * 0.3)));
  const indent = 2 + keyWidth + 1;
  const lines: HelpLine[] = [];
  for (const id of sections) {
    lines.push({ key: `t-${id}`, text: fit(titleOf(MODES[id], context), width), title: true });
    for (const b of bindingsIn(MODES[id], context)) {
      const keys = fit(b.keystrokes.map(displayKey).join(' / '), keyWidth);
      const description = wrap ? wrapText(b.description, width - indent) : [fit(b.description, width - indent)];
      description.forEach((part, i) =>
        lines.push({ key: `${id}-${b.command}-${i}`, text: `${' '.repeat(2)}${i === 0 ? keys : ' '.repeat(keyWidth)} ${part}` }),
      );
    }
  }
  return lines;
}

/** Help for the current screen, drawn from the same bindings the screens dispatch on: `height` lines, none wider than `width`; scrolls from `offset`. */
export function HelpOverlay({
  screen,
  context,
  height,
  width,
  offset = 0,
}: {
  screen: ScreenId;
  context: BindingContext;
  height: number;
  width: number;
  offset?: number;
}) {
  const { theme } = useServices();
  const room = Math.max(1, height - 1);
  const lines = helpLines(screen, width, true, context);
  const from = Math.max(0, Math.min(offset, lines.length - room));
  const below = lines.length - from - room;
  const where = lines.length > room ? `${from > 0 ? '↑' : ''}${below > 0 ? '↓' : ''} more · ` : '';
  const closing = displayWidth(`${where}press ? or esc to close`) <= width ? `${where}press ? or esc to close` : 'press ? or esc to close';
  return (
    <Box flexDirection="column" height={Math.min(height, room + 1)} width={width}>
      {lines.slice(from, from + room).map((line) => (
        <Text key={line.key} bold={line.title} color={line.title ? theme.accent : undefined}>
          {fit(line.text, width).trimEnd() || ' '}
        </Text>
      ))}
      <Text color={theme.muted}>{fit(closing, width).trimEnd()}</Text>
    </Box>
  );
}

/** Lines the help can scroll past at this size (App bounds its offset with it). */
export function helpScrollRoom(screen: ScreenId, height: number, width: number, context: BindingContext = {}): number {
  return Math.max(0, helpLines(screen, width, true, context).length - Math.max(1, height - 1));
}
