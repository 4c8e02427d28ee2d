// The order files start in: those that mostly wait (tmux, pacing, rate limits, load) first, so their waits
// overlap the CPU-bound files instead of forming the run's tail; then vitest's own order (longest known first).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const WAITING_FIRST: readonly RegExp[] = [/\/test\/e2e\//, /\/test\/(export\/subAccountScan|ui\/discover|ui\/chart|sandbox\/load|api\/faultMatrix|commands\/exportPacing|commands\/subAccounts)\.test\./];

export class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const at = WAITING_FIRST.findIndex((pattern) => pattern.test(file.moduleId));
      return at === -1 ? WAITING_FIRST.length : at;
    };
    return ordered.map((file, index) => ({ file, index })).sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index).map(({ file }) => file);
  }
}
