// Layout follows the terminal: size from useStdout() plus its resize event.
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

interface TerminalSize {
  columns: number;
  rows: number;
}

const sizeOf = (stdout: NodeJS.WriteStream): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });

export function useTerminalSize(): TerminalSize {
  // Ink types stdout as any writable stream; the console's is a terminal's (or a test's of the same shape).
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const [size, setSize] = useState<TerminalSize>(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
