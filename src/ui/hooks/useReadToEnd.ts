// Lines taller than their room that must all have been on screen before what they show is acted on (the review of
// a create): where they are scrolled to, whether their end was on screen, and whether enter came before it.
import { useCallback, useRef, useState } from 'react';
import { useSyncedState } from './useSyncedState';

/** How the lines sit in the window: whether they scroll, how far, and how many of them show. */
export interface ReadLayout {
  scrolls: boolean;
  maxTop: number;
  room: number;
}

export function useReadToEnd() {
  const [top, setTop, topRef] = useSyncedState(0);
  const layout = useRef<ReadLayout>({ scrolls: false, maxTop: 0, room: 1 });
  const [scrolls, setScrolls] = useState(false);
  const [readToEnd, setReadToEnd, readToEndRef] = useSyncedState(false);
  /** The act was asked for before the end was on screen (said until the end is). */
  const [tooSoon, setTooSoon] = useState(false);

  /** Told by what draws the lines, each time their layout changes. */
  const onLayout = useCallback(
    (next: ReadLayout) => {
      layout.current = next;
      setScrolls(next.scrolls);
      if (!next.scrolls || topRef.current >= next.maxTop) setReadToEnd(true);
    },
    [topRef, setReadToEnd],
  );

  /** Scrolls for a scrolling command (down, up, pageDown, pageUp); false for any other. */
  const scroll = (command: string | undefined): boolean => {
    const { maxTop, room } = layout.current;
    const by = command === 'down' ? 1 : command === 'up' ? -1 : command === 'pageDown' ? room : command === 'pageUp' ? -room : 0;
    if (by === 0) return false;
    const next = Math.max(0, Math.min(maxTop, topRef.current + by));
    setTop(next);
    if (next >= maxTop) {
      setReadToEnd(true);
      setTooSoon(false);
    }
    return true;
  };

  /** Does `act` once the end was on screen; else says it came too soon, and does nothing. */
  const once = (act: () => void): void => {
    if (layout.current.scrolls && !readToEndRef.current) setTooSoon(true);
    else act();
  };

  /** Back to the first line, nothing read yet (new lines to read). */
  const restart = (): void => {
    setTop(0);
    setReadToEnd(false);
    setTooSoon(false);
  };

  return {
    top,
    scrolls,
    /** Scrolling, and at the end now. */
    atEnd: scrolls && readToEnd && top >= layout.current.maxTop,
    /** Scrolling, and the end not yet on screen. */
    mustRead: scrolls && !readToEnd,
    tooSoon: tooSoon && !readToEnd,
    scrollsNow: () => layout.current.scrolls,
    onLayout,
    scroll,
    once,
    restart,
  };
}
