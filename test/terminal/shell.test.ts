// Words the program puts into commands for a shell: the real shell reads each back as the text it came from,
// and runs nothing in it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBeforeCreatingAgain, keyListCommand } from '../../src/api/serviceCodes';
import { shellQuote, shellWord } from '../../src/terminal/shell';

/** What `sh` makes of `word` as one argument of printf. */
const readBack = (word: string, cwd: string): string => execFileSync('sh', ['-c', `printf '%s' ${word}`], { cwd, encoding: 'utf8' });

describe('shell words', () => {
  it('a plain name stays as it is; anything the shell would read as syntax is quoted', () => {
    expect(shellWord('gridbot2901')).toBe('gridbot2901');
    expect(shellWord('desk.eu-1_a@x')).toBe('desk.eu-1_a@x');
    expect(shellWord('$(id)')).toBe(`'$(id)'`);
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe(`''`);
  });

  it('property: sh reads any word back as its text, and runs nothing in it', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bc-shell-'));
    try {
      const hostile = fc.constantFrom(
        '$(touch ran)',
        '`touch ran`',
        ';touch${IFS}ran',
        '|touch ran',
        '&&touch ran',
        "'",
        '"',
        '\\',
        '*',
        '~',
        '#x',
        '!x',
        '$HOME',
      );
      fc.assert(
        fc.property(fc.array(fc.oneof(hostile, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 })), { minLength: 1, maxLength: 4 }), (parts) => {
          const text = parts.join('').replace(/\0/g, '');
          fc.pre(text !== '');
          expect(readBack(shellWord(text), cwd)).toBe(text);
          expect(existsSync(join(cwd, 'ran'))).toBe(false);
        }),
        { numRuns: 60 },
      );
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('the "check the key list" advice quotes a hostile sub-account name, and names the service', () => {
    const list = keyListCommand('--base-url http://127.0.0.1:8080');
    expect(checkBeforeCreatingAgain('mmbot5143', list)).toBe(
      'the key may exist: check with `broker-console keys list --base-url http://127.0.0.1:8080 --sub mmbot5143` before creating it again',
    );
    expect(checkBeforeCreatingAgain('$(curl${IFS}x|sh)', list)).toBe(
      "the key may exist: check with `broker-console keys list --base-url http://127.0.0.1:8080 --sub '$(curl${IFS}x|sh)'` before creating it again",
    );
    expect(checkBeforeCreatingAgain('mmbot5143', keyListCommand(`--profile ${shellWord("ops's")}`))).toBe(
      "the key may exist: check with `broker-console keys list --profile 'ops'\\''s' --sub mmbot5143` before creating it again",
    );
    // The demo's sandbox ends with the run: no command would reach it (one without options asks the default profile).
    expect(checkBeforeCreatingAgain('mmbot5143', undefined)).toBe(
      "the key may have been made in the demo's sandbox, which ended with this run: nothing is left to check",
    );
  });
});
