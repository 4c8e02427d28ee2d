// A really full file system for tests: a 64 KiB tmpfs (needs root and mount(2); CI containers may refuse),
// filled to the last page. When it cannot be mounted, `mountFullDisk` says why and the caller SKIPs loudly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FullDisk {
  /** The mount point (empty but for the filler). */
  dir: string;
  /** Fills every free page (after the caller has put its own files there). */
  fill(): void;
  /** Frees the space again. */
  free(): void;
  unmount(): void;
}

export type FullDiskAvailability = { ok: true; disk: FullDisk } | { ok: false; reason: string };

export function mountFullDisk(sizeKiB = 64): FullDiskAvailability {
  const dir = mkdtempSync(join(tmpdir(), 'bc-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { ok: false, reason: `cannot mount a ${sizeKiB} KiB tmpfs here (${stderr || (error as Error).message.split('\n')[0]})` };
  }
  const filler = join(dir, 'filler');
  const disk: FullDisk = {
    dir,
    fill() {
      // Page by page until the file system refuses: then no page is left for anything else.
      const page = Buffer.alloc(4096, 0x78);
      let content = Buffer.alloc(0);
      for (let i = 0; i < 4 * sizeKiB; i += 1) {
        content = Buffer.concat([content, page]);
        try {
          writeFileSync(filler, content);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return;
          throw error;
        }
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return { ok: true, disk };
}
