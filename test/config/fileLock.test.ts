// The lock every config change takes: a stale lock (its holder gone) is taken over by exactly one of the
// writers waiting for it, even when a new lock gets the removed one's inode number.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/config/fileLock';

let folder: string | undefined;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** A pid that was this host's and is gone: a child that has already exited. */
const gonePid = (): number => spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid as number;

describe('withFileLock', () => {
  it('writers waiting on a stale lock take it over one at a time: never two inside at once (30 rounds of 6)', async () => {
    folder = await mkdtemp(join(tmpdir(), 'bc-lock-'));
    const file = join(folder, 'state.json');
    const dead = gonePid();
    let inside = 0;
    let most = 0;
    let entered = 0;
    for (let round = 0; round < 30; round += 1) {
      await writeFile(`${file}.lock`, JSON.stringify({ pid: dead, host: hostname(), at: Date.now() }));
      await Promise.all(
        Array.from({ length: 6 }, () =>
          withFileLock(file, async () => {
            inside += 1;
            entered += 1;
            most = Math.max(most, inside);
            await new Promise((resolve) => setImmediate(resolve));
            inside -= 1;
          }),
        ),
      );
    }
    expect(entered).toBe(180);
    expect(most).toBe(1);
  });
});
