// ctrl+c while a create's POST is held by the service: the console says it waits for the answer (with the
// time left) and never blanks; a second ctrl+c leaves at once with the attempt on record as unknown.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AUDIT_FILE, createAuditRecorder, readAuditTrail } from '../../src/config/auditTrail';
import type { NewKeyRequest } from '../../src/api/types';
import { consoleFor, oneOtherProfile, startConsole } from './harness';
import { fillCreateForm, openCreateForm, openTransfers, reachReview } from './flows';

/** A switcher with one other profile: picking it would tear the console's screens down. */
const opened: string[] = [];
const switcher = oneOtherProfile(opened);

/** The trail's last outcome, once it is `want` or 3 s have passed: the outcome's line follows the answer by a write and a sync. */
async function lastOutcome(folder: string, want: string): Promise<string | undefined> {
  let last: string | undefined;
  for (let i = 0; i < 60 && last !== want; i++) {
    last = (await readAuditTrail(folder)).entries.at(-1)?.outcome;
    if (last !== want) await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

async function heldCreate(onTestFinished: Parameters<typeof consoleFor>[0], options: { columns?: number; rows?: number; keyListCommand?: string } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'bc-create-interrupt-'));
  const audit = createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' });
  const c = await startConsole({ audit, switcher, ...options });
  // The folder goes once the console is cleaned up: until then it may still write its trail there.
  onTestFinished(async () => {
    await c.cleanup();
    rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });
  await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'held' });
  c.sandbox.queueFaults({ kind: 'hold' });
  await c.press('enter');
  await c.waitForText('Creating the key');
  await c.waitFor(() => c.sandbox.held() === 1, 'the POST held by the service');
  return { c, folder };
}

describe('ctrl+c during a create', () => {
  test('the first says it waits for the answer and how long; the second leaves now, the attempt on record as unknown', async ({ onTestFinished }) => {
    const { c, folder } = await heldCreate(onTestFinished, { keyListCommand: 'broker-console keys list --profile ops' });
    await c.press('ctrlC');
    await c.waitForText(/Waiting for the service's answer \(up to \d+ s left\)/);
    expect(c.frame()).toContain('ctrl+c again leaves now, with the attempt on record as unknown');
    expect(c.frame()).toContain('Creating the key');
    expect(c.exitCode()).toBeUndefined();
    expect(c.said).toEqual([]);
    await c.press('ctrlC');
    await c.waitFor(() => c.exitCode() === 130, 'exit 130');
    // Said on the terminal once the console has closed: the key may exist, and which keys list reaches its service.
    const sub = c.sandbox.subAccounts[0]!;
    expect(c.said).toEqual([
      `create key for ${sub}: left before its answer came: the key may exist: check with \`broker-console keys list --profile ops --sub ${sub}\` before creating it again (on record as unknown)`,
    ]);
    const { entries } = await readAuditTrail(folder);
    expect(entries).toEqual([expect.objectContaining({ outcome: 'unknown', note: 'held' })]);
    c.sandbox.releaseHeld();
  });

  test('an export panel opened and closed over the form leaves its guard in place: ctrl+c still waits for the answer', async ({ onTestFinished }) => {
    const folder = mkdtempSync(join(tmpdir(), 'bc-create-interrupt-'));
    const c = await startConsole({ audit: createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' }), switcher });
    onTestFinished(async () => {
      await c.cleanup();
      rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    });
    const sub = c.sandbox.subAccounts[0]!;
    await openCreateForm(c, sub);
    await fillCreateForm(c, { toggle: [0], note: 'held' });
    // The form stays mounted under the transfers, whose export panel has a guard of its own.
    await openTransfers(c);
    await c.press('x');
    await c.waitForText('a page/all');
    await c.press('esc');
    await c.waitForNoText('a page/all');
    await c.press('esc');
    await c.waitForScreen('transferFilter');
    await c.press('esc');
    await c.waitForScreen('createKey');
    await c.press('enter');
    await c.waitForText('Review: this is exactly what will be sent');
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('enter');
    await c.waitForText('Creating the key');
    await c.waitFor(() => c.sandbox.held() === 1, 'the POST held by the service');
    await c.press('ctrlC');
    await c.waitForText(/Waiting for the service's answer/);
    expect(c.exitCode()).toBeUndefined();
    c.sandbox.releaseHeld();
  });

  test('the console ended with the POST out (a signal unmounts it): the request is given up, said once, on record as unknown', async ({ onTestFinished }) => {
    const { c, folder } = await heldCreate(onTestFinished);
    await c.cleanup();
    const sub = c.sandbox.subAccounts[0]!;
    // The demo: its sandbox ends with the console, and a keys list without options would ask the default profile.
    expect(c.said).toEqual([
      `create key for ${sub}: left before its answer came: the key may have been made in the demo's sandbox, which ended with this run: nothing is left to check (on record as unknown)`,
    ]);
    // Given up: an answer released now reaches nobody and changes nothing on record.
    c.sandbox.releaseHeld();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { entries } = await readAuditTrail(folder);
    expect(entries).toEqual([expect.objectContaining({ outcome: 'unknown', note: 'held' })]);
  });

  test('the console ended before the create left it (its line ahead still being written): said as not sent, and on record so', async ({ onTestFinished }) => {
    const folder = mkdtempSync(join(tmpdir(), 'bc-create-interrupt-'));
    const recorder = createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' });
    // A slow disk: the line written ahead of the create takes a second to be synced.
    const ahead = recorder.ahead.bind(recorder);
    const audit = Object.assign(recorder, { ahead: (request: NewKeyRequest) => new Promise((r) => setTimeout(r, 1000)).then(() => ahead(request)) });
    const c = await startConsole({ audit, switcher });
    onTestFinished(async () => {
      await c.cleanup();
      rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    });
    const sub = c.sandbox.subAccounts[0]!;
    await reachReview(c, sub, { toggle: [0], note: 'slow disk' });
    await c.press('enter');
    await c.waitForText('Creating the key');
    await c.cleanup();
    expect(c.said).toEqual([`create key for ${sub}: left before it was sent: nothing was sent, no key was created`]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(c.sandbox.requests().filter((r) => r.method === 'POST')).toEqual([]);
    // The line ahead, then its close: the trail holds no attempt of unknown outcome (a reader leaves the unsent out).
    const lines = readFileSync(join(folder, AUDIT_FILE), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { outcome: string }).outcome)).toEqual(['unknown', 'not-sent']);
    expect((await readAuditTrail(folder)).entries).toEqual([]);
  });

  test('a second ctrl+c says it once, though the screen is then unmounted with the POST still out', async ({ onTestFinished }) => {
    const { c } = await heldCreate(onTestFinished);
    await c.press('ctrlC');
    await c.waitForText("Waiting for the service's answer");
    await c.press('ctrlC');
    await c.waitFor(() => c.exitCode() === 130, 'exit 130');
    await c.cleanup();
    expect(c.said).toHaveLength(1);
    c.sandbox.releaseHeld();
  });

  test('an answer after the first ctrl+c: the created key still reaches its secret screen', async ({ onTestFinished }) => {
    const { c, folder } = await heldCreate(onTestFinished);
    await c.press('ctrlC');
    await c.waitForText("Waiting for the service's answer");
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText('Key created for');
    expect(c.exitCode()).toBeUndefined();
    expect(await lastOutcome(folder, 'created')).toBe('created');
  });

  test('ctrl+p or ctrl+t while the POST is out opens nothing; the answer reaches its screen, and keys typed meanwhile are not its', async ({
    onTestFinished,
  }) => {
    const { c, folder } = await heldCreate(onTestFinished);
    await c.press('\u0010'); // ctrl+p
    await c.waitForText('Profiles and transfers open once the answer is in');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('createKey');
    // ctrl+t, then a filter's worth of typing: the review drops the keys while it waits.
    await c.press('ctrlT');
    await c.type('desk');
    expect(c.navState()!.stack.map((entry) => entry.route.screen)).not.toContain('transferFilter');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('createKey');
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText('Key created for');
    await c.waitFor(() => c.navState()!.stack.at(-1)!.route.screen === 'secret', 'the secret screen');
    expect(c.copies).toEqual([]);
    expect(await lastOutcome(folder, 'created')).toBe('created');
  });

  test('in a window too small to show it, ctrl+c is held as at any size: the create is waited for, then the secret asks', async ({ onTestFinished }) => {
    const { c } = await heldCreate(onTestFinished);
    await c.resize(30, 10);
    await c.press('ctrlC');
    await c.waitFor(() => c.frame().replace(/\s+/g, ' ').includes("A key's secret is on screen, or a key is being created"), 'the held ctrl+c said');
    expect(c.exitCode(), c.frame()).toBeUndefined();
    expect(c.sandbox.releaseHeld(), c.frame()).toBe(1);
    await c.waitFor(() => c.navState()!.stack.at(-1)!.route.screen === 'secret', 'the secret screen');
    // On the secret screen, still too small: one ctrl+c is held, the next leaves.
    await c.press('ctrlC');
    expect(c.exitCode(), `${c.frame()}\n${JSON.stringify(c.navState()!.stack.map((e) => e.route.screen))}`).toBeUndefined();
    await c.press('ctrlC');
    await c.waitFor(() => c.exitCode() === 130, 'exit 130');
  });
});
