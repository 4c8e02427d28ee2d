// The order files start in. The suite is CPU-bound on two cores, yet some files mostly wait (tmux, deadlines,
// rate limits, Retry-After): the run is shortest when files that wait run beside files that compute all along,
// not all at the start. Each kind is ordered longest first (by the last run's time, else by size), and the two
// are merged by how far through its kind each file starts, so both kinds run out together.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { uiGroupFiles } from './ui/groups';

/** Files that spend most of their time waiting (under a third of it on CPU, measured alone). */
const WAITING: readonly RegExp[] = [
  /\/test\/e2e\//,
  /\/test\/sandbox\/(bounds|auth|faults)\.test\./,
  /\/test\/api\/(faultMatrix|client\.sandbox)\.test\./,
  /\/test\/commands\/(transferSummary|exportPacing|subAccounts|keysAudit)\.test\./,
  /\/test\/export\/(subAccountScan|pacer)\.test\./,
  /\/test\/startup\/consoleCache\.test\./,
  /\/test\/ui\/(keyAudit|keys)\.test\./,
];

export class WaitsBesideWork extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const cache = this.ctx.cache;
    const durationOf = (file: TestSpecification): number => {
      const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
      // Unknown (a fresh clone): ~1 s per 10 KB of test file, near enough to order by; a group, by its files'.
      const known = cache.getFileTestResults(key)?.duration;
      if (known !== undefined) return known;
      const group = /\/test\/ui\/screens-(\d+)\.group\.ts$/.exec(file.moduleId);
      const bytes = group ? uiGroupFiles(Number(group[1])).reduce((sum, path) => sum + statSync(path).size, 0) : (cache.getFileStats(key)?.size ?? 10_000);
      return bytes / 10;
    };
    const waits = (file: TestSpecification): boolean => WAITING.some((pattern) => pattern.test(file.moduleId));
    const starts = new Map<TestSpecification, number>();
    for (const kind of [true, false]) {
      const files = ordered.filter((file) => waits(file) === kind).sort((a, b) => durationOf(b) - durationOf(a));
      const total = files.reduce((sum, file) => sum + durationOf(file), 0) || 1;
      let before = 0;
      for (const file of files) {
        // A waiting file goes before a computing one due at the same point: its wait then overlaps the other's work.
        starts.set(file, before / total - (kind ? 1e-9 : 0));
        before += durationOf(file);
      }
    }
    return ordered.slice().sort((a, b) => (starts.get(a) ?? 0) - (starts.get(b) ?? 0));
  }
}
