import React from 'react';
import type { ScreenId } from '../keymap';
import type { Route } from '../navigation';
import { CreateKeyScreen } from './CreateKeyScreen';
import { KeyList } from './KeyList';
import { SecretReveal } from './SecretReveal';
import { SubAccountPicker } from './SubAccountPicker';
import { TransferBrowser } from './TransferBrowser';
import { TransferFilterForm } from './TransferFilterForm';

export function ScreenForRoute({ route }: { route: Route }) {
  switch (route.screen) {
    case 'picker': return <SubAccountPicker />;
    case 'keys': return <KeyList subAccount={route.subAccount} highlightApiKey={route.highlightApiKey} refreshToken={route.refreshToken} />;
    case 'createKey': return <CreateKeyScreen subAccount={route.subAccount} />;
    case 'secret': return <SecretReveal created={route.created} />;
    case 'transferFilter': return <TransferFilterForm initial={route.initial} />;
    case 'transfers': return <TransferBrowser query={route.query} />;
  }
}

export function screenIdOf(route: Route): ScreenId {
  return route.screen;
}
