// The screen stack: routes are plain data, and leaving a screen drops what its route carried (the secret too).
import React, { createContext, useContext, type Dispatch, type ReactNode } from 'react';
import type { CreatedKey, TransferQuery } from '../api/types';

export type Route =
  | { screen: 'welcome' }
  | { screen: 'addProfile' }
  | { screen: 'sessionCredentials'; profile?: string; baseUrl?: string }
  | { screen: 'profiles' }
  | { screen: 'picker' }
  | { screen: 'discover' }
  /** landing: set each time the list is brought up onto a key, so the cursor goes to it again. */
  | { screen: 'keys'; subAccount: string; highlightApiKey?: string; refreshToken?: number; landing?: number }
  /** One sub-account (from its key list) or several (recent and discovered, from the picker). */
  | { screen: 'keyAudit'; subAccounts: string[] }
  | { screen: 'createKey'; subAccount: string }
  /** attempt: the trail's attempt that says "not confirmed stored" until y is pressed here. */
  | { screen: 'secret'; created: CreatedKey; attempt?: string; unrecorded?: boolean }
  /** overResults: opened with `f` on results, which stay below it as they were until a new search replaces them.
   *  subAccount: opened from that sub-account's keys or audit, so the form starts on its transfers. */
  | { screen: 'transferFilter'; initial?: TransferQuery; overResults?: boolean; subAccount?: string }
  /** fromFilter: searched from the filter form, whose draft holds the values as typed (`3d` stays a span). */
  | { screen: 'transfers'; query: TransferQuery; fromFilter?: boolean };

interface StackEntry {
  id: number;
  route: Route;
  /** Brought up from this place in the stack: esc puts it back there rather than closing it. */
  returnTo?: number;
}

export interface NavigationState {
  stack: StackEntry[];
  nextId: number;
  helpOpen: boolean;
}

export type NavigationAction =
  /** Opens a screen; one already on the stack comes to the top as it was left (see `push` below). */
  | { type: 'push'; route: Route }
  | { type: 'back' }
  | { type: 'replaceTop'; route: Route }
  /** Back to the key list, refreshed: drops the form and the secret screen (and with it the secret). */
  | { type: 'returnToKeys'; subAccount: string; highlightApiKey?: string }
  /** A sub-account's key list below is out of date (a key found since): it reads its keys again, in place. */
  | { type: 'refreshKeys'; subAccount: string }
  /** A search from a filter opened on results: the new results replace the old ones, and this filter the one below them. */
  | { type: 'searchOverResults'; route: Route }
  | { type: 'toggleHelp' }
  | { type: 'closeHelp' };

export const initialNavigation: NavigationState = { stack: [{ id: 0, route: { screen: 'picker' } }], nextId: 1, helpOpen: false };

export function navigationReducer(state: NavigationState, action: NavigationAction): NavigationState {
  switch (action.type) {
    case 'push': {
      // A screen is on the stack once: opening it again brings it to the top (same entry, so as it was left),
      // the screens between staying where they are, so esc goes back to where the operator came from.
      const at = state.stack.findIndex((entry) => placeOf(entry.route) === placeOf(action.route));
      const others = at < 0 ? state.stack : state.stack.filter((_, i) => i !== at);
      const resumed = at < 0 ? undefined : resume(state.stack[at]!.route, action.route, state.nextId);
      // From right under the top (keys and audit taking turns) the two swap; from further down, esc puts it back.
      const returnTo = at >= 0 && at < state.stack.length - 2 ? at : undefined;
      if (resumed) return { ...state, stack: [...others, { id: state.stack[at]!.id, route: resumed, returnTo }], nextId: state.nextId + 1, helpOpen: false };
      return { ...state, stack: [...others, { id: state.nextId, route: action.route }], nextId: state.nextId + 1, helpOpen: false };
    }
    case 'back': {
      if (state.stack.length <= 1) return state;
      const top = state.stack.at(-1)!;
      const below = state.stack.slice(0, -1);
      if (top.returnTo === undefined) return { ...state, stack: below, helpOpen: false };
      // Back along the way it came: the screen goes back to its place, as it is, under the one it was opened from.
      const at = Math.min(top.returnTo, below.length - 1);
      return { ...state, stack: [...below.slice(0, at), { id: top.id, route: top.route }, ...below.slice(at)], helpOpen: false };
    }
    case 'replaceTop':
      return { ...state, stack: [...state.stack.slice(0, -1), { id: state.nextId, route: action.route }], nextId: state.nextId + 1 };
    case 'returnToKeys': {
      const stack = state.stack
        .filter((entry) => entry.route.screen !== 'secret' && entry.route.screen !== 'createKey')
        .map((entry) =>
          entry.route.screen === 'keys' && entry.route.subAccount === action.subAccount
            ? { ...entry, route: { ...entry.route, highlightApiKey: action.highlightApiKey, refreshToken: state.nextId } }
            : entry,
        );
      // The secret opened with no key list of its sub-account below it: its keys are where y lands, never an empty stack.
      if (stack.some((entry) => entry.route.screen === 'keys' && entry.route.subAccount === action.subAccount)) {
        return { ...state, stack, nextId: state.nextId + 1, helpOpen: false };
      }
      const keys: Route = {
        screen: 'keys',
        subAccount: action.subAccount,
        refreshToken: state.nextId,
        ...(action.highlightApiKey ? { highlightApiKey: action.highlightApiKey } : {}),
      };
      return { ...state, stack: [...stack, { id: state.nextId + 1, route: keys }], nextId: state.nextId + 2, helpOpen: false };
    }
    case 'refreshKeys':
      return {
        ...state,
        stack: state.stack.map((entry) =>
          entry.route.screen === 'keys' && entry.route.subAccount === action.subAccount
            ? { ...entry, route: { ...entry.route, refreshToken: state.nextId } }
            : entry,
        ),
        nextId: state.nextId + 1,
      };
    case 'searchOverResults': {
      const filter = state.stack.at(-1)!;
      if (filter.route.screen !== 'transferFilter') return state;
      let below = state.stack.slice(0, -1);
      if (below.at(-1)?.route.screen === 'transfers') below = below.slice(0, -1);
      if (below.at(-1)?.route.screen === 'transferFilter') below = below.slice(0, -1);
      // The same entry (same id), so the form keeps what was typed in it.
      const kept = { ...filter, route: { screen: 'transferFilter' as const, initial: filter.route.initial } };
      return { ...state, stack: [...below, kept, { id: state.nextId, route: action.route }], nextId: state.nextId + 1, helpOpen: false };
    }
    case 'toggleHelp':
      return { ...state, helpOpen: !state.helpOpen };
    case 'closeHelp':
      return { ...state, helpOpen: false };
  }
}

/** Where a route is on the stack: a sub-account's keys are a place each; a filter over results is not the form below them. */
export function placeOf(route: Route): string {
  switch (route.screen) {
    case 'keys':
      return `keys ${route.subAccount}`;
    case 'transferFilter':
      return route.overResults ? 'transferFilter over results' : 'transferFilter';
    default:
      return route.screen;
  }
}

/** The route an entry keeps when it is opened again, or undefined when it must start afresh (a new search, another audit). */
function resume(was: Route, opened: Route, token: number): Route | undefined {
  if (was.screen === 'keys' && opened.screen === 'keys') {
    return opened.highlightApiKey === undefined ? was : { ...was, highlightApiKey: opened.highlightApiKey, landing: token };
  }
  if (opened.screen === 'transfers') return undefined;
  return JSON.stringify(was) === JSON.stringify(opened) ? was : undefined;
}

const NavigationContext = createContext<Dispatch<NavigationAction> | undefined>(undefined);

export function NavigationProvider({ dispatch, children }: { dispatch: Dispatch<NavigationAction>; children: ReactNode }) {
  return <NavigationContext.Provider value={dispatch}>{children}</NavigationContext.Provider>;
}

export function useNavigate(): Dispatch<NavigationAction> {
  const dispatch = useContext(NavigationContext);
  if (!dispatch) throw new Error('useNavigate outside NavigationProvider');
  return dispatch;
}

/** Breadcrumb words for the stack, in the operator's terms. */
export function breadcrumbs(stack: readonly StackEntry[]): string[] {
  return stack.flatMap(({ route }) => {
    switch (route.screen) {
      case 'welcome':
        return ['Welcome'];
      case 'addProfile':
        return ['Add a profile'];
      case 'sessionCredentials':
        return ['Session credentials'];
      case 'profiles':
        return ['Profiles'];
      case 'picker':
        return ['Sub-accounts'];
      case 'discover':
        return ['Discover'];
      case 'keys':
        return [route.subAccount, 'Keys'];
      case 'keyAudit':
        return ['Audit'];
      case 'createKey':
        return ['New key'];
      case 'secret':
        return ['Secret'];
      case 'transferFilter':
        return [route.overResults ? 'Filter' : 'Transfers'];
      case 'transfers':
        return ['Results'];
    }
  });
}
