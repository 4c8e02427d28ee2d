// Appends that are whole lines or nothing: a short write on a really full file system is cut back (the
// --log-file says how many lines it left out), and a line damaged earlier never swallows the next one.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExchangeInfo } from '../../src/api/contract';
import { appendAudit, readAuditTrail } from '../../src/config/auditTrail';
import { openExchangeLog } from '../../src/config/logFile';
import { mountFullDisk } from './fullDisk';

const exchange: ExchangeInfo = {
  operation: 'list keys',
  method: 'GET',
  path: '/api/v3/broker/sub-account/apiKey?x=1',
  status: 200,
  ok: true,
  latencyMs: 12,
  attempt: 1,
};
const entry = {
  time: '2026-01-01T00:00:00.000Z',
  profile: 'p',
  host: 'h',
  subAccount: 'desk',
  permissions: ['SPOT_ACCOUNT_READ'],
  ips: [],
  note: 'n',
  outcome: 'refused' as const,
};

describe('a line damaged earlier', () => {
  it('the next audit line starts on a line of its own: one damaged line skipped, the new entry read', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bc-whole-line-'));
    try {
      await appendAudit(folder, entry);
      appendFileSync(join(folder, 'audit.jsonl'), '{"time":"2026-01-01T00:00:01.000Z","prof');
      await appendAudit(folder, { ...entry, note: 'after' });
      const { entries, skipped } = await readAuditTrail(folder);
      expect(skipped).toBe(1);
      expect(entries.map((e) => e.note)).toEqual(['n', 'after']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

const disk = mountFullDisk(64);
if (!disk.ok) console.warn(`SKIPPED short-write tests of the log file: ${disk.reason}`);
// At the file's level: a filter that skips the describe would skip its own afterAll, and leave the mount.
afterAll(() => {
  if (disk.ok) disk.disk.unmount();
});

describe.skipIf(!disk.ok)('--log-file on a nearly full disk (64 KiB tmpfs)', () => {
  it('a line that fits only in part is cut back, and close() counts it', async () => {
    if (!disk.ok) return;
    const path = join(disk.disk.dir, 'exchanges.log');
    // The last page holds 20 bytes more: a log line (~110 bytes) is written in part, then cut back.
    writeFileSync(path, `${'x'.repeat(4096 - 20 - 1)}\n`, { mode: 0o600 });
    disk.disk.fill();
    const log = await openExchangeLog(path);
    log.record(exchange, 'mx0vabcdefghijkl');
    expect(await log.close()).toBe(1);
    expect(statSync(path).size).toBe(4096 - 20);
    expect(readFileSync(path, 'utf8').endsWith('x\n')).toBe(true);
    disk.disk.free();
    const again = await openExchangeLog(path);
    again.record(exchange, 'mx0vabcdefghijkl');
    expect(await again.close()).toBe(0);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-2)).toMatch(/^\S+ op=list_keys GET \/api\/v3\/broker\/sub-account\/apiKey status=200/);
  });
});
