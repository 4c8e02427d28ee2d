// Whether an attempt's sender still waits: a process id is reused once its process ends, so a line ahead names
// its sender only while a process that started before the line still has that id.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AUDIT_FILE, type AuditEntry, NO_OUTCOME_REASON, SENDER_WAITS_AT_MOST_MS, createAuditRecorder, stillSending } from '../../src/config/auditTrail';
import { processIdentity, processStartedAt, uptimeSeconds } from '../../src/config/processStart';

const ahead = (pid: number, time: number, sender?: string): AuditEntry => ({
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
  ...(sender === undefined ? {} : { sender }),
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

  test.runIf(linux)('a line naming its sender exactly: sending while that process runs, whatever the clock did since', async ({ onTestFinished }) => {
    const child = await waiting(onTestFinished);
    const sender = processIdentity(child.pid);
    expect(sender).toMatch(/^[0-9a-f-]{36}\/\d+$/);
    const now = Date.now();
    // The wall clock stepped two hours forward since the line, or the line looks written before the process started.
    expect(stillSending(ahead(child.pid, now - 2 * 3_600_000, sender), now)).toBe(child.pid);
    expect(stillSending(ahead(child.pid, now - 30_000, sender), now)).toBe(child.pid);
    // Another process now holds the pid (its start differs), or the machine rebooted (its boot id differs).
    const [boot, ticks] = sender!.split('/');
    expect(stillSending(ahead(child.pid, now, `${boot}/${Number(ticks) - 1}`), now)).toBeUndefined();
    expect(stillSending(ahead(child.pid, now, `00000000-0000-0000-0000-000000000000/${ticks}`), now)).toBeUndefined();
    // Written, by the machine's uptime, longer ago than any sender waits: its outcome was lost, not in progress.
    const uptime = Math.floor(uptimeSeconds()!);
    expect(stillSending(ahead(child.pid, now, `${sender}/${uptime - 5}`), now)).toBe(child.pid);
    expect(stillSending(ahead(child.pid, now, `${sender}/${uptime - SENDER_WAITS_AT_MOST_MS / 1000 - 60}`), now)).toBeUndefined();
  });

  test('the line written ahead names its sender', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bc-still-sending-'));
    try {
      const recorder = createAuditRecorder(folder, { profile: 'default', host: 'api.mexc.com' });
      await recorder.ahead({ subAccount: 'desk01', permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'n' });
      const [line] = readFileSync(join(folder, AUDIT_FILE), 'utf8').trim().split('\n');
      const entry = JSON.parse(line!) as AuditEntry;
      expect(entry.pid).toBe(process.pid);
      // Its identity, then the machine's uptime it wrote at.
      expect(entry.sender).toMatch(new RegExp(`^${processIdentity(process.pid)!.replace(/[-/]/g, '\\$&')}/\\d+$`));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
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
