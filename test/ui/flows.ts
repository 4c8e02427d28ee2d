// Walks shared by the UI tests: from the picker to a screen, the way an operator would get there.
import { expect } from 'vitest';
import type { SubAccountKey } from '../../src/api/types';
import type { TestConsole } from './harness';

export const CTRL_U = '\u0015';

/** The sub-account with the most keys (the seed always has one with 6) and one with none. */
export async function seededAccounts(c: TestConsole): Promise<{ busy: string; busyKeys: SubAccountKey[]; empty: string }> {
  let busy = '';
  let busyKeys: SubAccountKey[] = [];
  let empty = '';
  for (const name of c.sandbox.subAccounts) {
    const keys = await c.api.listSubAccountKeys(name);
    if (keys.length > busyKeys.length) [busy, busyKeys] = [name, keys];
    if (keys.length === 0 && empty === '') empty = name;
  }
  expect(busyKeys.length).toBeGreaterThanOrEqual(6);
  expect(empty).not.toBe('');
  return { busy, busyKeys, empty };
}

/** Types a name in the picker and opens it (faults queued before this apply to the key list's request). */
export async function openKeys(c: TestConsole, name: string, options: { wait?: boolean } = {}): Promise<void> {
  await c.type(name);
  await c.press('enter');
  if (options.wait ?? true) await c.waitForText(new RegExp(`API keys of ${name} · \\d+ keys?`));
}

export async function openCreateForm(c: TestConsole, name: string): Promise<void> {
  await openKeys(c, name);
  await c.press('n');
  await c.waitForText(`New API key for ${name}`);
}

export interface FormInput {
  /** Indexes into the checklist to toggle, in reading order (0 = SPOT_ACCOUNT_READ). */
  toggle?: number[];
  other?: string;
  ip?: string;
  note?: string;
}

/** Fills the create form from its first field (the checklist) and leaves focus on the note. */
export async function fillCreateForm(c: TestConsole, input: FormInput): Promise<void> {
  let at = 0;
  for (const index of input.toggle ?? []) {
    while (at < index) {
      await c.press('right');
      at += 1;
    }
    await c.press('space');
  }
  await c.press('tab');
  if (input.other) await c.type(input.other);
  await c.press('tab');
  if (input.ip) await c.type(input.ip);
  await c.press('tab');
  if (input.note) await c.type(input.note);
}

/** From the picker to the review step of a valid form. */
export async function reachReview(
  c: TestConsole,
  name: string,
  input: FormInput = { toggle: [0], ip: '203.0.113.7, 198.51.100.20', note: 'ui test key' },
): Promise<void> {
  await openCreateForm(c, name);
  await fillCreateForm(c, input);
  await c.press('enter');
  await c.waitForText('Review: this is exactly what will be sent');
}

export async function openTransferFilter(c: TestConsole): Promise<void> {
  await c.press('ctrlT');
  await c.waitForText('Universal transfers: filter');
}

export const FILTER_FIELDS = ['fromAccountType', 'toAccountType', 'fromAccount', 'toAccount', 'startTime', 'endTime', 'clientTranId', 'limit'] as const;

/** Sets filter fields (focus starts on the first and comes back to it). */
export async function setFilter(c: TestConsole, values: Partial<Record<(typeof FILTER_FIELDS)[number], string>>): Promise<void> {
  for (const field of FILTER_FIELDS) {
    const value = values[field];
    if (value !== undefined) {
      await c.press(CTRL_U);
      await c.type(value);
    }
    await c.press('tab');
  }
}

/** Filter then results; returns the query the browser runs. */
export async function openTransfers(c: TestConsole, values: Partial<Record<(typeof FILTER_FIELDS)[number], string>> = {}) {
  await openTransferFilter(c);
  await setFilter(c, values);
  await c.press('enter');
  await c.waitForText(/Page 1 · \d+ per page · \d+ rows/);
  const top = c.navState()!.stack.at(-1)!.route;
  if (top.screen !== 'transfers') throw new Error(`expected the transfers screen, got ${top.screen}`);
  return top.query;
}

/** The line of the frame that contains `text`. */
export function lineWith(frame: string, text: string): string {
  const line = frame.split('\n').find((l) => l.includes(text));
  if (line === undefined) throw new Error(`no line contains ${text}:\n${frame}`);
  return line;
}
