// The program's command names, in the order its help lists them: the one list that the assembler
// (src/cli.ts) and completion read. It imports nothing, so anything can read it before the program is loaded.

/** The commands an operator types, in help's order. */
export const COMMAND_NAMES = ['keys', 'transfers', 'sandbox', 'profile', 'audit', 'sub-accounts', 'completion'] as const;

/** Commands only the completion scripts call: never listed, completed or suggested. */
export const HIDDEN_COMMAND_NAMES = ['__complete'] as const;

export type CommandName = (typeof COMMAND_NAMES)[number] | (typeof HIDDEN_COMMAND_NAMES)[number];

/** Every command, hidden ones last: the order the program adds them in. */
export const ALL_COMMAND_NAMES: readonly CommandName[] = [...COMMAND_NAMES, ...HIDDEN_COMMAND_NAMES];

export function isHiddenCommand(name: string): boolean {
  return (HIDDEN_COMMAND_NAMES as readonly string[]).includes(name);
}
