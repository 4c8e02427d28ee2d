// Counts a person reads are grouped (3,625 rows), in the commands' tables as on the console's screens; JSON
// and CSV keep plain numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTransfers } from '../../src/commands/transfers';
import { EXIT } from '../../src/commands/context';
import { startSandbox } from '../../src/sandbox/server';
import type { RunningSandbox } from '../../src/sandbox/types';
import { testContext } from './helpers';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, transfers: 12_000, rateLimit: { max: 1_000_000, windowMs: 1000 } });
});
afterAll(async () => {
  await sandbox.close();
});

describe('grouped counts', () => {
  it('transfers --all: the totals line groups its row counts', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, format: 'table' }, ctx)).toBe(EXIT.ok);
    const totals = /\ntotals, SUCCESS only, ([\d,]+) of ([\d,]+) rows \((\d+) pages\):\n/.exec(out.text());
    expect(totals).not.toBeNull();
    const [counted, rows] = [totals![1]!, totals![2]!];
    expect(Number(rows.replace(/,/g, ''))).toBeGreaterThanOrEqual(1000);
    expect(rows).toMatch(/^\d{1,3}(,\d{3})+$/);
    expect(counted).toMatch(/^\d{1,3}(,\d{3})*$/);
  });

  it('JSON keeps plain numbers', async () => {
    const { ctx, out } = testContext(sandbox);
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, format: 'json' }, ctx)).toBe(EXIT.ok);
    expect(JSON.parse(out.text()).length).toBeGreaterThanOrEqual(1000);
  });
});
