// A file system without hard links, as an exFAT USB stick or many network shares are: an 8 MiB exFAT image on a
// loop device, mounted through FUSE (root, losetup, mkfs.exfat and mount.exfat-fuse). `noHardLinksDisk` tries a
// mount at once, at a file's top level, to say whether its tests can run (the caller SKIPs loudly when not); each
// test mounts its own and unmounts it as it ends, so a filter that runs none leaves no mount behind.
import { execFileSync } from 'node:child_process';
import { closeSync, linkSync, mkdtempSync, openSync, rmSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NoHardLinksDisk {
  dir: string;
  unmount(): void;
}

export type NoHardLinksAvailability = { ok: true; mount(): NoHardLinksDisk } | { ok: false; reason: string };

const run = (command: string, args: string[]): string => execFileSync(command, args, { stdio: 'pipe', encoding: 'utf8' }).trim();

function mountOnce(): { ok: true; disk: NoHardLinksDisk } | { ok: false; reason: string } {
  const work = mkdtempSync(join(tmpdir(), 'bc-exfat-'));
  const image = join(work, 'disk.img');
  const dir = join(work, 'mnt');
  let device: string | undefined;
  let mounted = false;
  const unmount = () => {
    if (mounted) run('umount', [dir]);
    mounted = false;
    if (device !== undefined) run('losetup', ['-d', device]);
    device = undefined;
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const fd = openSync(image, 'w');
    ftruncateSync(fd, 8 * 1024 * 1024);
    closeSync(fd);
    run('mkfs.exfat', [image]);
    device = run('losetup', ['-f', '--show', image]);
    execFileSync('mkdir', [dir]);
    run('mount.exfat-fuse', [device, dir]);
    mounted = true;
    writeFileSync(join(dir, 'probe'), '');
    try {
      linkSync(join(dir, 'probe'), join(dir, 'probe-link'));
      unmount();
      return { ok: false, reason: 'the exFAT mount here takes hard links' };
    } catch {
      rmSync(join(dir, 'probe'));
    }
    return { ok: true, disk: { dir, unmount } };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    try {
      unmount();
    } catch {
      // Nothing more to free.
    }
    return { ok: false, reason: `cannot mount an exFAT image here (${stderr || (error as Error).message.split('\n')[0]})` };
  }
}

export function noHardLinksDisk(): NoHardLinksAvailability {
  const probe = mountOnce();
  if (!probe.ok) return probe;
  probe.disk.unmount();
  return {
    ok: true,
    mount() {
      const mounted = mountOnce();
      if (!mounted.ok) throw new Error(mounted.reason);
      return mounted.disk;
    },
  };
}
