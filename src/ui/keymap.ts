// Key bindings are data: screens match keys through this table, and the help overlay and footer are drawn
// from it, so help never drifts from behaviour.
import type { Key } from 'ink';

export type ScreenId = 'global' | 'welcome' | 'credentials' | 'profiles' | 'picker' | 'keys' | 'keysEmpty' | 'keysError' | 'keysRetry' | 'keysFilter' | 'keyDetail' | 'createKey' | 'review' | 'reviewSending' | 'reviewUnknown' | 'reviewRejected' | 'secret' | 'secretConfirm' | 'transferFilter' | 'transfers' | 'transferDetail' | 'export' | 'transfersEmpty' | 'transfersError' | 'transfersRetry' | 'transferPrompt' | 'transfersFilterLine' | 'transferDetailScroll' | 'exportRunning' | 'exportDone' | 'exportFailed' | 'exportRetry' | 'keyAudit' | 'discover' | 'discoverRunning' | 'discoverDone' | 'transfersChart' | 'transfersChartLoading'
  // The key list of a read-only target: the keys and keysEmpty tables without the way to a new key (derived below).
  | ReadOnlyScreenId;

type ReadOnlyScreenId = 'keysReadOnly' | 'keysEmptyReadOnly';

export interface Binding {
  command: string;
  /** Key specs: a single character, or one of up, down, left, right, pageup, pagedown, home, end, enter, esc, tab, shift+tab, space, ctrl+<c>. */
  keys: readonly string[];
  /** Short words for the footer; omit to keep it out of the footer. */
  hint?: string;
  description: string;
}

const global: Binding[] = [
  { command: 'help', keys: ['?'], hint: '? help', description: 'Show or hide this help (in the note field, ? is text)' },
  { command: 'back', keys: ['esc'], hint: 'esc back', description: 'Go back one screen' },
  { command: 'profiles', keys: ['ctrl+p'], description: 'Switch profile, the demo, or add a profile' },
  { command: 'transfers', keys: ['ctrl+t'], description: 'Browse universal transfers, from anywhere' },
  { command: 'interrupt', keys: ['ctrl+c'], description: 'Quit at once, from anywhere' },
];

// The chart's assets and days: the same keys while its pages come and after.
const chartMoves: Binding[] = [
  { command: 'nextAsset', keys: ['right', 'tab'], hint: '←→ asset', description: 'Next asset' },
  { command: 'previousAsset', keys: ['left', 'shift+tab'], description: 'Previous asset' },
  { command: 'up', keys: ['up', 'k'], description: 'Scroll to newer days' },
  { command: 'down', keys: ['down', 'j'], hint: '↑↓ days', description: 'Scroll to older days (when they do not fit)' },
  { command: 'pageUp', keys: ['pageup'], description: 'Scroll up a screenful' },
  { command: 'pageDown', keys: ['pagedown'], description: 'Scroll down a screenful' },
];

const TABLES: Record<Exclude<ScreenId, ReadOnlyScreenId>, Binding[]> = {
  global,
  welcome: [
    { command: 'up', keys: ['up'], description: 'Previous choice' },
    { command: 'down', keys: ['down'], hint: '↑↓ choose', description: 'Next choice' },
    { command: 'open', keys: ['enter'], hint: 'enter open', description: 'Open the highlighted choice' },
    { command: 'quit', keys: ['q', 'esc'], hint: 'q quit', description: 'Quit' },
  ],
  credentials: [
    { command: 'next', keys: ['tab', 'down'], hint: 'tab next', description: 'Next field' },
    { command: 'previous', keys: ['shift+tab', 'up'], description: 'Previous field' },
    { command: 'submit', keys: ['enter'], hint: 'enter check', description: 'Check the connection, then save or use it (after a keychain failure: use for this session only)' },
  ],
  profiles: [
    { command: 'up', keys: ['up', 'k'], description: 'Previous profile' },
    { command: 'down', keys: ['down', 'j'], hint: '↑↓ choose', description: 'Next profile' },
    { command: 'open', keys: ['enter'], hint: 'enter switch', description: 'Switch to the highlighted profile' },
    { command: 'add', keys: ['a'], hint: 'a add profile', description: 'Add a profile' },
    { command: 'session', keys: ['s'], hint: 's session only', description: 'Enter credentials for this session only' },
  ],
  picker: [
    { command: 'up', keys: ['up'], description: 'Previous suggestion' },
    { command: 'down', keys: ['down'], hint: '↑↓ choose', description: 'Next suggestion' },
    { command: 'open', keys: ['enter'], hint: 'enter open', description: 'Open the typed or highlighted sub-account' },
    { command: 'transfers', keys: ['ctrl+t'], hint: '^t transfers', description: 'Browse universal transfers' },
    { command: 'discover', keys: ['ctrl+d'], hint: '^d discover', description: 'Discover sub-accounts in the transfer history of the last days' },
    { command: 'audit', keys: ['ctrl+r'], hint: '^r audit', description: 'Audit the keys of every recent and discovered sub-account, or of those the typed text matches' },
    { command: 'quit', keys: ['esc'], hint: 'esc quit', description: 'Clear the name; when it is empty, quit' },
  ],
  keys: [
    { command: 'up', keys: ['up', 'k'], description: 'Previous key' },
    { command: 'down', keys: ['down', 'j'], hint: '↑↓ move', description: 'Next key' },
    { command: 'detail', keys: ['enter'], hint: 'enter detail', description: 'Every field of the selected key' },
    { command: 'create', keys: ['n'], hint: 'n new key', description: 'Create an API key for this sub-account' },
    { command: 'copy', keys: ['c'], hint: 'c copy key', description: 'Copy the selected API key (OSC 52)' },
    { command: 'refresh', keys: ['r'], hint: 'r refresh', description: 'Reload the keys (also: retry after an error)' },
    { command: 'transfers', keys: ['t'], hint: 't transfers', description: 'Browse universal transfers' },
    { command: 'search', keys: ['/'], hint: '/ filter', description: 'Filter the keys as you type, any column (esc clears the filter)' },
    { command: 'audit', keys: ['a'], hint: 'a audit', description: 'Audit these keys: no linked IP, write/withdraw/transfer, old, a shared note' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  // The filter line is open: typing filters the keys.
  keysFilter: [
    { command: 'up', keys: ['up'], description: 'Previous key' },
    { command: 'down', keys: ['down'], hint: '↑↓ move', description: 'Next key' },
    { command: 'keep', keys: ['enter'], hint: 'enter keep', description: 'Keep the filter and go back to moving in the rows' },
    { command: 'clear', keys: ['esc'], hint: 'esc clear', description: 'Clear the filter and close the line' },
  ],
  // No keys yet: nothing to move to, show or copy.
  keysEmpty: [
    { command: 'create', keys: ['n'], hint: 'n new key', description: 'Create an API key for this sub-account' },
    { command: 'refresh', keys: ['r'], hint: 'r refresh', description: 'Reload the keys' },
    { command: 'transfers', keys: ['t'], hint: 't transfers', description: 'Browse universal transfers' },
    { command: 'audit', keys: ['a'], hint: 'a audit', description: 'Audit this sub-account (no keys: nothing to flag)' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  // The list could not be loaded and a retry would fail the same way (e.g. the sub-account does not exist).
  keysError: [
    { command: 'transfers', keys: ['t'], hint: 't transfers', description: 'Browse universal transfers' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  // The list could not be loaded for a reason a retry can fix (network, timeout, 5xx, 429).
  keysRetry: [
    { command: 'refresh', keys: ['r'], hint: 'r retry', description: 'Load the keys again' },
    { command: 'transfers', keys: ['t'], hint: 't transfers', description: 'Browse universal transfers' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  keyDetail: [
    { command: 'copy', keys: ['c'], hint: 'c copy key', description: 'Copy the API key (OSC 52)' },
    { command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Back to the list' },
  ],
  // The key audit: a summary row per sub-account, a row per flagged key.
  keyAudit: [
    { command: 'up', keys: ['up', 'k'], description: 'Previous row' },
    { command: 'down', keys: ['down', 'j'], hint: '↑↓ move', description: 'Next row' },
    { command: 'pageUp', keys: ['pageup'], description: 'Scroll up a screenful' },
    { command: 'pageDown', keys: ['pagedown'], description: 'Scroll down a screenful' },
    { command: 'open', keys: ['enter'], hint: 'enter open keys', description: "Open the sub-account's key list, on the selected key" },
    { command: 'refresh', keys: ['r'], hint: 'r refresh', description: 'Audit again' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  createKey: [
    { command: 'next', keys: ['tab'], hint: 'tab next', description: 'Next field' },
    { command: 'previous', keys: ['shift+tab'], description: 'Previous field' },
    { command: 'toggle', keys: ['space'], hint: 'space toggle', description: 'Toggle the highlighted permission' },
    { command: 'move', keys: ['up', 'down', 'left', 'right'], description: 'Move in the permission checklist' },
    { command: 'review', keys: ['enter'], hint: 'enter review', description: 'Check the form and show what will be sent' },
  ],
  review: [
    { command: 'submit', keys: ['enter', 'y'], hint: 'enter send', description: 'Create the key (once; after an error a retry can fix, send again)' },
    { command: 'edit', keys: ['e', 'esc'], hint: 'e edit', description: 'Back to the form, nothing sent' },
  ],
  // The create request is in flight: every key of the review waits for the answer.
  reviewSending: [
    { command: 'wait', keys: ['enter', 'y', 'e', 'esc'], hint: 'sending… keys wait for the answer', description: 'The request is in flight: sent once, keys are ignored until the answer' },
  ],
  // Sent, but no answer came: the key may exist, so nothing is sent again from here.
  reviewUnknown: [
    { command: 'refresh', keys: ['r'], hint: 'r check the key list', description: 'Open the key list, refreshed, to see whether the key was created' },
    { command: 'edit', keys: ['e', 'esc'], hint: 'e edit', description: 'Back to the form (nothing is resent until the list was checked)' },
  ],
  // The service refused the request (invalid input, too many keys): sending it again would fail the same way.
  reviewRejected: [
    { command: 'edit', keys: ['e', 'esc'], hint: 'e edit the form', description: 'Back to the form to correct it; nothing was created' },
  ],
  secret: [
    { command: 'reveal', keys: ['v'], hint: 'v show/hide', description: 'Show or hide the secret key' },
    { command: 'copySecret', keys: ['s'], hint: 's copy secret', description: 'Copy the secret key (OSC 52)' },
    { command: 'copyKey', keys: ['c'], hint: 'c copy key', description: 'Copy the API key (OSC 52)' },
    { command: 'leave', keys: ['esc', 'enter'], hint: 'enter done', description: 'Leave; asks you to confirm the secret is stored' },
    { command: 'confirm', keys: ['y'], description: 'Confirm you stored the secret (it is then gone for good)' },
    { command: 'quit', keys: ['q'], description: 'Quit (asks you to confirm the secret is stored first, like every way out)' },
  ],
  secretConfirm: [
    { command: 'confirm', keys: ['y'], hint: 'y stored it, leave', description: 'Yes, the secret is stored: leave (it is gone for good)' },
    { command: 'stay', keys: ['esc', 'n'], hint: 'any other key: stay', description: 'Any other key stays on the secret (a second ctrl+c quits)' },
  ],
  transferFilter: [
    { command: 'next', keys: ['tab', 'down'], hint: 'tab next', description: 'Next field' },
    { command: 'previous', keys: ['shift+tab', 'up'], description: 'Previous field' },
    { command: 'cycle', keys: ['left', 'right'], hint: '←→ type', description: 'Cycle known account types' },
    { command: 'search', keys: ['enter'], hint: 'enter search', description: 'Search with this filter' },
  ],
  transfers: [
    { command: 'up', keys: ['up', 'k'], description: 'Previous transfer' },
    { command: 'down', keys: ['down', 'j'], hint: '↑↓ move', description: 'Next transfer' },
    { command: 'pageUp', keys: ['pageup'], description: 'Scroll up a screenful' },
    { command: 'pageDown', keys: ['pagedown'], description: 'Scroll down a screenful' },
    { command: 'detail', keys: ['enter'], hint: 'enter detail', description: 'Every field of the selected transfer' },
    { command: 'nextPage', keys: [']', 'n'], hint: 'n/] next page', description: 'Next page' },
    { command: 'previousPage', keys: ['[', 'p'], hint: 'p/[ prev', description: 'Previous page' },
    { command: 'jump', keys: ['g'], hint: 'g go to page', description: 'Jump to a page number' },
    { command: 'pageSize', keys: ['s'], description: 'Change the page size (1–500)' },
    { command: 'export', keys: ['x'], hint: 'x export', description: 'Export this page or all pages to CSV or JSON' },
    { command: 'filter', keys: ['f'], hint: 'f filter', description: 'Change the filter' },
    { command: 'refresh', keys: ['r'], description: 'Reload this page' },
    { command: 'search', keys: ['/'], hint: '/ search', description: 'Filter this page\'s rows as you type, any column (esc clears)' },
    { command: 'sort', keys: ['o'], hint: 'o sort', description: 'Sort the current page only: time (as served), amount, asset, status' },
    { command: 'chart', keys: ['v'], hint: 'v chart', description: 'Chart every page of the filter: volume per day per asset, counts by status' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  // The filter line is open: typing filters the rows of the page.
  transfersFilterLine: [
    { command: 'up', keys: ['up'], description: 'Previous transfer' },
    { command: 'down', keys: ['down'], hint: '↑↓ move', description: 'Next transfer' },
    { command: 'keep', keys: ['enter'], hint: 'enter keep', description: 'Keep the filter and go back to moving in the rows' },
    { command: 'clear', keys: ['esc'], hint: 'esc clear', description: 'Clear the filter and close the line' },
  ],
  // An empty page (no match, or past the end): nothing to move in, open or export.
  transfersEmpty: [
    { command: 'previousPage', keys: ['[', 'p'], hint: 'p/[ prev', description: 'Previous page (from past the end: the last page seen with rows)' },
    { command: 'jump', keys: ['g'], hint: 'g go to page', description: 'Jump to a page number' },
    { command: 'filter', keys: ['f'], hint: 'f filter', description: 'Change the filter' },
    { command: 'nextPage', keys: [']', 'n'], description: 'Next page (there is none after an empty one)' },
    { command: 'pageSize', keys: ['s'], description: 'Change the page size (1–500)' },
    { command: 'refresh', keys: ['r'], description: 'Reload this page' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  // A page that failed: no rows to move in or export; r only where a retry can help (network, timeout, 5xx, 429).
  transfersError: [
    { command: 'filter', keys: ['f'], hint: 'f filter', description: 'Change the filter (the service refused this one)' },
    { command: 'previousPage', keys: ['[', 'p'], hint: 'p/[ prev', description: 'Previous page' },
    { command: 'jump', keys: ['g'], hint: 'g go to page', description: 'Jump to a page number' },
    { command: 'pageSize', keys: ['s'], description: 'Change the page size (1–500)' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  transfersRetry: [
    { command: 'refresh', keys: ['r'], hint: 'r retry', description: 'Ask for this page again (the error is one a retry can fix)' },
    { command: 'filter', keys: ['f'], hint: 'f filter', description: 'Change the filter' },
    { command: 'previousPage', keys: ['[', 'p'], hint: 'p/[ prev', description: 'Previous page' },
    { command: 'jump', keys: ['g'], hint: 'g go to page', description: 'Jump to a page number' },
    { command: 'pageSize', keys: ['s'], description: 'Change the page size (1–500)' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  transferPrompt: [
    { command: 'go', keys: ['enter'], hint: 'enter go', description: 'Go to that page, or use that page size' },
    { command: 'cancel', keys: ['esc'], hint: 'esc cancel', description: 'Close the prompt; nothing changes' },
  ],
  transferDetail: [{ command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Back to the list' }],
  transferDetailScroll: [
    { command: 'up', keys: ['up', 'k'], description: 'Scroll up a line' },
    { command: 'down', keys: ['down', 'j'], hint: '↑↓ scroll', description: 'Scroll down a line (the detail is taller than the window)' },
    { command: 'pageUp', keys: ['pageup'], description: 'Scroll up a screenful' },
    { command: 'pageDown', keys: ['pagedown', 'space'], description: 'Scroll down a screenful' },
    { command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Back to the list' },
  ],
  export: [
    { command: 'scope', keys: ['a'], hint: 'a page/all', description: 'Export this page or all pages' },
    { command: 'format', keys: ['f'], hint: 'f csv/json', description: 'Export as CSV or JSON' },
    { command: 'start', keys: ['enter'], hint: 'enter start', description: 'Start the export' },
    { command: 'cancel', keys: ['esc'], hint: 'esc close', description: 'Close the panel, nothing written' },
  ],
  exportRunning: [{ command: 'cancel', keys: ['esc'], hint: 'esc cancel', description: 'Stop the export; the partial file is removed' }],
  exportDone: [{ command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Close the export panel' }],
  exportFailed: [{ command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Close the export panel' }],
  exportRetry: [
    { command: 'retry', keys: ['r'], hint: 'r retry', description: 'Start the export again (the error is one a retry can fix)' },
    { command: 'close', keys: ['enter', 'esc'], hint: 'enter close', description: 'Close the export panel' },
  ],
  // Discover: how many days back (typed), then the scan, then what it found.
  discover: [
    { command: 'start', keys: ['enter'], hint: 'enter scan', description: 'Scan the transfer history of that many days' },
    { command: 'back', keys: ['esc'], hint: 'esc back', description: 'Back to the sub-accounts, nothing sent' },
  ],
  discoverRunning: [{ command: 'cancel', keys: ['esc'], hint: 'esc cancel', description: 'Stop the scan; what was found so far is kept' }],
  discoverDone: [
    { command: 'up', keys: ['up', 'k'], description: 'Previous sub-account' },
    { command: 'down', keys: ['down', 'j'], hint: '↑↓ move', description: 'Next sub-account' },
    { command: 'open', keys: ['enter'], hint: 'enter keys', description: 'Open the API keys of the highlighted sub-account' },
    { command: 'again', keys: ['r'], hint: 'r scan again', description: 'Scan again (asks the days first)' },
    { command: 'back', keys: ['esc'], hint: 'esc back', description: 'Back to the sub-accounts' },
    { command: 'quit', keys: ['q'], description: 'Quit' },
  ],
  // The chart, every page read (or stopped: a partial chart).
  transfersChart: [
    ...chartMoves,
    { command: 'refresh', keys: ['r'], hint: 'r refetch', description: 'Fetch every page again' },
    { command: 'close', keys: ['esc', 'v'], hint: 'esc close', description: 'Back to the transfers page' },
  ],
  // The chart while its pages come: the bars grow; esc stops and keeps a partial chart.
  transfersChartLoading: [
    ...chartMoves,
    { command: 'stop', keys: ['esc'], hint: 'esc stop', description: 'Stop fetching; the chart so far stays, marked partial' },
    { command: 'close', keys: ['v'], hint: 'v close', description: 'Stop fetching and go back to the transfers page' },
  ],
};

/** A read-only key list: n stays bound, only to say why nothing opens, and is not offered in the footer. */
function withoutCreating(bindings: Binding[]): Binding[] {
  return bindings.map((b) =>
    b.command === 'create' ? { command: 'createDisabled', keys: b.keys, description: 'Creating keys is disabled (read-only): n says why, opens nothing' } : b,
  );
}

export const KEYMAP: Record<ScreenId, Binding[]> = {
  ...TABLES,
  keysReadOnly: withoutCreating(TABLES.keys),
  keysEmptyReadOnly: withoutCreating(TABLES.keysEmpty),
};

export const SCREEN_TITLES: Record<ScreenId, string> = {
  global: 'Everywhere',
  welcome: 'Welcome',
  credentials: 'Credentials',
  profiles: 'Profiles',
  picker: 'Choose a sub-account',
  keys: 'API keys',
  keysEmpty: 'API keys (none yet)',
  keysReadOnly: 'API keys (read-only)',
  keysEmptyReadOnly: 'API keys (none yet, read-only)',
  keysError: 'API keys (could not be loaded)',
  keysRetry: 'API keys (could not be loaded)',
  keysFilter: 'API keys: filter',
  keyDetail: 'Key detail',
  keyAudit: 'Key audit',
  createKey: 'New key form',
  review: 'Review before sending',
  reviewSending: 'Creating the key',
  reviewUnknown: 'Outcome unknown',
  reviewRejected: 'Refused by the service',
  secret: 'One-time secret',
  secretConfirm: 'Leave the secret?',
  transferFilter: 'Transfer filter',
  transfers: 'Transfers',
  transferDetail: 'Transfer detail',
  export: 'Export',
  transfersEmpty: 'Transfers (an empty page)',
  transfersError: 'Transfers (the page failed)',
  transfersRetry: 'Transfers (the page failed)',
  transferPrompt: 'Transfers: page or page size',
  transfersFilterLine: 'Transfers: search the page',
  transferDetailScroll: 'Transfer detail',
  exportRunning: 'Export in progress',
  exportDone: 'Export finished',
  exportFailed: 'Export failed',
  exportRetry: 'Export failed',
  discover: 'Discover sub-accounts',
  discoverRunning: 'Discovering sub-accounts',
  discoverDone: 'Discovered sub-accounts',
  transfersChart: 'Transfers: chart',
  transfersChartLoading: 'Transfers: chart (fetching pages)',
};

/** True when the key press matches the spec (see Binding.keys). */
export function keyMatches(spec: string, input: string, key: Key): boolean {
  switch (spec) {
    case 'up': return key.upArrow;
    case 'down': return key.downArrow;
    case 'left': return key.leftArrow;
    case 'right': return key.rightArrow;
    case 'pageup': return key.pageUp;
    case 'pagedown': return key.pageDown;
    case 'home': return key.home;
    case 'end': return key.end;
    case 'enter': return key.return;
    case 'esc': return key.escape;
    case 'tab': return key.tab && !key.shift;
    case 'shift+tab': return key.tab && key.shift;
    case 'space': return input === ' ';
    default:
      if (spec.startsWith('ctrl+')) return key.ctrl && input === spec.slice(5);
      return !key.ctrl && !key.meta && input === spec;
  }
}

/** The command of a screen's table that this key press triggers, if any. */
export function commandFor(screen: ScreenId, input: string, key: Key): string | undefined {
  for (const binding of KEYMAP[screen]) {
    if (binding.keys.some((spec) => keyMatches(spec, input, key))) return binding.command;
  }
  return undefined;
}

/** Whether q quits here: only where nothing typed could be lost (the screen's table says so). */
export function quitsWithQ(screen: ScreenId): boolean {
  return KEYMAP[screen].some((b) => b.command === 'quit' && b.keys.includes('q'));
}

/** Footer text of a screen: its hinted bindings, then the global ones. */
export function footerHints(screen: ScreenId): string[] {
  const own = KEYMAP[screen];
  const ownEsc = own.some((b) => b.keys.includes('esc') && b.hint);
  return [...own, ...global.filter((b) => !(ownEsc && b.command === 'back'))].flatMap((b) => (b.hint ? [b.hint] : []));
}

export function displayKey(spec: string): string {
  const names: Record<string, string> = { up: '↑', down: '↓', left: '←', right: '→', enter: 'enter', esc: 'esc', tab: 'tab', 'shift+tab': 'shift+tab', space: 'space', pageup: 'pgup', pagedown: 'pgdn' };
  return names[spec] ?? spec;
}
