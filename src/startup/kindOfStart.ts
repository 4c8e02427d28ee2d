// Which kind of start a command line is: the console, a command, or help. Each kind keeps a code cache of its
// own (src/startup/bin.ts), holding the code that kind runs; a wrong guess costs speed, never behaviour.
import { ALL_COMMAND_NAMES, ROOT_VALUE_OPTIONS } from '../commands/registry';

/** The registry's commands, and `help [command]`, which the root answers. */
const COMMANDS = new Set<string>([...ALL_COMMAND_NAMES, 'help']);
/** The root's options that take a value: the value is not a command. */
const ROOT_VALUES = new Set<string>(ROOT_VALUE_OPTIONS);

export function kindOfStart(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (ROOT_VALUES.has(word)) i++;
      continue;
    }
    return COMMANDS.has(word) ? word : 'other';
  }
  return args.some((word) => word === '--help' || word === '-h' || word === '--version') ? 'help' : 'console';
}
