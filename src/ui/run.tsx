// Starts the console (src/commands/interactive.ts has checked for a terminal): enters the alternate screen,
// renders the console for the current target (starting afresh whenever the target changes), and returns the
// exit code once the operator quits (0) or interrupts (130).
import React, { useMemo, useSyncExternalStore } from 'react';
import { render } from 'ink';
import type { BrokerApi } from '../api/contract';
import { memoryDiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import { memoryRecentSubAccounts } from '../config/recentSubAccounts';
import type { TransferExporter } from '../export/types';
import { App } from './App';
import { type Drafts, createDrafts } from './drafts';
import type { CarriedKeys } from './keyboard/keysWhileBusy';
import { systemClipboard, type CopyToClipboard } from './clipboard';
import { createExchangeLog } from './exchangeLog';
import type { ConsoleServices } from './services';
import type { TargetSwitcher } from './targets';
import { makeTheme, type Theme } from './theme';
import { enterAlternateScreen } from './terminalSession';
import { KeyStream } from '../terminal/keyStream';
import { LINE_LIMIT, sanitize } from '../terminal/text';
import { ownOutputErrors, releaseOutputErrors } from '../terminal/outputOwner';
import { signalExitCode } from '../terminal/signals';

/** The exit code of a console whose terminal went away, as for SIGHUP. */
const HANGUP_EXIT = signalExitCode('SIGHUP');

const notConnected = (): Promise<never> => Promise.reject(new Error('not connected yet: add a profile, enter credentials, or open the demo'));
/** Stands in while there is no target: the welcome screens never call it. */
const NO_API: BrokerApi = {
  listSubAccountKeys: notConnected,
  createSubAccountKey: notConnected,
  listUniversalTransfers: notConnected,
  clockOffsetMs: () => 0,
  reportCutShort: () => undefined,
  heldBack: () => undefined,
  close: async () => undefined,
};
const NO_EXPORT: TransferExporter = { run: notConnected };

/** A read-only run says so on the welcome screens too, before any target is open. */
function readOnlyRun(switcher: TargetSwitcher): { readOnly?: string } {
  const why = switcher.runReadOnly?.();
  return why ? { readOnly: why } : {};
}

/** The console for the switcher's current target; a new target mounts a fresh console (nothing carries over). */
export function ConsoleRoot({
  switcher,
  theme,
  copy,
  onExit,
  now = Date.now,
  sayOnLeaving,
}: {
  switcher: TargetSwitcher;
  theme: Theme;
  copy: CopyToClipboard;
  onExit: (code: number) => void;
  now?: () => number;
  sayOnLeaving?: (line: string) => void;
}) {
  const target = useSyncExternalStore(switcher.subscribe, switcher.current);
  const services = useMemo<ConsoleServices>(() => {
    if (target) {
      const { id: _, ...fields } = target;
      return { ...fields, copy, theme, now: target.now ?? now, switcher, ...(sayOnLeaving ? { sayOnLeaving } : {}) };
    }
    return {
      api: NO_API,
      mode: 'setup',
      host: '',
      profile: 'no profile',
      credentialSource: 'none yet',
      exchanges: createExchangeLog(),
      recent: memoryRecentSubAccounts(),
      discovered: memoryDiscoveredSubAccounts(),
      suggestions: [],
      copy,
      exporter: NO_EXPORT,
      theme,
      now,
      switcher,
      ...readOnlyRun(switcher),
      ...(sayOnLeaving ? { sayOnLeaving } : {}),
    };
  }, [target, switcher, theme, copy, now, sayOnLeaving]);
  // One queue of waiting keys across targets: what was typed while a profile or the demo opened acts on its first screen.
  const carriedKeys = useMemo<CarriedKeys>(() => ({ keys: [] }), []);
  // The forms left half filled on a target come back with it: a switch away and back loses no typing.
  const draftsByTarget = useMemo(() => new Map<string, Drafts>(), []);
  const drafts = useMemo(() => {
    if (!target) return undefined;
    const key = `${target.mode}\u0000${target.profile}\u0000${target.host}`;
    const known = draftsByTarget.get(key) ?? createDrafts();
    draftsByTarget.set(key, known);
    return known;
  }, [target, draftsByTarget]);
  return (
    <App
      key={target?.id ?? 0}
      services={services}
      onExit={onExit}
      initialRoute={target ? undefined : { screen: 'welcome' }}
      carriedKeys={carriedKeys}
      {...(drafts ? { drafts } : {})}
    />
  );
}

/** 0 quit, 130 interrupted, or 128 + a signal's number (143, 129, 131); a terminal gone is 129. */
export async function runConsole(switcher: TargetSwitcher, options: { noColor: boolean; onDrawn?: () => void }): Promise<number> {
  let exitCode = 0;
  let done: (() => void) | undefined;
  const session = enterAlternateScreen(process.stdout, (code) => {
    exitCode = code;
    done?.();
  });
  const onExit = (code: number) => {
    exitCode = code;
    done?.();
  };
  // The terminal gone (its window closed): writes fail (EIO) and input ends, before a SIGHUP or without one (one
  // ignored): the console ends as at a hangup, and still says on stderr what it must (a secret not confirmed stored).
  let terminalGone = false;
  const onTerminalGone = () => {
    terminalGone = true;
    onExit(HANGUP_EXIT);
  };
  // Said on stderr once the alternate screen is gone (a create left in flight: the key may exist).
  const parting: string[] = [];
  const sayOnLeaving = (line: string) => void parting.push(line);
  let keys: KeyStream | undefined;
  let app: ReturnType<typeof render> | undefined;
  // Everything from here is undone in `finally`, a start that throws (raw mode refused) included.
  try {
    ownOutputErrors(process.stdout);
    process.stdout.on('error', onTerminalGone);
    process.stdin.on('end', onTerminalGone);
    process.stdin.on('error', onTerminalGone);
    // Ink reads keys one at a time from the splitter, never a chunk of several.
    keys = new KeyStream(process.stdin);
    // Raw mode before the first frame (Ink sets it in an effect after that frame): a key typed the moment the
    // screen appears is read as typed, not echoed by the terminal or turned into a line feed.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    app = render(
      <ConsoleRoot switcher={switcher} theme={makeTheme(options.noColor)} copy={systemClipboard(process.stdout)} onExit={onExit} sayOnLeaving={sayOnLeaving} />,
      {
        exitOnCtrlC: false,
        patchConsole: true,
        stdin: keys as unknown as NodeJS.ReadStream,
      },
    );
    // A signal unmounts Ink before the screen is left: its last frame goes to the alternate screen, never onto the shell's.
    const drawing = app;
    session.beforeSignalLeave(() => drawing.unmount());
    options.onDrawn?.();
    await Promise.race([app.waitUntilExit(), new Promise<void>((resolve) => (done = resolve))]);
  } finally {
    app?.unmount();
    app?.cleanup();
    keys?.detach();
    session.leave();
    for (const line of parting) process.stderr.write(`${sanitize(line, LINE_LIMIT)}\n`);
    process.stdin.off('end', onTerminalGone);
    process.stdin.off('error', onTerminalGone);
    // A terminal that is gone fails every later write too: those errors stay ours, so the exit code stays 129.
    if (!terminalGone) {
      process.stdout.off('error', onTerminalGone);
      releaseOutputErrors(process.stdout);
    }
  }
  return exitCode;
}
