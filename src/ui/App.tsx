// The root only chooses what to show: chrome around the screen stack, and the global keys.
import React, { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { Box, useInput } from 'ink';
import { Header } from './components/Header';
import { StatusBar } from './components/StatusBar';
import { Footer } from './components/Footer';
import { HelpOverlay } from './components/HelpOverlay';
import { KeyRouterProvider, createKeyRouter } from './hooks/useKeys';
import { useTerminalSize } from './hooks/useTerminalSize';
import { keyMatches, quitsWithQ, type ScreenId } from './keymap';
import { NavigationProvider, breadcrumbs, initialNavigation, navigationReducer, type NavigationState, type Route } from './navigation';
import { ScreenFrameProvider } from './screenFrame';
import { ServicesProvider, type ConsoleServices } from './services';
import { ScreenForRoute, screenIdOf } from './screens/ScreenForRoute';

export interface AppProps {
  services: ConsoleServices;
  /** Called once when the operator quits: 0 for q, 130 for Ctrl-C. */
  onExit: (code: number) => void;
  /** Tests observe the navigation state (e.g. that the secret left it). */
  onNavigation?: (state: NavigationState) => void;
  initialRoute?: Route;
}

/** Lines the chrome takes: header, status bar, footer, and one spare so no frame is as tall as the terminal. */
export const CHROME_LINES = 4;

export function App({ services, onExit, onNavigation, initialRoute }: AppProps) {
  const [nav, dispatch] = useReducer(
    navigationReducer,
    initialRoute ? { ...initialNavigation, stack: [{ id: 0, route: initialRoute }] } : initialNavigation,
  );
  const router = useMemo(createKeyRouter, []);
  const { columns, rows } = useTerminalSize();
  const width = Math.max(20, columns);
  const bodyHeight = Math.max(3, rows - CHROME_LINES);
  const top = nav.stack[nav.stack.length - 1]!;
  const [modes, setModes] = useState<Record<number, ScreenId>>({});
  const topScreen: ScreenId = modes[top.id] ?? screenIdOf(top.route);
  const setTopMode = useCallback(
    (mode: ScreenId) => setModes((m) => (m[top.id] === mode ? m : { ...m, [top.id]: mode })),
    [top.id],
  );

  useEffect(() => onNavigation?.(nav), [nav, onNavigation]);

  useInput((input, key) => {
    if (keyMatches('ctrl+c', input, key)) return onExit(130);
    if (nav.helpOpen) {
      if (input === '?' || key.escape || input === 'q') dispatch({ type: 'closeHelp' });
      return;
    }
    const { consumed, textEntry } = router.dispatch(input, key);
    if (consumed) return;
    if (keyMatches('ctrl+p', input, key) && services.switcher && topScreen !== 'profiles') {
      dispatch({ type: 'push', route: { screen: 'profiles' } });
      return;
    }
    if (key.escape) {
      // Esc backs out; on the first screen (when the screen has nothing left to clear) it quits.
      if (nav.stack.length > 1) dispatch({ type: 'back' });
      else onExit(0);
      return;
    }
    if (input === '?' && textEntry !== 'all') dispatch({ type: 'toggleHelp' });
    else if (input === 'q' && !textEntry && quitsWithQ(topScreen)) onExit(0);
  });

  return (
    <ServicesProvider services={services}>
      <NavigationProvider dispatch={dispatch}>
        <KeyRouterProvider router={router}>
          <Box flexDirection="column" width={width}>
            <Header crumbs={breadcrumbs(nav.stack)} width={width} />
            <Box height={bodyHeight} flexDirection="column" overflow="hidden">
              {nav.helpOpen ? <HelpOverlay screen={topScreen} height={bodyHeight} width={width} /> : null}
              {nav.stack.map((entry) => {
                const isTop = entry === top && !nav.helpOpen;
                return (
                  <Box key={entry.id} display={isTop ? 'flex' : 'none'} flexDirection="column" height={bodyHeight}>
                    <ScreenFrameProvider value={{ active: isTop, width, height: bodyHeight, setMode: setTopMode }}>
                      <ScreenForRoute route={entry.route} />
                    </ScreenFrameProvider>
                  </Box>
                );
              })}
            </Box>
            <StatusBar width={width} />
            <Footer screen={topScreen} width={width} />
          </Box>
        </KeyRouterProvider>
      </NavigationProvider>
    </ServicesProvider>
  );
}
