import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';

/** Label/value lines for detail views; long values wrap rather than being cut. */
export function FieldList({ fields, labelWidth = 14 }: { fields: ReadonlyArray<readonly [string, string]>; labelWidth?: number }) {
  const { theme } = useServices();
  return (
    <Box flexDirection="column">
      {fields.map(([label, value]) => (
        <Box key={label}>
          <Box width={labelWidth} flexShrink={0}>
            <Text color={theme.muted}>{label}</Text>
          </Box>
          <Text wrap="wrap">{value === '' ? '—' : value}</Text>
        </Box>
      ))}
    </Box>
  );
}
