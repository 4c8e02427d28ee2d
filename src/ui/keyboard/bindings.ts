// The keyboard layer: the bindings a screen declares beside its handlers, and which command a keystroke is.
// Key command names are literal types from one list (keyCommands.ts): a misspelt name does not typecheck, in a
// declaration or in a handler's case.
import type { Key } from 'ink';
import type { KeyCommand } from './keyCommands';

/** What the screen reports with its mode: the state its bindings depend on. */
export interface ScreenContext {
  /** The screen shows a failure a retry can fix (network, timeout, 5xx, 429). */
  retryable?: boolean;
  /** The screen's lines are taller than its room: they scroll. */
  scrolls?: boolean;
  /** Those lines are scrolled to their end. */
  scrolledToEnd?: boolean;
  /** The screen's list loaded with no rows: nothing to move to, open or copy. */
  empty?: boolean;
  /** The screen's list failed to load, and no rows of it are in hand: nothing to move to, open or export. */
  failed?: boolean;
  /** The transfer filter names no sub-account (both sides the master): no sub-account keys to open. */
  noSubAccount?: boolean;
  /** A kept `/` search matches none of the list's rows: nothing shown to open, copy or export. */
  noMatch?: boolean;
  /** The list's first page failed to load (or to load again): no page before it, and no line for a notice. */
  firstPageFailed?: boolean;
  /** The list shows its first page: there is no page before it. */
  onFirstPage?: boolean;
  /** The list's page is its last (shorter than the page size): there is no page after it. */
  onLastPage?: boolean;
  /** A `/` search is kept on the list: esc clears it before it goes back. */
  filtered?: boolean;
}

// Every flag once: a flag added to ScreenContext and not here does not typecheck.
const FLAGS: Record<keyof ScreenContext, true> = {
  retryable: true,
  scrolls: true,
  scrolledToEnd: true,
  empty: true,
  failed: true,
  noSubAccount: true,
  noMatch: true,
  firstPageFailed: true,
  onFirstPage: true,
  onLastPage: true,
  filtered: true,
};
export const SCREEN_FLAGS = Object.keys(FLAGS) as readonly (keyof ScreenContext)[];

/** The context with only the flags that are set, so an unset flag and a false one are the same state. */
export function screenContext(context: ScreenContext): ScreenContext {
  return Object.fromEntries(SCREEN_FLAGS.filter((flag) => context[flag]).map((flag) => [flag, true]));
}

/** A mode and the state its screen reported with it. */
export interface ModeInForce<Id extends string = string> {
  id: Id;
  context: ScreenContext;
}

export function sameMode(a: ModeInForce, b: ModeInForce): boolean {
  return a.id === b.id && SCREEN_FLAGS.every((flag) => (a.context[flag] ?? false) === (b.context[flag] ?? false));
}

/** What a binding's availability depends on besides the mode: the screen's state and the target. */
export interface BindingContext extends ScreenContext {
  /** Set when nothing may be changed: why, in one line. */
  readOnly?: string;
  /** The screen is the first of the stack: there is nothing to go back to. */
  firstScreen?: boolean;
}

/** Offered only where the screen shows a failure a retry can fix. */
export const whenRetryable = ({ retryable }: BindingContext): boolean => retryable === true;

/** Disabled while a kept `/` search matches none of the list's rows: the keystroke stays bound and says why. */
export const noMatchReason =
  (reason: string) =>
  ({ noMatch }: BindingContext): string | undefined =>
    noMatch ? reason : undefined;

interface Binding<C extends KeyCommand = KeyCommand> {
  readonly command: C;
  /** Keystrokes: a single character, or one of up, down, left, right, pageup, pagedown, home, end, enter, esc, tab, shift+tab, space, ctrl+<c>. */
  readonly keystrokes: readonly string[];
  /** Short words for the footer; omit to keep it out of the footer. */
  readonly hint?: string;
  readonly description: string;
  /** Whether the binding is offered in this context (absent: always); when it is not, its keystrokes are unbound. */
  readonly when?: (context: BindingContext) => boolean;
  /** Why the command does nothing in this context, if it does not: its keystrokes stay bound (the handler says why),
   *  the footer leaves it out and the help shows the reason in place of the description. */
  readonly disabledReason?: (context: BindingContext) => string | undefined;
}

/** One mode of a screen (its list, its detail, a prompt…): the help's title and the bindings in force. */
export interface ModeDeclaration<C extends KeyCommand = KeyCommand> {
  readonly title: string | ((context: BindingContext) => string);
  readonly bindings: readonly Binding<C>[];
}

/** Declares a screen's modes, keeping every command name as a literal type. */
export function defineModes<const M extends Record<string, ModeDeclaration>>(modes: M): M {
  return modes;
}

/** The command names of a mode (or of a union of modes). */
export type CommandOf<D extends ModeDeclaration> = D['bindings'][number]['command'];

/** True when the keystroke matches the spec (see Binding.keystrokes). */
function keyMatches(spec: string, input: string, keystroke: Key): boolean {
  switch (spec) {
    case 'up':
      return keystroke.upArrow;
    case 'down':
      return keystroke.downArrow;
    case 'left':
      return keystroke.leftArrow;
    case 'right':
      return keystroke.rightArrow;
    case 'pageup':
      return keystroke.pageUp;
    case 'pagedown':
      return keystroke.pageDown;
    case 'home':
      return keystroke.home;
    case 'end':
      return keystroke.end;
    case 'enter':
      return keystroke.return;
    case 'esc':
      return keystroke.escape;
    case 'tab':
      return keystroke.tab && !keystroke.shift;
    case 'shift+tab':
      return keystroke.tab && keystroke.shift;
    case 'space':
      return input === ' ';
    default:
      if (spec.startsWith('ctrl+')) return keystroke.ctrl && input === spec.slice(5);
      return !keystroke.ctrl && !keystroke.meta && input === spec;
  }
}

/** The command of a mode that this keystroke triggers in this context, if any (a disabled one too: its handler says why). */
export function commandFor<C extends KeyCommand>(mode: ModeDeclaration<C>, input: string, keystroke: Key, context: BindingContext = {}): C | undefined {
  for (const binding of mode.bindings) {
    if (binding.when && !binding.when(context)) continue;
    if (binding.keystrokes.some((spec) => keyMatches(spec, input, keystroke))) return binding.command;
  }
  return undefined;
}

export function titleOf(mode: ModeDeclaration, context: BindingContext): string {
  return typeof mode.title === 'string' ? mode.title : mode.title(context);
}

/** The bindings with their text in this context: a disabled one says why and offers no footer hint. */
export function bindingsIn(
  mode: ModeDeclaration,
  context: BindingContext,
): Array<{ command: KeyCommand; keystrokes: readonly string[]; hint?: string; description: string; disabled: boolean }> {
  return mode.bindings
    .filter((b) => !b.when || b.when(context))
    .map((b) => {
      const reason = b.disabledReason?.(context);
      return reason === undefined
        ? { command: b.command, keystrokes: b.keystrokes, hint: b.hint, description: b.description, disabled: false }
        : { command: b.command, keystrokes: b.keystrokes, description: reason, disabled: true };
    });
}

export function displayKey(spec: string): string {
  const names: Record<string, string> = {
    up: '↑',
    down: '↓',
    left: '←',
    right: '→',
    enter: 'enter',
    esc: 'esc',
    tab: 'tab',
    'shift+tab': 'shift+tab',
    space: 'space',
    pageup: 'pgup',
    pagedown: 'pgdn',
  };
  return names[spec] ?? spec;
}
