// Counts a person reads are grouped (3,625 rows), in the commands' tables as on the console's screens; JSON
// and CSV keep plain numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTransfers, tableWriter } from '../../src/commands/transfers';
import { summaryTable } from '../../src/commands/transferSummary';
import type { Transfer } from '../../src/api/types';
import { SummaryBuilder } from '../../src/export/summary';
import { EXIT } from '../../src/commands/context';
import type { RunningSandbox } from '../../src/sandbox/types';
import { testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 5, transfers: 12_000, rateLimit: { max: 1_000_000, windowMs: 1000 } });
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

const many = (n: number, status: string, asset = 'USDT', from = 0): Transfer[] =>
  Array.from({ length: n }, (_, i) => ({
    tranId: `${status}-${from + i}`,
    fromAccount: 'master',
    toAccount: 'master',
    clientTranId: '',
    asset,
    amount: '1',
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: '',
    toSymbol: '',
    status,
    timestamp: Date.UTC(2026, 10, 20, 12),
  }));

describe('grouped counts in every table cell and line a person reads', () => {
  it('transfers --summary --format table: asset, status and day counts', async () => {
    const builder = new SummaryBuilder();
    builder.add([...many(1234, 'SUCCESS'), ...many(1500, 'FAILED')]);
    const now = Date.UTC(2026, 10, 20, 23);
    const text = await summaryTable({ ...builder.result({ now }), pages: 6 });
    expect(text).toMatch(/\nUSDT +2,734 +1234 +1,500 FAILED, 1,234 SUCCESS\n/);
    expect(text).toMatch(/\nFAILED +1,500\n/);
    expect(text).toMatch(/\nSUCCESS +1,234\n/);
    expect(text).toMatch(/\n2026-11-20 +USDT +2,734 +1234\n/);
  });

  it('transfers --format table: the statuses left out of the totals and the amounts that were not decimals', async () => {
    let text = '';
    const output = tableWriter(async (t) => {
      text += t;
    });
    const odd = many(1001, 'SUCCESS', 'BTC', 5000).map((t) => ({ ...t, amount: 'n/a' }));
    await output.rows([...many(1200, 'FAILED'), ...odd]);
    await output.end({ pages: 5, lastPage: 5, short: true, all: true });
    expect(text).toMatch(/\n {2}not counted: 1,200 FAILED\n/);
    expect(text).toMatch(/\n {2}\(1,001 amounts were not decimals and are left out\)\n/);
  });
});
