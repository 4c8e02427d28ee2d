// Every route's screen, as each screen module declares it: what to draw, and the mode the chrome starts from.
import type { ReactNode } from 'react';
import { screenContext } from '../keyboard/bindings';
import type { ActiveMode, ScreenId } from '../keyboard/modes';
import type { Route } from '../navigation';
import type { ScreenDeclaration } from '../screenFrame';
import { ADD_PROFILE_SCREEN } from './AddProfileScreen';
import { CREATE_KEY_SCREEN } from './CreateKeyScreen';
import { DISCOVER_SCREEN } from './DiscoverScreen';
import { KEY_AUDIT_SCREEN } from './KeyAuditScreen';
import { KEYS_SCREEN } from './KeyList';
import { PROFILES_SCREEN } from './ProfileSwitcher';
import { SECRET_SCREEN } from './SecretReveal';
import { SESSION_CREDENTIALS_SCREEN } from './SessionCredentialsScreen';
import { PICKER_SCREEN } from './SubAccountPicker';
import { TRANSFERS_SCREEN } from './TransferBrowser';
import { TRANSFER_FILTER_SCREEN } from './TransferFilterForm';
import { WELCOME_SCREEN } from './WelcomeScreen';

const SCREENS: { [R in Route['screen']]: ScreenDeclaration<R> } = {
  welcome: WELCOME_SCREEN,
  addProfile: ADD_PROFILE_SCREEN,
  sessionCredentials: SESSION_CREDENTIALS_SCREEN,
  profiles: PROFILES_SCREEN,
  picker: PICKER_SCREEN,
  discover: DISCOVER_SCREEN,
  keys: KEYS_SCREEN,
  keyAudit: KEY_AUDIT_SCREEN,
  createKey: CREATE_KEY_SCREEN,
  secret: SECRET_SCREEN,
  transferFilter: TRANSFER_FILTER_SCREEN,
  transfers: TRANSFERS_SCREEN,
};

function declarationOf<R extends Route['screen']>(route: Extract<Route, { screen: R }>): ScreenDeclaration<R> {
  return SCREENS[route.screen as R];
}

export function ScreenForRoute({ route }: { route: Route }): ReactNode {
  return declarationOf(route).render(route);
}

/** The mode a route's screen opens in. */
function screenIdOf(route: Route): ScreenId {
  return SCREENS[route.screen].mode;
}

/** The mode a route's screen opens in, with the state the route alone gives its bindings. */
export function openingMode(route: Route): ActiveMode {
  return { id: screenIdOf(route), context: screenContext(declarationOf(route).context?.(route) ?? {}) };
}
