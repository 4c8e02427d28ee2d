// `completion bash|zsh|fish`: a completion script for the shell, generated from the command tree commander
// already holds (commands, their flags, which flags take a value), so it cannot drift from the parser.
// Enumerated values are written into the script (formats, account types, the known permissions); profile
// names are asked for at completion time with the hidden `__complete profiles`, which reads profiles.json
// only (never the keychain), so a Tab costs one start of the bundle and one small file read; `--sub` values
// likewise with `__complete sub-accounts` (the recent, then the discovered names of the target, from their files).
import type { Command, Option, CommandUnknownOpts } from '@commander-js/extra-typings';
import { KNOWN_ACCOUNT_TYPES, KNOWN_PERMISSIONS } from '../api/types';
import { POST_SIGNATURES } from '../api/signing';
import { FLAG_KINDS } from '../audit/keyAudit';
import { PROFILE_COLORS, PROFILE_NAME, findProfile, loadProfiles } from '../credentials/profiles';
import { ENV, checkBaseUrl, envValue } from '../credentials/fromEnvironment';
import { isSubAccountName, openDiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import { openRecentSubAccounts } from '../config/recentSubAccounts';
import { SANDBOX_POST_SIGNATURES } from '../sandbox/types';
import { type CommandContext, EXIT, type ExitCode, contextFolder, reportUsage } from './context';
import { type CommandHost, examples } from './define';
import { DEMO_COMMANDS } from './demoRun';
import { OUTPUT_FORMATS } from './output';
import { isHiddenCommand } from './registry';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a flag's value is completed from. */
/** A comma list's `alone` items are a whole value by themselves: offered first or not at all. */
type ValueSource = { words: readonly string[] } | { commaList: readonly string[]; alone?: readonly string[] } | 'profiles' | 'subAccounts' | 'files';

/** Values by flag, wherever the flag appears (a flag means the same thing on every command). */
const FLAG_VALUES: Readonly<Record<string, ValueSource>> = {
  '--format': { words: OUTPUT_FORMATS },
  '-o': { words: OUTPUT_FORMATS },
  '--from-type': { words: KNOWN_ACCOUNT_TYPES },
  '--to-type': { words: KNOWN_ACCOUNT_TYPES },
  '--permissions': { commaList: KNOWN_PERMISSIONS },
  '--color': { words: PROFILE_COLORS },
  '--fail-on': { commaList: FLAG_KINDS, alone: ['any', 'none'] },
  '--profile': 'profiles',
  '--sub': 'subAccounts',
  '--log-file': 'files',
};

/** Values of a flag on one command, where the flag means something else on another: keyed "path|flag". */
const COMMAND_FLAG_VALUES: Readonly<Record<string, ValueSource>> = {
  'profile add|--post-signature': { words: POST_SIGNATURES },
  'sandbox|--post-signature': { words: SANDBOX_POST_SIGNATURES },
};

/** Shell `case` lines over "$cmdpath|$flag", a command's own values before those of a flag everywhere. */
function flagValueCases(render: (source: ValueSource) => string): string {
  return [
    ...Object.entries(COMMAND_FLAG_VALUES).map(([key, source]) => `      ${sh(key)}) ${render(source)} ;;`),
    ...Object.entries(FLAG_VALUES).map(([flag, source]) => `      *${sh(`|${flag}`)}) ${render(source)} ;;`),
  ].join('\n');
}

/** Positional arguments by command path. */
const POSITIONAL_VALUES: Readonly<Record<string, ValueSource>> = {
  'profile remove': 'profiles',
  'profile use': 'profiles',
  completion: { words: SHELLS },
};

interface FlagSpec {
  flag: string;
  takesValue: boolean;
  description: string;
}

interface CommandSpec {
  /** "" for the root, else the words: "keys list". */
  path: string;
  subcommands: { name: string; description: string }[];
  /** Its own flags and the global ones. */
  flags: FlagSpec[];
}

function flagsOf(options: readonly Option[]): FlagSpec[] {
  return options.flatMap((o) => {
    const out: FlagSpec[] = [];
    const takesValue = o.required || o.optional;
    if (o.long) out.push({ flag: o.long, takesValue, description: o.description });
    if (o.short) out.push({ flag: o.short, takesValue, description: o.description });
    return out;
  });
}

/** Every command of the tree (hidden ones left out), with its flags; the root's own flags stay at the root. */
export function commandTree(program: CommandUnknownOpts): CommandSpec[] {
  const help = program.createHelp();
  // Flags every command takes: the root's, except those that only make sense without a command.
  const globals = flagsOf(program.options.filter((o) => !o.hidden && o.long !== '--version' && o.long !== '--demo'));
  // --demo also runs the commands that reach the demo: offered on those, and on no other.
  const withDemo = flagsOf(program.options.filter((o) => !o.hidden && o.long !== '--version'));
  const specs: CommandSpec[] = [];
  const visit = (command: CommandUnknownOpts, path: string): void => {
    const subcommands = help
      .visibleCommands(command)
      .filter((c) => !isHiddenCommand(c.name()))
      .map((c) => ({ name: c.name(), description: c.description() }));
    const own = flagsOf(help.visibleOptions(command));
    const inherited = DEMO_COMMANDS.includes(path) ? withDemo : globals;
    const flags = path === '' ? own : [...own, ...inherited.filter((g) => !own.some((f) => f.flag === g.flag))];
    specs.push({ path, subcommands, flags });
    for (const sub of command.commands) {
      if (isHiddenCommand(sub.name()) || !subcommands.some((s) => s.name === sub.name())) continue;
      visit(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
    }
  };
  visit(program, '');
  return specs;
}

/** A single-quoted word for bash and zsh. */
function sh(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A single-quoted word for fish (backslash and quote escaped). */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** Descriptions on one line, plain. */
function plain(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The flags that take a value, for the shells' walkers (which step over a flag's value): "|--flag" patterns
 * matched against "path|flag". A flag that takes a value wherever it appears (all of them today) is one
 * pattern for every path; one that would not is listed per command.
 */
export function valueFlags(tree: readonly CommandSpec[]): string[] {
  const taking = new Map<string, boolean[]>();
  for (const c of tree) for (const f of c.flags) taking.set(f.flag, [...(taking.get(f.flag) ?? []), f.takesValue]);
  const everywhere = [...taking].filter(([, seen]) => seen.every(Boolean)).map(([flag]) => `*|${flag}`);
  const somewhere = tree.flatMap((c) => c.flags.filter((f) => f.takesValue && !everywhere.includes(`*|${f.flag}`)).map((f) => `${c.path}|${f.flag}`));
  return [...everywhere, ...somewhere];
}

/** A bash/zsh case pattern with its literal parts quoted (a leading * stays a wildcard; fish takes the pattern quoted whole). */
function globPattern(pattern: string, quote: (text: string) => string): string {
  return pattern.startsWith('*') ? `*${quote(pattern.slice(1))}` : quote(pattern);
}

function valueFlagPatterns(tree: readonly CommandSpec[]): string {
  const patterns = valueFlags(tree).map((p) => globPattern(p, sh));
  return patterns.length > 0 ? patterns.join('|') : "''";
}

/** `case` patterns "path:word" of the subcommands. */
function subcommandPatterns(tree: readonly CommandSpec[]): string {
  const patterns = tree.flatMap((c) => c.subcommands.map((s) => sh(`${c.path}:${s.name}`)));
  return patterns.length > 0 ? patterns.join('|') : "''";
}

function bashValues(source: ValueSource, word: string, fn: string): string {
  if (source === 'profiles') return `COMPREPLY=($(compgen -W "$(${fn}_profiles)" -- "${word}"))`;
  if (source === 'subAccounts') return `COMPREPLY=($(compgen -W "$(${fn}_sub_accounts)" -- "${word}"))`;
  if (source === 'files') return `COMPREPLY=($(compgen -f -- "${word}"))`;
  if ('words' in source) return `COMPREPLY=($(compgen -W ${sh(source.words.join(' '))} -- "${word}"))`;
  return `${fn}_comma_list ${sh(source.commaList.join(' '))} "${word}" ${sh((source.alone ?? []).join(' '))}`;
}

function bashScript(program: CommandUnknownOpts): string {
  const tree = commandTree(program);
  const fn = '_broker_console';
  const flagCases = flagValueCases((source) => bashValues(source, '$cur', fn));
  const optionCases = tree.map((c) => `    ${sh(c.path)}) words=${sh(c.flags.map((f) => f.flag).join(' '))} ;;`).join('\n');
  const wordCases = [
    ...Object.entries(POSITIONAL_VALUES).map(([path, source]) => `    ${sh(path)}) ${bashValues(source, '$cur', fn)}; return 0 ;;`),
    ...tree.filter((c) => c.subcommands.length > 0).map((c) => `    ${sh(c.path)}) words=${sh(c.subcommands.map((s) => s.name).join(' '))} ;;`),
  ].join('\n');
  return `# bash completion for broker-console (generated by \`broker-console completion bash\`).
# Install: add \`source <(broker-console completion bash)\` to ~/.bashrc, or save this output as
# ~/.local/share/bash-completion/completions/broker-console.

# Profile names, from profiles.json (never the keychain).
${fn}_profiles() {
  "\${COMP_WORDS[0]}" __complete profiles 2>/dev/null
}

# Sub-account names of the target (recent, then discovered), from their files (never the keychain).
${fn}_sub_accounts() {
  "\${COMP_WORDS[0]}" __complete sub-accounts 2>/dev/null
}

# A comma-separated list: completes the item after the last comma, leaving out the ones already given.
${fn}_comma_list() {
  local known="$1" cur="$2" alone="$3" prefix="" item list=""
  [[ "$cur" == *,* ]] && prefix="\${cur%,*},"
  # An item that is a whole value (\`any\`) goes with no other.
  for item in $alone; do
    [[ ",$prefix" == *",$item,"* ]] && return
  done
  [[ -z "$prefix" ]] && known="$alone $known"
  for item in $known; do
    [[ ",$prefix" == *",$item,"* ]] || list+="$item "
  done
  COMPREPLY=($(compgen -P "$prefix" -W "$list" -- "\${cur##*,}"))
}

${fn}_takes_value() {
  case "$1|$2" in
    ${valueFlagPatterns(tree)}) return 0 ;;
  esac
  return 1
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" flag="" words="" w i
  # --flag=value: bash splits the word at "=" (COMP_WORDBREAKS).
  [[ "$cur" == "=" ]] && cur=""
  # Which command the words so far name; flags and their values are stepped over, and a flag whose value
  # is the word being completed is noted.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      --*=*) continue ;;
      -*)
        if ${fn}_takes_value "$cmdpath" "$w"; then
          [[ "\${COMP_WORDS[i+1]}" == "=" ]] && ((i++))
          ((i + 1 >= COMP_CWORD)) && flag="$w"
          ((i++))
        fi
        continue ;;
    esac
    case "$cmdpath:$w" in
      ${subcommandPatterns(tree)}) cmdpath="\${cmdpath:+$cmdpath }$w" ;;
    esac
  done
  # The value of a flag.
  if [[ -n "$flag" ]]; then
    case "$cmdpath|$flag" in
${flagCases}
      *) COMPREPLY=() ;;
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    case "$cmdpath" in
${optionCases}
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
  fi
  case "$cmdpath" in
${wordCases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  return 0
}

complete -F ${fn} broker-console
`;
}

function zshValues(source: ValueSource): string {
  if (source === 'profiles') return `compadd -- \${(f)"$(_call_program profiles \${words[1]} __complete profiles 2>/dev/null)"}`;
  if (source === 'subAccounts') return `compadd -- \${(f)"$(_call_program sub-accounts \${words[1]} __complete sub-accounts 2>/dev/null)"}`;
  if (source === 'files') return '_files';
  if ('words' in source) return `compadd -- ${source.words.join(' ')}`;
  return `_broker-console_comma_list ${sh((source.alone ?? []).join(' '))} ${source.commaList.join(' ')}`;
}

function zshScript(program: CommandUnknownOpts): string {
  const tree = commandTree(program);
  const flagCases = flagValueCases(zshValues);
  const describe = (items: { name: string; description: string }[]): string =>
    items.map((i) => sh(`${i.name.replace(/:/g, '\\:')}:${plain(i.description)}`)).join(' ');
  const optionCases = tree
    .map((c) => `    ${sh(c.path)}) items=(${describe(c.flags.map((f) => ({ name: f.flag, description: f.description })))}) ;;`)
    .join('\n');
  const wordCases = [
    ...Object.entries(POSITIONAL_VALUES).map(([path, source]) => `    ${sh(path)}) ${zshValues(source)}; return ;;`),
    ...tree.filter((c) => c.subcommands.length > 0).map((c) => `    ${sh(c.path)}) items=(${describe(c.subcommands)}) ;;`),
  ].join('\n');
  return `#compdef broker-console
# zsh completion for broker-console (generated by \`broker-console completion zsh\`).
# Install: add \`source <(broker-console completion zsh)\` to ~/.zshrc after compinit, or save this output as
# _broker-console in a folder of $fpath.

# A comma-separated list: completes the item after the last comma, leaving out the ones already given.
_broker-console_comma_list() {
  local -a alone=(\${=1})
  shift
  compset -P '*,'
  local -a left
  local item given=",\${IPREFIX##*=}"
  # An item that is a whole value (\`any\`) goes with no other.
  for item in $alone; do
    [[ "$given" == *",$item,"* ]] && return 1
  done
  [[ "$IPREFIX" == *, ]] || left=($alone)
  for item in "$@"; do
    [[ "$given" == *",$item,"* ]] || left+=("$item")
  done
  compadd -S '' -q -- "\${left[@]}"
}

_broker-console_takes_value() {
  case "$1|$2" in
    ${valueFlagPatterns(tree)}) return 0 ;;
  esac
  return 1
}

_broker-console() {
  local cur="\${words[CURRENT]}" cmdpath="" w opt="" i
  local -a items
  # Which command the words so far name; flags and their values are stepped over, and a flag whose value
  # is the word being completed is noted.
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    case "$w" in
      --*=*) continue ;;
      -*)
        if _broker-console_takes_value "$cmdpath" "$w"; then
          ((i + 1 >= CURRENT)) && opt="$w"
          ((i++))
        fi
        continue ;;
    esac
    case "$cmdpath:$w" in
      ${subcommandPatterns(tree)}) cmdpath="\${cmdpath:+$cmdpath }$w" ;;
    esac
  done
  # The value of a flag: --flag value, or --flag=value.
  if [[ -z "$opt" && "$cur" == --*=* ]]; then
    opt="\${cur%%=*}"
    _broker-console_takes_value "$cmdpath" "$opt" || return 1
    compset -P '*='
  fi
  if [[ -n "$opt" ]]; then
    case "$cmdpath|$opt" in
${flagCases}
    esac
    return
  fi
  if [[ "$cur" == -* ]]; then
    case "$cmdpath" in
${optionCases}
    esac
    _describe -t options 'option' items
    return
  fi
  case "$cmdpath" in
${wordCases}
  esac
  (( \${#items} )) && _describe -t commands 'command' items
}

if [[ "\${funcstack[1]}" == "_broker-console" ]]; then
  _broker-console "$@"
else
  compdef _broker-console broker-console
fi
`;
}

function fishValues(source: ValueSource): string {
  if (source === 'profiles') return `-x -a '(__broker_console_profiles)'`;
  if (source === 'subAccounts') return `-x -a '(__broker_console_sub_accounts)'`;
  if (source === 'files') return '-r -F';
  if ('words' in source) return `-x -a ${fishQuote(source.words.join(' '))}`;
  return `-x -a '(__broker_console_comma_list "${(source.alone ?? []).join(' ')}" ${source.commaList.join(' ')})'`;
}

function fishScript(program: CommandUnknownOpts): string {
  const tree = commandTree(program);
  const lines: string[] = [];
  for (const c of tree) {
    const at = `-n ${fishQuote(`__broker_console_at ${fishQuote(c.path)}`)}`;
    for (const s of c.subcommands) lines.push(`complete -c broker-console ${at} -a ${fishQuote(s.name)} -d ${fishQuote(plain(s.description))}`);
    const positional = POSITIONAL_VALUES[c.path];
    if (positional) lines.push(`complete -c broker-console ${at} ${fishValues(positional)}`);
    for (const f of c.flags) {
      const name = f.flag.startsWith('--') ? `-l ${f.flag.slice(2)}` : `-s ${f.flag.slice(1)}`;
      const source = COMMAND_FLAG_VALUES[`${c.path}|${f.flag}`] ?? FLAG_VALUES[f.flag];
      const values = f.takesValue ? (source ? fishValues(source) : '-x') : '';
      lines.push(`complete -c broker-console ${at} ${name} ${values} -d ${fishQuote(plain(f.description))}`.replace(/ {2,}/g, ' '));
    }
  }
  return `# fish completion for broker-console (generated by \`broker-console completion fish\`).
# Install: broker-console completion fish > ~/.config/fish/completions/broker-console.fish

function __broker_console_takes_value
    switch "$argv[1]|$argv[2]"
        case ${valueFlags(tree).map(fishQuote).join(' ')}
            return 0
    end
    return 1
end

# Which command the words before the cursor name; flags and their values are stepped over.
function __broker_console_path
    set -l words (commandline -opc)
    set -l cmdpath ''
    set -l skip 0
    for w in $words[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*'
                continue
            case '-*'
                if __broker_console_takes_value "$cmdpath" $w
                    set skip 1
                end
                continue
        end
        switch "$cmdpath:$w"
            case ${tree.flatMap((c) => c.subcommands.map((s) => fishQuote(`${c.path}:${s.name}`))).join(' ')}
                if test -z "$cmdpath"
                    set cmdpath $w
                else
                    set cmdpath "$cmdpath $w"
                end
        end
    end
    echo $cmdpath
end

function __broker_console_at
    set -l cmdpath (__broker_console_path)
    test "$cmdpath" = "$argv[1]"
end

# Profile names, from profiles.json (never the keychain).
function __broker_console_profiles
    set -l words (commandline -opc)
    $words[1] __complete profiles 2>/dev/null
end

# Sub-account names of the target (recent, then discovered), from their files (never the keychain).
function __broker_console_sub_accounts
    set -l words (commandline -opc)
    $words[1] __complete sub-accounts 2>/dev/null
end

# A comma-separated list: the items after what is typed up to the last comma, leaving out those given.
function __broker_console_comma_list
    set -l cur (commandline -ct | string replace -r '^--[^=]*=' '')
    set -l prefix ''
    if string match -q '*,*' -- $cur
        set prefix (string replace -r '[^,]*$' '' -- $cur)
    end
    # The first argument: the items that are a whole value (any), which go with no other.
    set -l alone (string split -n ' ' -- $argv[1])
    for item in $alone
        if string match -q "*,$item,*" -- ",$prefix"
            return
        end
    end
    set -l items $argv[2..-1]
    if test -z "$prefix"
        set items $alone $items
    end
    for item in $items
        if not string match -q "*,$item,*" -- ",$prefix"
            echo "$prefix$item"
        end
    end
end

complete -c broker-console -f
${lines.join('\n')}
`;
}

function completionScript(shell: Shell, program: CommandUnknownOpts): string {
  if (shell === 'bash') return bashScript(program);
  if (shell === 'zsh') return zshScript(program);
  return fishScript(program);
}

function runCompletion(shell: string, program: Command, ctx: CommandContext): ExitCode {
  const name = shell.trim().toLowerCase();
  if (!(SHELLS as readonly string[]).includes(name)) return reportUsage(ctx, `completion: the shell must be bash, zsh or fish (got '${shell}')`);
  ctx.stdout.write(completionScript(name as Shell, program));
  return EXIT.ok;
}

/**
 * `__complete profiles`: the profile names, one a line, from profiles.json alone (fast; no keychain). An
 * unreadable file gives nothing: a completion never prints an error into the operator's command line.
 */
async function runCompleteValues(what: string, ctx: CommandContext): Promise<ExitCode> {
  if (what === 'sub-accounts') return completeSubAccounts(ctx);
  if (what !== 'profiles') return reportUsage(ctx, `__complete: unknown list '${what}'`);
  try {
    const config = await loadProfiles(contextFolder(ctx));
    const names = config.profiles.map((p) => p.name).filter((n) => PROFILE_NAME.test(n));
    if (names.length > 0) ctx.stdout.write(`${names.join('\n')}\n`);
  } catch {
    // nothing to offer
  }
  return EXIT.ok;
}

/**
 * The base URL the names are kept by, from files and the environment alone: BROKER_BASE_URL, else the profile
 * BROKER_PROFILE names, else the default profile (a --profile typed on the line is not seen by the shell's call).
 */
async function completionTarget(ctx: CommandContext): Promise<string | undefined> {
  const fromEnv = envValue(ctx.env, ENV.baseUrl);
  if (fromEnv !== undefined) {
    const checked = checkBaseUrl(fromEnv);
    return checked.ok ? checked.url : undefined;
  }
  const config = await loadProfiles(contextFolder(ctx));
  const name = envValue(ctx.env, ENV.profile) ?? config.defaultProfile;
  return name === undefined ? undefined : findProfile(config, name)?.baseUrl;
}

/** `__complete sub-accounts`: the target's recent names, then its discovered ones, once each; nothing on any failure. */
async function completeSubAccounts(ctx: CommandContext): Promise<ExitCode> {
  try {
    const target = await completionTarget(ctx);
    if (target === undefined) return EXIT.ok;
    const folder = contextFolder(ctx);
    const [recent, discovered] = await Promise.all([openRecentSubAccounts(folder, target), openDiscoveredSubAccounts(folder, target)]);
    const names = [...new Set([...recent.list(), ...discovered.list().map((d) => d.name)])].filter((n) => isSubAccountName(n) && PROFILE_NAME.test(n));
    if (names.length > 0) ctx.stdout.write(`${names.join('\n')}\n`);
  } catch {
    // nothing to offer
  }
  return EXIT.ok;
}

export function defineCompletion(program: Command, host: CommandHost): CommandUnknownOpts {
  return program
    .command('completion')
    .description('print a completion script: bash, zsh or fish (see docs/commands.md, "Shell completion")')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'completion bash > ~/.local/share/bash-completion/completions/broker-console',
        'completion zsh > "${fpath[1]}/_broker-console"',
        'completion fish > ~/.config/fish/completions/broker-console.fish',
      ),
    )
    .action((shell: string) => {
      host.exit(runCompletion(shell, program, host.context()));
    });
}

/** Asked by the completion scripts at completion time (profile names from profiles.json; never the keychain). */
export function defineCompleteValues(program: Command, host: CommandHost): CommandUnknownOpts {
  return program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action(async (what: string) => {
      host.exit(await runCompleteValues(what, host.context()));
    });
}
