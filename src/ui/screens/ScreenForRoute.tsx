import React from 'react';
import type { ScreenId } from '../keyboard/modes';
import type { Route } from '../navigation';
import { AddProfileScreen } from './AddProfileScreen';
import { CreateKeyScreen } from './CreateKeyScreen';
import { DiscoverScreen } from './DiscoverScreen';
import { ProfileSwitcher } from './ProfileSwitcher';
import { SessionCredentialsScreen } from './SessionCredentialsScreen';
import { WelcomeScreen } from './WelcomeScreen';
import { KeyAuditScreen } from './KeyAuditScreen';
import { KeyList } from './KeyList';
import { SecretReveal } from './SecretReveal';
import { SubAccountPicker } from './SubAccountPicker';
import { TransferBrowser } from './TransferBrowser';
import { TransferFilterForm } from './TransferFilterForm';

export function ScreenForRoute({ route }: { route: Route }) {
  switch (route.screen) {
    case 'welcome': return <WelcomeScreen />;
    case 'addProfile': return <AddProfileScreen />;
    case 'sessionCredentials': return <SessionCredentialsScreen profile={route.profile} baseUrl={route.baseUrl} />;
    case 'profiles': return <ProfileSwitcher />;
    case 'picker': return <SubAccountPicker />;
    case 'discover': return <DiscoverScreen />;
    case 'keys': return <KeyList subAccount={route.subAccount} highlightApiKey={route.highlightApiKey} refreshToken={route.refreshToken} />;
    case 'keyAudit': return <KeyAuditScreen subAccounts={route.subAccounts} />;
    case 'createKey': return <CreateKeyScreen subAccount={route.subAccount} />;
    case 'secret': return <SecretReveal created={route.created} />;
    case 'transferFilter': return <TransferFilterForm initial={route.initial} />;
    case 'transfers': return <TransferBrowser query={route.query} />;
  }
}

export function screenIdOf(route: Route): ScreenId {
  switch (route.screen) {
    case 'addProfile':
    case 'sessionCredentials':
      return 'credentials';
    default:
      return route.screen;
  }
}
