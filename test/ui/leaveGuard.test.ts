// The console's leave guards: every mounted screen's guard is asked, the newest first.
import { describe, expect, test } from 'vitest';
import { leaveThrough, type LeaveGuard, type LeaveGuards } from '../../src/ui/leaveGuard';

describe('leaveThrough', () => {
  test('asks the newest guard first; one that agrees later passes the way out on to the guards under it', () => {
    const asked: string[] = [];
    let agree: (() => void) | undefined;
    const under: LeaveGuard = () => {
      asked.push('under');
      return false;
    };
    const top: LeaveGuard = (_intent, proceed) => {
      asked.push('top');
      agree = proceed;
      return true;
    };
    const guards: LeaveGuards = { mounted: [under, top] };
    let left = 0;
    leaveThrough(guards, 'quit', () => (left += 1));
    expect(asked).toEqual(['top']);
    expect(left).toBe(0);
    agree!();
    expect(asked).toEqual(['top', 'under']);
    expect(left).toBe(1);
  });

  test('a guard under another still holds when the one above does not', () => {
    const guards: LeaveGuards = { mounted: [() => true, () => false] };
    let left = 0;
    leaveThrough(guards, 'interrupt', () => (left += 1));
    expect(left).toBe(0);
  });

  test('a guard unmounted while another held is skipped when the way out goes on', () => {
    const asked: string[] = [];
    let agree: (() => void) | undefined;
    const gone: LeaveGuard = () => {
      asked.push('gone');
      return true;
    };
    const top: LeaveGuard = (_intent, proceed) => {
      agree = proceed;
      return true;
    };
    const guards: LeaveGuards = { mounted: [gone, top] };
    let left = 0;
    leaveThrough(guards, 'quit', () => (left += 1));
    guards.mounted.splice(0, 1);
    agree!();
    expect(asked).toEqual([]);
    expect(left).toBe(1);
  });
});
