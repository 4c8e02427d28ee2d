// `keys list|create|audit`: the API keys of a sub-account. Each subcommand is defined beside its run function.
import type { Command } from 'commander';
import type { CommandHost } from './define';
import { defineKeysAudit } from './keysAudit';
import { defineKeysCreate } from './keysCreate';
import { defineKeysList } from './keysList';

export function defineKeys(program: Command, host: CommandHost): Command {
  const keys = program.command('keys').description('API keys of a sub-account');
  defineKeysList(keys, host);
  defineKeysCreate(keys, host);
  defineKeysAudit(keys, host);
  return keys;
}
