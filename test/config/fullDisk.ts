// A really full file system for tests: a 64 KiB tmpfs (needs root and mount(2); CI containers may refuse),
// filled to the last page. When it cannot be mounted, `mountFullDisk` says why and the caller SKIPs loudly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

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

/**
 * Called at a test file's top level: it tries a mount at once (to say whether the tests can run), and mounts for
 * the file's tests in a file-level beforeAll, unmounting in its afterAll. A filter that runs none of the file's
 * tests runs neither hook, and leaves no mount behind.
 */
export function mountFullDisk(sizeKiB = 64): FullDiskAvailability {
  const dir = mkdtempSync(join(tmpdir(), 'bc-full-disk-'));
  const mount = () => execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  try {
    mount();
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { ok: false, reason: `cannot mount a ${sizeKiB} KiB tmpfs here (${stderr || (error as Error).message.split('\n')[0]})` };
  }
  let mounted = false;
  const unmount = () => {
    if (mounted) execFileSync('umount', [dir], { stdio: 'pipe' });
    mounted = false;
    rmSync(dir, { recursive: true, force: true });
  };
  beforeAll(() => {
    mount();
    mounted = true;
  });
  afterAll(unmount);
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
    unmount,
  };
  return { ok: true, disk };
}
