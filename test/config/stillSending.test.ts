// Whether an attempt's sender still waits: a process id is reused once its process ends, so a line ahead names
// its sender only while a process that started before the line still has that id.
import { type ChildProcess, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, test } from 'vitest';
import { type AuditEntry, NO_OUTCOME_REASON, SENDER_WAITS_AT_MOST_MS, stillSending } from '../../src/config/auditTrail';
import { processStartedAt } from '../../src/config/processStart';

const ahead = (pid: number, time: number): AuditEntry => ({
  time: new Date(time).toISOString(),
  profile: 'default',
  host: 'api.mexc.com',
  subAccount: 'desk01',
  permissions: ['SPOT_ACCOUNT_READ'],
  ips: [],
  note: 'n',
  outcome: 'unknown',
  reason: NO_OUTCOME_REASON,
  attempt: 'a1b2c3d4e5f60718',
  pid,
  machine: hostname(),
});

async function waiting(onTestFinished: (fn: () => void) => void): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  onTestFinished(() => void child.kill('SIGKILL'));
  await new Promise((resolve) => child.once('spawn', resolve));
  return child as ChildProcess & { pid: number };
}

const linux = process.platform === 'linux';

describe('the sender of a line written ahead', () => {
  test.runIf(linux)('a process started a moment ago: when the system says', () => {
    const started = processStartedAt(process.pid);
    expect(started).toBeDefined();
    expect(Math.abs(started! - performance.timeOrigin)).toBeLessThan(2000);
    expect(processStartedAt(2 ** 22 + 1)).toBeUndefined();
  });

  test('a running sender that wrote the line: still sending, under its pid', async ({ onTestFinished }) => {
    const child = await waiting(onTestFinished);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stillSending(ahead(child.pid, Date.now()))).toBe(child.pid);
  });

  test.runIf(linux)('a process that started after the line (its pid reused): not its sender', async ({ onTestFinished }) => {
    const child = await waiting(onTestFinished);
    expect(stillSending(ahead(child.pid, Date.now() - 30_000))).toBeUndefined();
  });

  test('a line older than any sender waits, its pid running: not sending (pid 1 after a reboot)', async ({ onTestFinished }) => {
    const child = await waiting(onTestFinished);
    const now = Date.now();
    expect(stillSending(ahead(child.pid, now - SENDER_WAITS_AT_MOST_MS - 1000), now)).toBeUndefined();
    expect(stillSending(ahead(1, now - 30 * 24 * 3_600_000), now)).toBeUndefined();
  });

  test('a sender that has ended: not sending', async ({ onTestFinished }) => {
    const child = await waiting(onTestFinished);
    const line = ahead(child.pid, Date.now());
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await ended;
    expect(stillSending(line)).toBeUndefined();
  });
});
