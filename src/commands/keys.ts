// `keys list|create|audit`: the API keys of a sub-account. Each subcommand is defined beside its run function.
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandHost } from './define';
import { defineKeysAudit } from './keysAudit';
import { defineKeysCreate } from './keysCreate';
import { defineKeysList } from './keysList';

export function defineKeys(program: Command, host: CommandHost): CommandUnknownOpts {
  const keys = program.command('keys').description('API keys of a sub-account');
  defineKeysList(keys, host);
  defineKeysCreate(keys, host);
  defineKeysAudit(keys, host);
  return keys;
}
