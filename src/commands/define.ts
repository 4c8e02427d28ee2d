// What a command module exports beside its run function: a definition that adds its commander Command (flags,
// help, examples, action) to the program. src/cli.ts assembles the definitions, one per registry name.
import { type Command, type CommandUnknownOpts, InvalidArgumentError } from '@commander-js/extra-typings';
import type { Environment } from '../credentials/fromEnvironment';
import type { CommandContext } from './context';
import type { CommandName } from './registry';
import type { ProgramOptions } from './rootFlags';

/** Where one run of the program reads and writes. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where `profile add` reads the key and secret, and the console its keys; default process.stdin (touched only then). */
  stdin?: NonNullable<CommandContext['stdin']>;
  /** Everything the program reads from the environment comes from here. */
  env: Environment;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The process's signals, for a command that must answer them itself (a create in flight). */
  onInterrupt?: CommandContext['onInterrupt'];
  /** Told once the console's first frame is drawn (the bin then writes its compile cache). */
  onFirstFrame?: () => void;
}

export interface ExitRequest {
  /** A server was started (sandbox): do not end the process when the action returns. */
  keepRunning?: boolean;
}

/** What a command's action is given by the program. */
export interface CommandHost {
  io: CliIo;
  /** The root's options as parsed (the demo clock is read by the console and the sandbox). */
  rootOptions(): ProgramOptions;
  /** The context a run function takes, with the global options as parsed. */
  context(): CommandContext;
  /** The exit code of this run. */
  exit(code: number, request?: ExitRequest): void;
}

/**
 * The options of a command, read from the function that declares its flags: a flag renamed there is a type error
 * wherever its option is read (commander's own typings, @commander-js/extra-typings).
 */
export type OptionsOf<Flags extends (command: Command) => CommandUnknownOpts> = ReturnType<ReturnType<Flags>['opts']>;

/** Adds one command (and its subcommands) to `parent` and returns it. */
export type DefineCommand = (parent: Command, host: CommandHost) => CommandUnknownOpts;

/** A command of the registry: its name and its definition (src/cli.ts checks the two agree). */
export interface CommandDefinition {
  name: CommandName;
  define: DefineCommand;
}

/** A strict whole-number option parser: digits only, within [min, max]. */
export function wholeNumber(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const text = raw.trim();
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return value;
  };
}

/** An option whose value is one of a few words. */
export function oneOf<T extends string>(words: readonly T[]): (raw: string) => T {
  return (raw) => {
    const value = raw.trim().toLowerCase();
    if (!(words as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${words.join(', ')}`);
    return value as T;
  };
}

/** A help section of example command lines, after a command's own help. */
export function examples(...lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ broker-console ${line}`).join('\n')}`;
}

/** Lines of at most `width` characters, broken between words (help prose is ours, and ASCII: a character is a column). */
function wrapProse(paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * Help prose reflowed to `width`: a paragraph's lines joined (a line ending a sentence ends the paragraph, a blank
 * line stays), then broken between words.
 */
export function reflowProse(text: string, width: number): string {
  const out: string[] = [];
  let paragraph = '';
  const end = () => {
    if (paragraph !== '') out.push(...wrapProse(paragraph, width));
    paragraph = '';
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      end();
      out.push('');
      continue;
    }
    paragraph = paragraph === '' ? line : `${paragraph} ${line}`;
    if (line.endsWith('.')) end();
  }
  end();
  return out.join('\n');
}

/** Help prose for addHelpText, reflowed when shown to the width commander wraps the rest at (the terminal's, else 80). */
export function prose(text: string): (context: { error: boolean; command: CommandUnknownOpts }) => string {
  return ({ error, command }) => {
    const output = command.configureOutput();
    const width = (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
    return reflowProse(text, Math.max(20, width));
  };
}
