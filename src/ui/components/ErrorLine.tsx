import React from 'react';
import { Text } from 'ink';
import { useServices } from '../services';
import { fit } from '../text';

/** An error in one line, with the key that retries. */
export function ErrorLine({ message, retryKey, width }: { message: string; retryKey?: string; width: number }) {
  const { theme } = useServices();
  const suffix = retryKey ? `  (${retryKey} retry)` : '';
  return <Text color={theme.error}>{fit(`✗ ${message}`, Math.max(1, width - suffix.length))}{suffix}</Text>;
}
