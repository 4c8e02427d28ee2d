// Closing the console waits for the writes under way, and for a write one of them starts once it is done (the
// line ahead of a create, then its close when the console was left before the create was sent); the demo's
// trail, read back, is its own run's.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { BrokerError } from '../../src/api/errors';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { AUDIT_FILE } from '../../src/config/auditTrail';
import { resolveTarget } from '../../src/credentials/resolve';

test('a close written after the line ahead, as the console closes: both are in the trail once closing is done', async ({ onTestFinished }) => {
  const folder = mkdtempSync(join(tmpdir(), 'bc-console-close-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const targets = createConsoleTargets({ folder, drawn: Promise.resolve(), exportFolder: folder });
  // Credentials from the environment: closing has no sandbox to stop first, so it meets the line ahead under way.
  const env = { BROKER_API_KEY: 'mx0vcloseclosecloseclose', BROKER_API_SECRET: 'close-secret', BROKER_BASE_URL: 'http://127.0.0.1:9' };
  const resolved = await resolveTarget({ flags: {}, env, folder });
  if (!resolved.ok) throw new Error(resolved.message);
  await targets.openResolved(resolved.target);
  const audit = targets.current()!.audit!;
  const ahead = audit.ahead({ subAccount: 'gridbot2901', permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'left early' });
  // As the create form does when left before its request went out: the close follows the line ahead.
  void ahead.then((outcome) => outcome?.({ error: new BrokerError({ kind: 'aborted', operation: 'create key' }) }));
  await targets.close();
  const outcomes = readFileSync(join(folder, AUDIT_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { outcome: string }).outcome);
  expect(outcomes).toEqual(['unknown', 'not-sent']);
});

test("the demo reads back only this run's attempts: an earlier run's sandbox and keys are gone", async ({ onTestFinished }) => {
  const folder = mkdtempSync(join(tmpdir(), 'bc-demo-trail-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const request = { subAccount: 'gridbot2901', permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'earlier run' };
  const earlier = createConsoleTargets({ folder, drawn: Promise.resolve(), exportFolder: folder });
  await earlier.openDemo();
  const outcome = await earlier.current()!.audit!.ahead(request);
  await outcome!({ created: { ...request, apiKey: 'mx0vearlierearlierearlier1', secretKey: 's'.repeat(32), createdAt: Date.now() }, secret: 'unconfirmed' });
  expect(await earlier.current()!.audit!.recentFor('gridbot2901', 3)).toHaveLength(1);
  await earlier.close();

  const later = createConsoleTargets({ folder, drawn: Promise.resolve(), exportFolder: folder });
  onTestFinished(() => later.close());
  await later.openDemo();
  const audit = later.current()!.audit!;
  expect(await audit.recentFor('gridbot2901', 3)).toEqual([]);
  await audit.ahead({ ...request, note: 'this run' });
  expect((await audit.recentFor('gridbot2901', 3)).map((e) => e.note)).toEqual(['this run']);
});
