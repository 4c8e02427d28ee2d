import React from 'react';
import { Text } from 'ink';
import { footerHints, type ScreenId } from '../keymap';
import { useServices } from '../services';

/** Key hints from the key-binding table, as many as fit on one line; `? help` lists the rest. */
export function Footer({ screen, width }: { screen: ScreenId; width: number }) {
  const { theme } = useServices();
  const hints = footerHints(screen);
  const help = '? help';
  const shown: string[] = [];
  let used = help.length;
  for (const hint of hints) {
    if (hint === help) continue;
    if (used + hint.length + 2 > width - 1) break;
    shown.push(hint);
    used += hint.length + 2;
  }
  return <Text color={theme.muted}>{[...shown, help].join('  ')}</Text>;
}
