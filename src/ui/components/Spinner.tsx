import React, { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useServices } from '../services';
import { clip } from '../../terminal/text';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner and its label in one line; given a width, the label is cut to it (the label may carry outside text: sanitise it first). */
export function Spinner({ label, width }: { label: string; width?: number }) {
  const { theme } = useServices();
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80);
    return () => clearInterval(timer);
  }, []);
  const text = `${FRAMES[frame]} ${label}`;
  return <Text color={theme.accent}>{width === undefined ? text : clip(text, width)}</Text>;
}
