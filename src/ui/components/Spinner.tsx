import React, { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useServices } from '../services';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function Spinner({ label }: { label: string }) {
  const { theme } = useServices();
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text color={theme.accent}>
      {FRAMES[frame]} {label}
    </Text>
  );
}
