// `profile add|list|remove|use`: arrives with keychain support; until then it says so.
import { ENV } from '../credentials/fromEnvironment';
import { type CommandContext, EXIT, type ExitCode, printLines } from './context';

export function runProfile(ctx: CommandContext): ExitCode {
  printLines(ctx.stderr, [
    'error: profiles arrive with keychain support and are not available yet',
    `for now set ${ENV.apiKey}, ${ENV.secret} and ${ENV.baseUrl} in the environment`,
  ]);
  return EXIT.usage;
}
