import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { fit } from '../text';

/** First line: name, DEMO/LIVE badge, and where the operator is. */
export function Header({ crumbs, width }: { crumbs: string[]; width: number }) {
  const { mode, target, theme } = useServices();
  const badge = mode === 'demo' ? ' DEMO ' : mode === 'setup' ? ' SETUP ' : ' LIVE ';
  const badgeStyle = mode === 'live' ? theme.liveBadge : theme.demoBadge;
  const left = `broker-console ${badge} ${mode === 'live' ? `${target} ` : ''}`;
  const trail = crumbs.join(' › ');
  const room = Math.max(0, width - left.length - 2);
  return (
    <Box width={width}>
      <Text bold>broker-console </Text>
      <Text bold color={badgeStyle.color} backgroundColor={badgeStyle.backgroundColor} inverse={!theme.color}>
        {badge}
      </Text>
      {mode === 'live' ? <Text> {target}</Text> : null}
      <Text> </Text>
      <Text color={theme.accent}>{fit(trail.length > room ? `…${trail.slice(-(room - 1))}` : trail, room)}</Text>
    </Box>
  );
}
