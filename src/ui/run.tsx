// Starts the console: checks for a terminal, enters the alternate screen, renders App, and returns the exit
// code once the operator quits (0) or interrupts (130).
import React from 'react';
import { render } from 'ink';
import type { BrokerApi } from '../api/contract';
import type { RecentSubAccounts } from '../config/recentSubAccounts';
import { fileExporter } from '../export/fileExporter';
import { App } from './App';
import { osc52Clipboard } from './clipboard';
import type { ExchangeLog } from './exchangeLog';
import { makeTheme } from './theme';
import { enterAlternateScreen } from './terminalSession';

export interface ConsoleTarget {
  api: BrokerApi;
  exchanges: ExchangeLog;
  mode: 'demo' | 'live';
  target: string;
  profile: string;
  credentialSource: string;
  recent: RecentSubAccounts;
  suggestions: string[];
  noColor: boolean;
  exportFolder: string;
}

/** Why the console cannot run here, or undefined when stdin and stdout are terminals with raw mode. */
export function terminalProblem(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): string | undefined {
  if (!stdin.isTTY && !stdout.isTTY) return 'stdin and stdout are not terminals';
  if (!stdin.isTTY) return 'stdin is not a terminal';
  if (!stdout.isTTY) return 'stdout is not a terminal';
  if (typeof stdin.setRawMode !== 'function') return 'this terminal does not support raw mode';
  return undefined;
}

export async function runConsole(target: ConsoleTarget): Promise<number> {
  let exitCode = 0;
  let done: (() => void) | undefined;
  const session = enterAlternateScreen(process.stdout, (code) => {
    exitCode = code;
    done?.();
  });
  const app = render(
    <App
      services={{
        api: target.api,
        mode: target.mode,
        target: target.target,
        profile: target.profile,
        credentialSource: target.credentialSource,
        exchanges: target.exchanges,
        recent: target.recent,
        suggestions: target.suggestions,
        copy: osc52Clipboard(process.stdout),
        exporter: fileExporter(target.api, target.exportFolder),
        theme: makeTheme(target.noColor),
        now: Date.now,
      }}
      onExit={(code) => {
        exitCode = code;
        done?.();
      }}
    />,
    { exitOnCtrlC: false, patchConsole: true },
  );
  try {
    await Promise.race([app.waitUntilExit(), new Promise<void>((resolve) => (done = resolve))]);
  } finally {
    app.unmount();
    app.cleanup();
    session.leave();
  }
  return exitCode;
}
