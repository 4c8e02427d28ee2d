// The service's codes an operator can act on: one table (src/api/serviceCodes.ts) gives each a hint, and the
// sandbox produces the ones it naturally can (a frozen sub-account: 140002; a create naming a sub-account outside
// the name rule: 730601). The commands run in-process against the sandbox over 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError } from '../../src/api/errors';
import { SERVICE_CODES, createOutcomeUnknown, hintFor } from '../../src/api/serviceCodes';
import { EXIT } from '../../src/commands/context';
import { readAuditTrail } from '../../src/config/auditTrail';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import type { RunningSandbox } from '../../src/sandbox/types';
import { requestCount, testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let home: string;
let runs = 0;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 5, rateLimit: { max: 100_000, windowMs: 1000 } });
  home = mkdtempSync(join(tmpdir(), 'bc-service-codes-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
});

const DOCUMENTED = [
  '700001',
  '700002',
  '700003',
  '700004',
  '700005',
  '700006',
  '700007',
  '700008',
  '10072',
  '140001',
  '140002',
  '730600',
  '730601',
  '730603',
  '730700',
  '730701',
  '730702',
  '730703',
  '602',
  '700013',
  '730704',
  '730705',
  '730706',
  '-1006',
  '-1007',
  '402',
  '500',
  '503',
  '504',
  '20002',
];

describe('the table of service codes', () => {
  it('has every code docs/service-codes.md lists, each with a meaning and a one-line hint', () => {
    expect(Object.keys(SERVICE_CODES).sort()).toEqual([...DOCUMENTED].sort());
    for (const [code, { meaning, hint }] of Object.entries(SERVICE_CODES)) {
      expect(meaning, code).toMatch(/^\S.{3,60}$/);
      expect(hint, code).toMatch(/^\S[^\n]{8,140}$/);
    }
  });

  it('codes the operator can act on say what to check in the line itself', () => {
    for (const code of [700006, '730603', 700001, 700008, 730706]) {
      const line = new BrokerError({ kind: 'service', operation: 'list keys', status: 400, code, serviceMessage: 'terse' }).toLine();
      expect(line).toBe(`list keys failed (HTTP 400 code ${code}): terse — ${hintFor(code)}`);
    }
    expect(hintFor(700006)).toContain('IP');
    expect(hintFor('730603')).toContain('broker');
  });

  it('a create is unknown after any 5xx, a 408, or -1006/-1007/500/503/504/20002 at any status; not after a 4xx refusal', () => {
    for (const status of [500, 501, 502, 503, 504, 599, 408]) expect(createOutcomeUnknown(status, undefined), String(status)).toBe(true);
    for (const code of [-1006, -1007, '-1007']) expect(createOutcomeUnknown(400, code)).toBe(true);
    // The service's internal-error codes, in a 2xx or 4xx envelope.
    for (const code of [500, 503, 504, 20002, '20002']) expect(createOutcomeUnknown(200, code), String(code)).toBe(true);
    for (const [status, code] of [
      [400, 730705],
      [400, 700004],
      [429, 429],
      [403, undefined],
    ] as const)
      expect(createOutcomeUnknown(status, code)).toBe(false);
  });
});

describe('codes from the sandbox reach the operator with their hint', () => {
  const context = () => testContext(sandbox, { configFolder: join(home, `config-${(runs += 1)}`) });
  // The error lines only: a loaded machine may add a clock note.
  const errorLines = (text: string) => text.split('\n').filter((line) => line.startsWith('error: '));
  // The trail as it is read: an attempt's write-ahead line and its outcome stand as one entry.
  const auditOf = async (folder: string | undefined) => (await readAuditTrail(folder ?? '')).entries;

  it('keys list of the frozen sub-account: exit 1, 140002 and where to check', async () => {
    const { ctx, out, err } = context();
    expect(await runKeysList({ sub: 'frozendesk01' }, ctx)).toBe(EXIT.failure);
    expect(out.text()).toBe('');
    expect(errorLines(err.text())).toEqual([
      "error: list keys failed (HTTP 400 code 140002): sub account is forbidden (frozendesk01) — the sub-account is frozen or disabled: check its status in the broker's sub-account list",
    ]);
  });

  it('keys create for the frozen sub-account: exit 1, refused (140002) in the audit trail, one POST', async () => {
    const { ctx, err } = context();
    const before = requestCount(sandbox);
    expect(await runKeysCreate({ allowRisky: true, sub: 'frozendesk01', permissions: 'SPOT_ACCOUNT_READ', note: 'ops' }, ctx)).toBe(EXIT.failure);
    expect(errorLines(err.text())[0]).toMatch(
      /^error: create key failed \(HTTP 400 code 140002\): sub account is forbidden \(frozendesk01\) — the sub-account is frozen or disabled/,
    );
    expect(
      sandbox
        .requests()
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['POST']);
    expect(await auditOf(ctx.configFolder)).toEqual([expect.objectContaining({ outcome: 'refused', code: 140002 })]);
  });

  it('keys create naming a sub-account outside the name rule: exit 1, 730601 and the rule', async () => {
    const { ctx, err } = context();
    expect(await runKeysCreate({ allowRisky: true, sub: 'desk_7', permissions: 'SPOT_ACCOUNT_READ', note: 'ops' }, ctx)).toBe(EXIT.failure);
    expect(errorLines(err.text())).toEqual([
      'error: create key failed (HTTP 400 code 730601): Sub-account Name must be a combination of 8-32 letters and numbers (desk_7) — a sub-account name is 8 to 32 letters and digits',
    ]);
    expect(await auditOf(ctx.configFolder)).toEqual([expect.objectContaining({ outcome: 'refused', code: 730601 })]);
  });
});
