// Suggestions for mistyped commands, and validation messages said with the flag the operator typed.
import { describe, expect, it } from 'vitest';
import { type FieldError, type FieldName, validateTransferQuery } from '../../src/api/validation';
import { FLAG_OF_FIELD, flagMessage } from '../../src/commands/context';
import { similar, suggestCommand, suggestionText } from '../../src/commands/suggest';

const TREE = [
  { name: 'keys', subcommands: ['list', 'create'] },
  { name: 'transfers', subcommands: [] },
  { name: 'sandbox', subcommands: [] },
  { name: 'profile', subcommands: ['add', 'list', 'remove', 'use'] },
];

describe('suggestCommand', () => {
  it.each([
    [['trnasfers'], ['transfers']],
    [['transfer'], ['transfers']],
    [['key', 'list'], ['keys list']],
    [['key', 'lsit'], ['keys list']],
    [['keys', 'crate'], ['keys create']],
    [['key'], ['keys']],
    [['key', '--sub', 'x'], ['keys']],
    [['profiles', 'use', 'x'], ['profile use']],
    [['sandbx', '--json'], ['sandbox']],
    [['xyzzy'], []],
    [['k'], []],
  ])('%j → %j', (words, expected) => {
    expect(suggestCommand(words, TREE)).toEqual(expected);
  });

  it('says it as commander does', () => {
    expect(suggestionText(['transfers'])).toBe('\n(Did you mean transfers?)');
    expect(suggestionText(['a', 'b'])).toBe('\n(Did you mean one of a, b?)');
    expect(suggestionText([])).toBe('');
  });

  it('a transposition is one edit, as commander counts it', () => {
    expect(similar('trnasfers', ['transfers', 'sandbox'])).toEqual(['transfers']);
    expect(similar('--form'.slice(2), ['format', 'from-type'])).toEqual(['format']);
  });
});

describe('flagMessage', () => {
  it('names the flag for every field of the shared validation', () => {
    const fields = Object.keys(FLAG_OF_FIELD) as FieldName[];
    for (const field of fields) {
      const error: FieldError = { field, message: `${field}: required` };
      expect(flagMessage(error)).toBe(`${FLAG_OF_FIELD[field]}: required`);
    }
  });

  it('renames wire names in the reason, but never inside a quoted value', () => {
    const result = validateTransferQuery({ fromAccountType: 'SPOT', toAccountType: 'FUTURE', start: 'now', end: '7d' }, Date.now());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(flagMessage(result.errors[0]!)).toMatch(/^--end: must not be before --start \(/);
    expect(flagMessage({ field: 'startTime', message: "startTime: 'startTime' is not a time" })).toBe("--start: 'startTime' is not a time");
    expect(flagMessage({ field: 'toAccountType', message: 'toAccountType: required (e.g. SPOT, FUTURE)' })).toBe('--to-type: required (e.g. SPOT, FUTURE)');
  });
});
