// The root only chooses what to show: chrome around the screen stack, and the global keys.
import React, { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Box, Text, useInput, useStdin, type Key } from 'ink';
import { Header } from './components/Header';
import { StatusBar } from './components/StatusBar';
import { Footer, HelpFooter } from './components/Footer';
import { HelpOverlay, helpScrollRoom } from './components/HelpOverlay';
import { KeystrokeRouterProvider, createKeystrokeRouter } from './keyboard/keystrokes';
import { useKeysWhileBusy, type CarriedKeys } from './keyboard/keysWhileBusy';
import { useTerminalSize } from './hooks/useTerminalSize';
import { commandFor, sameMode, type BindingContext, type ScreenContext } from './keyboard/bindings';
import { GLOBAL_MODES, HELP_MODES, quitsHere, type ActiveMode, type ScreenId } from './keyboard/modes';
import { LeaveGuardProvider, leaveThrough, type LeaveGuards } from './leaveGuard';
import { type Drafts, DraftsProvider, createDrafts } from './drafts';
import { NavigationProvider, breadcrumbs, initialNavigation, navigationReducer, type NavigationState, type Route } from './navigation';
import { ScreenFrameProvider } from './screenFrame';
import { ServicesProvider, type ConsoleServices } from './services';
import { ScreenForRoute, openingMode } from './screens/ScreenForRoute';

interface AppProps {
  services: ConsoleServices;
  /** Called once when the operator quits: 0 for q, 130 for Ctrl-C. */
  onExit: (code: number) => void;
  /** Tests observe the navigation state (e.g. that the secret left it). */
  onNavigation?: (state: NavigationState) => void;
  initialRoute?: Route;
  /** Keys typed while the previous target's console was opening this one: they act here, in order. */
  carriedKeys?: CarriedKeys;
  /** The forms left half filled on this target before (a switch away and back); new ones when absent. */
  drafts?: Drafts;
}

/** Lines the chrome takes: header, status bar, footer, and one spare so no frame is as tall as the terminal. */
const CHROME_LINES = 4;
/** The smallest window every screen is laid out for; below it the console asks for more room. */
const MIN_COLUMNS = 40;
const MIN_ROWS = 12;

export function App({ services, onExit, onNavigation, initialRoute, carriedKeys, drafts: kept }: AppProps) {
  const [nav, dispatch] = useReducer(navigationReducer, initialRoute ? { ...initialNavigation, stack: [{ id: 0, route: initialRoute }] } : initialNavigation);
  const router = useMemo(createKeystrokeRouter, []);
  const guards = useMemo<LeaveGuards>(() => ({ mounted: [] }), []);
  const drafts = useMemo(() => kept ?? createDrafts(), [kept]);
  const { columns, rows } = useTerminalSize();
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  // A ctrl+c a guard held while the window was too small to show why.
  const [interruptHeld, setInterruptHeld] = useState(false);
  if (!tooSmall && interruptHeld) setInterruptHeld(false);
  const width = Math.max(MIN_COLUMNS, columns);
  const bodyHeight = Math.max(3, rows - CHROME_LINES);
  const top = nav.stack[nav.stack.length - 1]!;
  const [modes, setModes] = useState<Record<number, ActiveMode>>({});
  const [helpOffset, setHelpOffset] = useState(0);
  const topMode: ActiveMode = modes[top.id] ?? openingMode(top.route);
  const topScreen: ScreenId = topMode.id;
  const bindingContext: BindingContext = { ...topMode.context, readOnly: services.readOnly, firstScreen: nav.stack.length === 1 };
  // A screen declaring the mode it has anyway (its route's) changes nothing: no state, so no second frame.
  const setTopMode = useCallback(
    (id: ScreenId, context: ScreenContext = {}) =>
      setModes((m) => (sameMode(m[top.id] ?? openingMode(top.route), { id, context }) ? m : { ...m, [top.id]: { id, context } })),
    [top.id, top.route],
  );

  useEffect(() => onNavigation?.(nav), [nav, onNavigation]);

  const onKey = (input: string, keystroke: Key, waited = false) => {
    const global = commandFor(GLOBAL_MODES.global, input, keystroke, bindingContext);
    if (tooSmall) {
      // The same guards as at any size: a secret on screen, or a create in flight, is never left unseen at once.
      if (global === 'interrupt') {
        let left = false;
        leaveThrough(guards, 'interrupt', () => {
          left = true;
          onExit(130);
        });
        if (!left) setInterruptHeld(true);
      }
      return;
    }
    if (global === 'interrupt') {
      if (nav.helpOpen) dispatch({ type: 'closeHelp' });
      return leaveThrough(guards, 'interrupt', () => onExit(130));
    }
    if (nav.helpOpen && !waited) {
      // The help scrolls when the window is too short for it.
      const last = helpScrollRoom(topScreen, bodyHeight, width, bindingContext);
      const page = Math.max(1, bodyHeight - 2);
      switch (commandFor(HELP_MODES.helpOpen, input, keystroke, { scrolls: last > 0 })) {
        case 'close':
          return dispatch({ type: 'closeHelp' });
        case 'down':
          return setHelpOffset((o) => Math.min(last, o + 1));
        case 'pageDown':
          return setHelpOffset((o) => Math.min(last, o + page));
        case 'up':
          return setHelpOffset((o) => Math.max(0, o - 1));
        case 'pageUp':
          return setHelpOffset((o) => Math.max(0, o - page));
        case 'first':
          return setHelpOffset(0);
        case 'last':
          return setHelpOffset(last);
        case undefined:
          return;
      }
    }
    // A key that arrives while a screen loads waits for it, in order (keysWhileBusy.ts); keys that leave or
    // overlay the busy screen need nothing it loads: they act now when no key waits before them.
    const plain = !keystroke.ctrl && !keystroke.meta;
    const atOnce = global === 'transfers' || global === 'profiles' || (plain && (global === 'help' || quitsHere(topScreen, input, keystroke, bindingContext)));
    if (!waited && keysWhileBusy.hold(input, keystroke, atOnce)) return;
    const { consumed, textEntry } = router.dispatch(input, keystroke);
    if (consumed) return;
    switch (global) {
      case 'profiles':
        if (services.switcher && topScreen !== 'profiles') leaveThrough(guards, 'profiles', () => dispatch({ type: 'push', route: { screen: 'profiles' } }));
        return;
      case 'transfers':
        if (services.mode !== 'setup' && top.route.screen !== 'transferFilter') {
          // From a filter's results, the way to the transfers' filter is back to that one: the results stay its own.
          // Not while an export or a chart runs on them: going back would end it, so the filter opens above.
          const working = topScreen === 'exportRunning' || topScreen === 'transfersChartLoading';
          const ownFilter =
            !working && top.route.screen === 'transfers' && top.route.fromFilter === true && nav.stack.at(-2)?.route.screen === 'transferFilter';
          leaveThrough(guards, 'transfers', () => dispatch(ownFilter ? { type: 'back' } : { type: 'push', route: { screen: 'transferFilter' } }));
        }
        return;
      // Bound only off the first screen: one esc too many never ends the console (q or ctrl+c do).
      case 'back':
        return dispatch({ type: 'back' });
      case 'help':
        if (textEntry === 'all') return;
        setHelpOffset(0);
        return dispatch({ type: 'toggleHelp' });
      case undefined:
        break;
    }
    if (!textEntry && quitsHere(topScreen, input, keystroke, bindingContext)) leaveThrough(guards, 'quit', () => onExit(0));
  };
  // One subscription for the console's life, reading the latest state through a ref: a key that arrives in
  // the same chunk as the one before it must not meet the handler of the frame before.
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  const keysWhileBusy = useKeysWhileBusy(router, (input, keystroke) => onKeyRef.current(input, keystroke, true), carriedKeys);
  useInput(useCallback((input: string, keystroke: Key) => onKeyRef.current(input, keystroke), []));

  // A bracketed paste goes to the focused field as text; with no field focused it is dropped, never read as keys.
  const { stdin } = useStdin();
  const tooSmallRef = useRef(tooSmall);
  tooSmallRef.current = tooSmall;
  useLayoutEffect(() => {
    const onPaste = (text: string) => {
      if (!tooSmallRef.current) router.dispatchPaste(text);
    };
    stdin.on('paste', onPaste);
    return () => {
      stdin.off('paste', onPaste);
    };
  }, [stdin, router]);

  return (
    <ServicesProvider services={services}>
      <NavigationProvider dispatch={dispatch}>
        <LeaveGuardProvider guards={guards}>
          <DraftsProvider drafts={drafts}>
            <KeystrokeRouterProvider router={router}>
              {tooSmall ? <TooSmall columns={columns} rows={rows} held={interruptHeld} /> : null}
              <Box flexDirection="column" width={width} display={tooSmall ? 'none' : 'flex'}>
                <Header crumbs={breadcrumbs(nav.stack)} width={width} />
                {/* Every screen fits its height (tested from 40x12 to 200x60); the vertical clip only keeps a screen that did
                    not from drawing over the status bar. No horizontal clip: that made Ink slice every line of every frame. */}
                <Box height={bodyHeight} flexDirection="column" overflowY="hidden">
                  {nav.helpOpen ? <HelpOverlay screen={topScreen} context={bindingContext} height={bodyHeight} width={width} offset={helpOffset} /> : null}
                  {nav.stack.map((entry) => {
                    const isTop = entry === top && !nav.helpOpen && !tooSmall;
                    return (
                      <Box key={entry.id} display={entry === top && !nav.helpOpen ? 'flex' : 'none'} flexDirection="column" height={bodyHeight}>
                        <ScreenFrameProvider value={{ active: isTop, width, height: bodyHeight, setMode: setTopMode }}>
                          <ScreenForRoute route={entry.route} />
                        </ScreenFrameProvider>
                      </Box>
                    );
                  })}
                </Box>
                <StatusBar width={width} />
                {nav.helpOpen ? (
                  <HelpFooter scrolls={helpScrollRoom(topScreen, bodyHeight, width, bindingContext) > 0} width={width} />
                ) : (
                  <Footer screen={topScreen} context={bindingContext} width={width} />
                )}
              </Box>
            </KeystrokeRouterProvider>
          </DraftsProvider>
        </LeaveGuardProvider>
      </NavigationProvider>
    </ServicesProvider>
  );
}

/** Below 40x12 nothing is laid out: the console says what it needs and resumes, state intact, when the window grows. */
function TooSmall({ columns, rows, held }: { columns: number; rows: number; held: boolean }) {
  return (
    <Box width={Math.max(1, columns - 1)} height={Math.max(1, rows - 1)} overflow="hidden">
      <Text wrap="wrap">
        {held
          ? `A key's secret is on screen, or a key is being created: enlarge the window (${MIN_COLUMNS}x${MIN_ROWS}) to see it. ctrl+c again leaves anyway.`
          : `The window is ${columns}x${rows}; broker-console needs at least ${MIN_COLUMNS}x${MIN_ROWS}. Enlarge it to continue (ctrl+c quits).`}
      </Text>
    </Box>
  );
}
