// "Did you mean …?" for a mistyped command: `trnasfers` → transfers, `key list` → keys list. Commander
// suggests for subcommands and options itself; the root takes any words (no arguments opens the console),
// so an unknown first word is answered here, with the same distance rule commander uses.

import { editDistance } from '../api/didYouMean';

/** A command as the suggestion sees it: its name and the names of its subcommands. */
interface CommandWords {
  name: string;
  subcommands: readonly string[];
}

const MAX_DISTANCE = 3;
const MIN_SIMILARITY = 0.4;

/** The closest candidates (all those at the best distance), or none when nothing is close enough. */
export function similar(word: string, candidates: readonly string[]): string[] {
  const typed = word.toLowerCase();
  let best = MAX_DISTANCE;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(typed, candidate.toLowerCase());
    const length = Math.max(typed.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) {
      best = distance;
      found = [candidate];
    } else if (distance === best) found.push(candidate);
  }
  return found.sort((x, y) => x.localeCompare(y));
}

/**
 * What the operator probably meant by these words: a command, or a command and its subcommand when the
 * next word is (close to) one of its subcommands. Undefined when nothing is close.
 */
export function suggestCommand(words: readonly string[], commands: readonly CommandWords[]): string[] {
  const [first, second] = words;
  if (first === undefined) return [];
  const exact = commands.find((c) => c.name === first);
  const matches = exact
    ? [exact]
    : similar(
        first,
        commands.map((c) => c.name),
      ).map((name) => commands.find((c) => c.name === name)!);
  return matches.map((command) => {
    if (command.subcommands.length === 0 || second === undefined || second.startsWith('-')) return command.name;
    const sub = command.subcommands.includes(second) ? [second] : similar(second, command.subcommands);
    return sub.length === 1 ? `${command.name} ${sub[0]}` : command.name;
  });
}

/** The line commander would print after an unknown command or option: "\n(Did you mean transfers?)" or "". */
export function suggestionText(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  return suggestions.length === 1 ? `\n(Did you mean ${suggestions[0]}?)` : `\n(Did you mean one of ${suggestions.join(', ')}?)`;
}
