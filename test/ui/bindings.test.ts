import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { bindingsIn, commandFor, defineModes, titleOf, type CommandOf } from '../../src/ui/keyboard/bindings';
import { KEY_COMMANDS } from '../../src/ui/keyboard/keyCommands';
import { footerHints, MODES } from '../../src/ui/keyboard/modes';
import { KEY_LIST_MODES } from '../../src/ui/screens/KeyList';
import { TRANSFER_MODES } from '../../src/ui/screens/TransferBrowser';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} as Key;

describe('typed bindings', () => {
  it('a handler switches on the command names its mode declares; a misspelt one does not typecheck', () => {
    const handled: string[] = [];
    for (const input of ['n', ']', 'p', 'z']) {
      switch (commandFor(TRANSFER_MODES.transfers, input, noKey)) {
        case 'nextPage':
          handled.push(`${input}: next`);
          break;
        // @ts-expect-error a command the transfers list does not declare
        case 'nextPag':
          handled.push(`${input}: misspelt`);
          break;
        case 'previousPage':
          handled.push(`${input}: previous`);
          break;
        case undefined:
          handled.push(`${input}: unbound`);
          break;
      }
    }
    expect(handled).toEqual(['n: next', ']: next', 'p: previous', 'z: unbound']);
  });

  it('a declaration names a command from the one list: a misspelt name does not typecheck, and no listed name is unused', () => {
    const modes = defineModes({
      demo: {
        title: 'Demo',
        // @ts-expect-error not a command the console has ("refesh" for "refresh")
        bindings: [{ command: 'refesh', keystrokes: ['r'], description: 'Reload' }],
      },
    });
    expect(modes.demo?.bindings[0]?.command).toBe('refesh');
    const bound = new Set(Object.values(MODES).flatMap((mode) => mode.bindings.map((b) => b.command)));
    expect([...bound].filter((command) => !(KEY_COMMANDS as readonly string[]).includes(command))).toEqual([]);
    expect(KEY_COMMANDS.filter((command) => !bound.has(command))).toEqual([]);
  });

  it('a mode declares its command names as literal types', () => {
    const modes = defineModes({ demo: { title: 'Demo', bindings: [{ command: 'go', keystrokes: ['g'], description: 'Go' }] } });
    const go: CommandOf<typeof modes.demo> = 'go';
    // @ts-expect-error not a command of the demo mode
    const stop: CommandOf<typeof modes.demo> = 'stop';
    expect([go, stop]).toEqual(['go', 'stop']);
    expect(commandFor(modes.demo, 'g', noKey)).toBe('go');
  });

  it('every mode has a title and bindings with keys and a description; no key is bound twice in a mode, in any context', () => {
    for (const [id, mode] of Object.entries(MODES)) {
      expect(mode.bindings.length, id).toBeGreaterThan(0);
      for (const context of [
        {},
        { retryable: true },
        { scrolls: true },
        { empty: true },
        { failed: true },
        { failed: true, retryable: true },
        { readOnly: 'read-only profile' },
      ]) {
        const keys = bindingsIn(mode, context).flatMap((b) => {
          expect(b.description, id).not.toBe('');
          expect(b.keystrokes.length, `${id} ${b.command}`).toBeGreaterThan(0);
          return b.keystrokes;
        });
        expect(new Set(keys).size, `${id} ${JSON.stringify(context)}`).toBe(keys.length);
      }
    }
  });

  it('a binding offered only in some states: r retries a failed page only when a retry can help', () => {
    expect(commandFor(TRANSFER_MODES.transfers, 'r', noKey, { failed: true, retryable: true })).toBe('refresh');
    expect(commandFor(TRANSFER_MODES.transfers, 'r', noKey, { failed: true, retryable: false })).toBeUndefined();
    expect(footerHints('transfers', { failed: true, retryable: true })[0]).toBe('r retry');
    expect(footerHints('transfers', { failed: true })).not.toContain('r retry');
    expect(bindingsIn(MODES.transfers, { failed: true }).find((b) => b.command === 'filter')?.description).toBe('Change the filter');
    expect(bindingsIn(MODES.transfers, { failed: true, retryable: true }).find((b) => b.command === 'filter')?.description).toBe('Change the filter');
  });

  it('a failed or empty page offers no key that needs rows; the page with rows offers them', () => {
    const rowKeys = ['j', 'k', 'x', '/', 'o', 'v', 'K'];
    for (const context of [{ failed: true }, { failed: true, retryable: true }, { empty: true }]) {
      for (const key of rowKeys) expect(commandFor(TRANSFER_MODES.transfers, key, noKey, context), `${key} ${JSON.stringify(context)}`).toBeUndefined();
      expect(commandFor(TRANSFER_MODES.transfers, 'f', noKey, context)).toBe('filter');
      expect(commandFor(TRANSFER_MODES.transfers, 'g', noKey, context)).toBe('jump');
    }
    for (const key of rowKeys) expect(commandFor(TRANSFER_MODES.transfers, key, noKey, {}), key).toBeDefined();
    // A failed page has no next page to ask for; an empty one keeps n to say there is none.
    expect(commandFor(TRANSFER_MODES.transfers, 'n', noKey, { failed: true })).toBeUndefined();
    expect(commandFor(TRANSFER_MODES.transfers, 'n', noKey, { empty: true })).toBe('nextPage');
    // Page 1, empty or not: p says there is no page before it (bound, out of the footer); past the end it goes back.
    for (const context of [{ onFirstPage: true }, { onFirstPage: true, empty: true }]) {
      expect(commandFor(TRANSFER_MODES.transfers, 'p', noKey, context)).toBe('previousPage');
      expect(footerHints('transfers', context)).not.toContain('p/[ prev');
      expect(bindingsIn(MODES.transfers, context).find((b) => b.command === 'previousPage')?.description).toBe('Previous page (this is the first page)');
    }
    expect(bindingsIn(MODES.transfers, { empty: true }).find((b) => b.command === 'previousPage')?.description).toMatch(/from past the end/);
    expect(footerHints('transfers', { empty: true })).toContain('p/[ prev');
    expect(titleOf(MODES.transfers, { empty: true })).toBe('Transfers (an empty page)');
    expect(titleOf(MODES.transfers, { failed: true })).toBe('Transfers (the page failed)');
  });

  it('a key list that could not be loaded offers t, and r only where a retry can help; nothing that needs keys', () => {
    for (const key of ['j', 'c', 'n', 'a', '/']) expect(commandFor(KEY_LIST_MODES.keys, key, noKey, { failed: true }), key).toBeUndefined();
    expect(commandFor(KEY_LIST_MODES.keys, 't', noKey, { failed: true })).toBe('transfers');
    expect(commandFor(KEY_LIST_MODES.keys, 'r', noKey, { failed: true })).toBeUndefined();
    expect(commandFor(KEY_LIST_MODES.keys, 'r', noKey, { failed: true, retryable: true })).toBe('refresh');
    expect(footerHints('keys', { failed: true, retryable: true })[0]).toBe('r retry');
    expect(titleOf(MODES.keys, { failed: true })).toBe('API keys (could not be loaded)');
    // Keys in hand whose reload failed: r says retry, as the error line does.
    expect(footerHints('keys', { retryable: true })).toContain('r retry');
    expect(footerHints('keys', { retryable: true })).not.toContain('r refresh');
    expect(footerHints('keys', {})).toContain('r refresh');
    for (const key of ['j', 'c', 'n', 'a', '/', 'r']) expect(commandFor(KEY_LIST_MODES.keys, key, noKey, {}), key).toBeDefined();
  });

  it('only the chrome imports the registry of modes at run time: it imports every screen, so a screen doing so would be a cycle', () => {
    const ui = join(import.meta.dirname, '../../src/ui');
    const files = readdirSync(ui, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const importers = files.filter((f) => /^import (?!type )[^;]*from '[./]+(?:keyboard\/)?modes';/m.test(readFileSync(join(ui, f), 'utf8')));
    expect(importers.sort()).toEqual(['App.tsx', 'components/Footer.tsx', 'components/HelpOverlay.tsx']);
  });
});
