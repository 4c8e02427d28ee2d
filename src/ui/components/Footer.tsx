import React from 'react';
import { Box, Text } from 'ink';
import type { BindingContext } from '../keyboard/bindings';
import { footerHints, helpFooterHints, type ScreenId } from '../keyboard/modes';
import { useServices } from '../services';
import { displayWidth, fit } from '../../terminal/text';

/** The hints that fit in one line of `width` cells, `? help` always last (it lists the rest). */
export function footerLine(screen: ScreenId, width: number, context: BindingContext = {}): string {
  const help = '? help';
  const shown: string[] = [];
  let used = help.length;
  for (const hint of footerHints(screen, context)) {
    if (hint === help) continue;
    const w = displayWidth(hint);
    if (used + w + 2 > width - 1) break;
    shown.push(hint);
    used += w + 2;
  }
  return fit([...shown, help].join('  '), Math.max(1, width - 1)).trimEnd();
}

/** Key hints from the mode's bindings, as many as fit on one line; `? help` lists the rest. */
export function Footer({ screen, context, width }: { screen: ScreenId; context: BindingContext; width: number }) {
  const { theme } = useServices();
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text color={theme.muted}>{footerLine(screen, width, context)}</Text>
    </Box>
  );
}

/** What the keys do while help is open (its mode's bindings; any other key is dropped). */
function helpFooterLine(scrolls: boolean, width: number): string {
  return fit(helpFooterHints(scrolls).join('  '), Math.max(1, width - 1)).trimEnd();
}

/** The footer while help is open: scrolling only when the help is taller than its room. */
export function HelpFooter({ scrolls, width }: { scrolls: boolean; width: number }) {
  const { theme } = useServices();
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text color={theme.muted}>{helpFooterLine(scrolls, width)}</Text>
    </Box>
  );
}
