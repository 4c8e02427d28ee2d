// Every mode the console can be in, from the screens that declare them, and what the chrome draws from them:
// the footer's hints, the `?` help, and whether q quits, so help never drifts from behaviour. It imports every
// screen, so only the chrome imports it at run time (screens import its types only: no cycle).
import { CREDENTIALS_MODES } from '../components/CredentialsForm';
import { CREATE_KEY_MODES } from '../screens/CreateKeyScreen';
import { DISCOVER_MODES } from '../screens/DiscoverScreen';
import { EXPORT_MODES } from '../screens/ExportPanel';
import { KEY_AUDIT_MODES } from '../screens/KeyAuditScreen';
import { KEY_LIST_MODES } from '../screens/KeyList';
import { PROFILE_MODES } from '../screens/ProfileSwitcher';
import { SECRET_MODES } from '../screens/SecretReveal';
import { PICKER_MODES } from '../screens/SubAccountPicker';
import { TRANSFER_MODES } from '../screens/TransferBrowser';
import { CHART_MODES } from '../screens/TransferChart';
import { TRANSFER_DETAIL_MODES } from '../screens/TransferDetail';
import { TRANSFER_FILTER_MODES } from '../screens/TransferFilterForm';
import { WELCOME_MODES } from '../screens/WelcomeScreen';
import type { Key } from 'ink';
import { bindingsIn, commandFor, defineModes, type BindingContext, type ModeDeclaration, type ModeInForce } from './bindings';

const helpScrolls = (c: BindingContext): boolean => c.scrolls === true;

/** The keys that work on every screen; App.tsx handles them. */
export const GLOBAL_MODES = defineModes({
  global: {
    title: 'Everywhere',
    bindings: [
      { command: 'help', keystrokes: ['?'], hint: '? help', description: 'Show or hide this help (in the note field, ? is text)' },
      {
        command: 'back',
        keystrokes: ['esc'],
        hint: 'esc clear filter',
        description: 'Clear the kept filter (esc again goes back)',
        when: (c) => c.filtered === true,
      },
      { command: 'back', keystrokes: ['esc'], hint: 'esc back', description: 'Go back one screen', when: (c) => !c.firstScreen && c.filtered !== true },
      { command: 'profiles', keystrokes: ['ctrl+p'], description: 'Switch profile, the demo, or add a profile' },
      { command: 'transfers', keystrokes: ['ctrl+t'], description: 'Browse universal transfers, once a target is open' },
      { command: 'interrupt', keystrokes: ['ctrl+c'], description: 'Quit from anywhere; a secret shown or a create under way asks first' },
    ],
  },
});

/** The keys of the open help (not a screen: no mode of MODES); App.tsx handles them, the help footer shows them. */
export const HELP_MODES = defineModes({
  helpOpen: {
    title: 'Help',
    bindings: [
      { command: 'down', keystrokes: ['down', 'j'], hint: '↑↓ scroll', description: 'Scroll the help down', when: helpScrolls },
      { command: 'up', keystrokes: ['up', 'k'], description: 'Scroll the help up', when: helpScrolls },
      { command: 'pageDown', keystrokes: ['pagedown'], description: 'Scroll the help down a page', when: helpScrolls },
      { command: 'pageUp', keystrokes: ['pageup'], description: 'Scroll the help up a page', when: helpScrolls },
      { command: 'first', keystrokes: ['home', 'g'], hint: 'g/G top/end', description: 'Top of the help', when: helpScrolls },
      { command: 'last', keystrokes: ['end', 'G'], description: 'End of the help', when: helpScrolls },
      { command: 'close', keystrokes: ['?', 'esc', 'q'], hint: '? or esc close', description: 'Close the help' },
    ],
  },
});

export const MODES = {
  ...GLOBAL_MODES,
  ...WELCOME_MODES,
  ...CREDENTIALS_MODES,
  ...PROFILE_MODES,
  ...PICKER_MODES,
  ...KEY_LIST_MODES,
  ...KEY_AUDIT_MODES,
  ...CREATE_KEY_MODES,
  ...SECRET_MODES,
  ...TRANSFER_FILTER_MODES,
  ...TRANSFER_MODES,
  ...TRANSFER_DETAIL_MODES,
  ...EXPORT_MODES,
  ...DISCOVER_MODES,
  ...CHART_MODES,
} satisfies Record<string, ModeDeclaration>;

/** A mode of a screen: which bindings are in force, for dispatch, footer, help and q. */
export type ScreenId = keyof typeof MODES;

/** The mode a screen is in, with the state its bindings depend on. */
export type ActiveMode = ModeInForce<ScreenId>;

/** Whether this keystroke quits here: only where nothing typed could be lost (the mode's bindings say so). */
export function quitsHere(screen: ScreenId, input: string, keystroke: Key, context: BindingContext = {}): boolean {
  return commandFor(MODES[screen] as ModeDeclaration, input, keystroke, context) === 'quit';
}

/** The footer while help is open: its keys, scrolling only when the help is taller than its room. */
export function helpFooterHints(scrolls: boolean): string[] {
  return bindingsIn(HELP_MODES.helpOpen, { scrolls }).flatMap((b) => (b.hint ? [b.hint] : []));
}

/** Footer text of a mode: its hinted bindings that are not disabled, then the global ones. */
export function footerHints(screen: ScreenId, context: BindingContext = {}): string[] {
  const own = bindingsIn(MODES[screen], context);
  const ownEsc = own.some((b) => b.keystrokes.includes('esc') && b.hint);
  return [...own, ...bindingsIn(MODES.global, context).filter((b) => !(ownEsc && b.command === 'back'))].flatMap((b) => (b.hint ? [b.hint] : []));
}
