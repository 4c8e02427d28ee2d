import React from 'react';
import { Box, Text } from 'ink';
import { KEYMAP, SCREEN_TITLES, displayKey, type ScreenId } from '../keymap';
import { useServices } from '../services';
import { fit } from '../text';

/** Help for the current screen, drawn from the same table the screens dispatch on. */
export function HelpOverlay({ screen, height, width }: { screen: ScreenId; height: number; width: number }) {
  const { theme } = useServices();
  const sections: Array<[ScreenId, typeof KEYMAP.global]> = [[screen, KEYMAP[screen]], ['global', KEYMAP.global]];
  const lines: Array<{ key: string; text: string; title?: boolean }> = [];
  for (const [id, bindings] of sections) {
    lines.push({ key: `t-${id}`, text: SCREEN_TITLES[id], title: true });
    for (const b of bindings) {
      lines.push({ key: `${id}-${b.command}`, text: `  ${fit(b.keys.map(displayKey).join(' / '), 18)} ${b.description}` });
    }
  }
  const room = Math.max(1, height - 1);
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(0, room).map((line) => (
        <Text key={line.key} bold={line.title} color={line.title ? theme.accent : undefined}>
          {fit(line.text, width)}
        </Text>
      ))}
      <Text color={theme.muted}>{lines.length > room ? '(more: enlarge the terminal) ' : ''}press ? or esc to close</Text>
    </Box>
  );
}
