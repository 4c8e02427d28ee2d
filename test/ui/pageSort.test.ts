// The page sort's direction and the words for the page as shown.
import { describe, expect, test } from 'vitest';
import type { Transfer } from '../../src/api/types';
import { nextSortColumn, pageAsShown, SERVED_ORDER, sortArrow, sortedColumns, sortTransfers } from '../../src/ui/pageSort';

const row = (tranId: string, amount: string, asset: string): Transfer =>
  ({
    tranId,
    clientTranId: '',
    asset,
    amount,
    fromAccount: '',
    toAccount: '',
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURES',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: 0,
  }) as Transfer;
const PAGE = [row('a', '2', 'USDT'), row('b', 'n/a', 'BTC'), row('c', '10', 'ETH'), row('d', '2', 'BTC'), row('e', '0.5', 'MX')];
const ids = (rows: readonly Transfer[]) => rows.map((t) => t.tranId).join('');

describe('sortTransfers', () => {
  test('amount: largest first, or smallest first turned; amounts that are not numbers last either way; ties as served', () => {
    expect(ids(sortTransfers(PAGE, { by: 'amount', reversed: false }))).toBe('cadeb');
    expect(ids(sortTransfers(PAGE, { by: 'amount', reversed: true }))).toBe('eadcb');
  });

  test('asset A to Z, turned Z to A, stable; time as served, turned oldest first', () => {
    expect(ids(sortTransfers(PAGE, { by: 'asset', reversed: false }))).toBe('bdcea');
    expect(ids(sortTransfers(PAGE, { by: 'asset', reversed: true }))).toBe('aecbd');
    expect(sortTransfers(PAGE, SERVED_ORDER)).toBe(PAGE);
    expect(ids(sortTransfers(PAGE, { by: 'time', reversed: true }))).toBe('edcba');
  });

  test('o goes to the next column in its first direction; the arrow turns with O', () => {
    expect(nextSortColumn({ by: 'amount', reversed: true })).toEqual({ by: 'asset', reversed: false });
    expect(nextSortColumn({ by: 'status', reversed: false })).toEqual(SERVED_ORDER);
    expect(sortArrow({ by: 'amount', reversed: false })).toBe('↓');
    expect(sortArrow({ by: 'amount', reversed: true })).toBe('↑');
    expect(sortArrow(SERVED_ORDER)).toBe('');
  });
});

describe('pageAsShown', () => {
  test('as served, searched, sorted, both', () => {
    expect(pageAsShown(50, 50, '', SERVED_ORDER)).toBe('this page (50 rows)');
    expect(pageAsShown(9, 50, 'USDT', SERVED_ORDER)).toBe('this page as shown (9 of 50 rows, searched "USDT")');
    expect(pageAsShown(50, 50, '', { by: 'amount', reversed: false })).toBe('this page as shown (50 rows, by amount ↓)');
    expect(pageAsShown(9, 50, 'USDT', { by: 'time', reversed: true })).toBe('this page as shown (9 of 50 rows, searched "USDT", by time ↑ (oldest first))');
  });

  test('a searched text from the keyboard is sanitised', () => {
    expect(pageAsShown(0, 50, 'x\u001b]0;t\u0007', SERVED_ORDER)).not.toMatch(/\u001b|\u0007/);
  });
});

describe('the sorted column keeps its arrow in a narrow column', () => {
  const column = (title: string, width: number) => ({ title, width, cell: () => '' });
  test('STATUS at 7 cells (40 columns) and ASSET at 6 (80 columns)', () => {
    const [status] = sortedColumns([column('STATUS', 7)], { by: 'status', reversed: true });
    expect(status!.title).toBe('STATUS↓');
    const [asset] = sortedColumns([column('ASSET', 6)], { by: 'asset', reversed: false });
    expect(asset!.title).toBe('ASSET↑');
    const [amount] = sortedColumns([column('AMOUNT', 12)], { by: 'amount', reversed: false });
    expect(amount!.title).toBe('AMOUNT ↓');
    const [tight] = sortedColumns([column('AMOUNT', 4)], { by: 'amount', reversed: false });
    expect(tight!.title.endsWith('↓')).toBe(true);
    expect(tight!.title.length).toBeLessThanOrEqual(4);
  });
});
