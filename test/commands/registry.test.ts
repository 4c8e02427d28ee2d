// The registry of command names is the one list: the program adds exactly those commands, completion offers the
// visible ones, and the start-up kind knows every one of them.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS, buildProgram } from '../../src/cli';
import { commandTree } from '../../src/commands/completion';
import type { CommandContext } from '../../src/commands/context';
import { ALL_COMMAND_NAMES, COMMAND_NAMES, HIDDEN_COMMAND_NAMES, ROOT_VALUE_OPTIONS } from '../../src/commands/registry';
import { kindOfStart } from '../../src/startup/kindOfStart';

function program() {
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, stdoutIsTTY: false, stderrIsTTY: false };
  return buildProgram(io, () => ({}) as CommandContext, () => undefined);
}

describe('the command registry', () => {
  it('is what the program defines, in help order, each name by its own definition', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(ALL_COMMAND_NAMES);
    const built = program();
    expect(built.commands.map((c) => c.name())).toEqual([...COMMAND_NAMES, ...HIDDEN_COMMAND_NAMES]);
    expect(built.createHelp().visibleCommands(built).map((c) => c.name())).toEqual(COMMAND_NAMES);
  });

  it('gives completion the visible commands only', () => {
    const root = commandTree(program()).find((c) => c.path === '');
    expect(root?.subcommands.map((s) => s.name)).toEqual(COMMAND_NAMES);
  });

  it('lists the root options that take a value', () => {
    const taking = program()
      .options.filter((o) => o.required || o.optional)
      .map((o) => o.long);
    expect(new Set(taking)).toEqual(new Set(ROOT_VALUE_OPTIONS));
  });

  it('is what the start-up kind knows', () => {
    for (const name of ALL_COMMAND_NAMES) expect(kindOfStart([name])).toBe(name);
    expect(kindOfStart(['--timeout', '5', 'sub-accounts', '--json'])).toBe('sub-accounts');
    expect(kindOfStart(['audit'])).toBe('audit');
  });
});
