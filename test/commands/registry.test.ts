// The registry of command names is the one list: the program adds exactly those commands, completion offers the
// visible ones, and the start-up kind knows every one of them.
import { PassThrough } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { COMMANDS, buildProgram } from '../../src/cli';
import { commandTree } from '../../src/commands/completion';
import type { CommandContext } from '../../src/commands/context';
import { ALL_COMMAND_NAMES, COMMAND_NAMES, HIDDEN_COMMAND_NAMES, isHiddenCommand } from '../../src/commands/registry';
import { runCli } from './helpers';

function program() {
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, stdoutIsTTY: false, stderrIsTTY: false };
  return buildProgram(
    io,
    () => ({}) as CommandContext,
    () => undefined,
  );
}

describe('the command registry', () => {
  it('is what the program defines, in help order, each name by its own definition', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(ALL_COMMAND_NAMES);
    const built = program();
    expect(built.commands.map((c) => c.name())).toEqual([...COMMAND_NAMES, ...HIDDEN_COMMAND_NAMES]);
    expect(
      built
        .createHelp()
        .visibleCommands(built)
        .map((c) => c.name()),
    ).toEqual(COMMAND_NAMES);
  });

  it('gives completion the visible commands only', () => {
    const root = commandTree(program()).find((c) => c.path === '');
    expect(root?.subcommands.map((s) => s.name)).toEqual(COMMAND_NAMES);
  });
});

describe("a command's help", () => {
  const leaves = (command: CommandUnknownOpts, path: string[]): string[][] =>
    command.commands.length === 0 ? [path] : command.commands.filter((c) => !isHiddenCommand(c.name())).flatMap((c) => leaves(c, [...path, c.name()]));
  const paths = leaves(program(), []);

  it('reaches every visible command', () => {
    expect(paths.map((p) => p.join(' '))).toEqual([
      'keys list',
      'keys create',
      'keys audit',
      'transfers',
      'sandbox',
      'profile add',
      'profile list',
      'profile remove',
      'profile use',
      'audit',
      'sub-accounts',
      'completion',
    ]);
  });

  it.each(paths.map((p) => [p.join(' '), p] as const))('%s: lists the global options it takes and gives an example of itself', async (_, path) => {
    const { code, stdout } = await runCli([...path, '--help']);
    expect(code).toBe(0);
    const globals = stdout.slice(stdout.indexOf('\nGlobal Options:\n'), stdout.indexOf('\nExamples:\n'));
    expect(globals).toMatch(/^\nGlobal Options:\n {2}--profile <name> /);
    for (const flag of [
      '--base-url <url>',
      '--recv-window <ms>',
      '--timeout <ms>',
      '--log-file <path>',
      '--proxy <url>',
      '--read-only',
      '--verbose',
      '--demo-clock <time>',
    ])
      expect(globals).toContain(`  ${flag} `);
    expect(globals).not.toMatch(/--version/);
    // --demo points a command at the embedded demo: listed with the other global options.
    expect(globals).toMatch(/ {2}--demo {2,}/);
    const examples = stdout
      .slice(stdout.indexOf('\nExamples:\n'))
      .split('\n')
      .slice(2)
      .filter((line) => line !== '');
    expect(examples.length).toBeGreaterThan(0);
    for (const line of examples) expect(line).toMatch(new RegExp(`^  \\$ broker-console (--read-only )?${path.join(' ')}( |$)`));
  });

  it('leaves the root help without either section', async () => {
    const { stdout } = await runCli(['--help']);
    expect(stdout).not.toContain('Global Options:');
    expect(stdout).not.toContain('Examples:');
  });
});
