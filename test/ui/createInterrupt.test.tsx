// ctrl+c while a create's POST is held by the service: the console says it waits for the answer (with the
// time left) and never blanks; a second ctrl+c leaves at once with the attempt on record as unknown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createAuditRecorder, readAuditTrail } from '../../src/config/auditTrail';
import { consoleFor } from './harness';
import { reachReview } from './flows';

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

async function heldCreate(onTestFinished: Parameters<typeof consoleFor>[0]) {
  const folder = mkdtempSync(join(tmpdir(), 'bc-create-interrupt-'));
  folders.push(folder);
  const audit = createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' });
  const c = await consoleFor(onTestFinished, { audit });
  await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'held' });
  c.sandbox.queueFaults({ kind: 'hold' });
  await c.press('enter');
  await c.waitForText('Creating the key');
  await c.waitFor(() => c.sandbox.held() === 1, 'the POST held by the service');
  return { c, folder };
}

describe('ctrl+c during a create', () => {
  test('the first says it waits for the answer and how long; the second leaves now, the attempt on record as unknown', async ({ onTestFinished }) => {
    const { c, folder } = await heldCreate(onTestFinished);
    await c.press('ctrlC');
    await c.waitForText(/Waiting for the service's answer \(up to \d+ s left\)/);
    expect(c.frame()).toContain('ctrl+c again leaves now, with the attempt on record as unknown');
    expect(c.frame()).toContain('Creating the key');
    expect(c.exitCode()).toBeUndefined();
    await c.press('ctrlC');
    await c.waitFor(() => c.exitCode() === 130, 'exit 130');
    const { entries } = await readAuditTrail(folder);
    expect(entries).toEqual([expect.objectContaining({ outcome: 'unknown', note: 'held' })]);
    c.sandbox.releaseHeld();
  });

  test('an answer after the first ctrl+c: the created key still reaches its secret screen', async ({ onTestFinished }) => {
    const { c, folder } = await heldCreate(onTestFinished);
    await c.press('ctrlC');
    await c.waitForText("Waiting for the service's answer");
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText('Key created for');
    expect(c.exitCode()).toBeUndefined();
    // The outcome's line follows the answer by a write and a sync.
    let last: string | undefined;
    for (let i = 0; i < 60 && last !== 'created'; i++) {
      last = (await readAuditTrail(folder)).entries.at(-1)?.outcome;
      if (last !== 'created') await new Promise((r) => setTimeout(r, 50));
    }
    expect(last).toBe('created');
  });
});
