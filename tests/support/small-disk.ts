import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A file system of its own, small enough to fill in a test ({@link mountSmallDisk}). */
export interface SmallDisk {
  /** Where it is mounted. */
  dir: string;
  /** Writes a filler file until the file system answers ENOSPC: every byte of it is taken. */
  fill(): void;
  /** Deletes the filler: the space it took is free again. */
  free(): void;
  /** Unmounts it and deletes its mount point. */
  remove(): void;
}

/**
 * Mounts a tmpfs of `bytes` on a new temporary folder: a disk that a test can fill and free, so the
 * store meets ENOSPC from the kernel as it does on a full disk in production. Needs the right to
 * mount (root with CAP_SYS_ADMIN, as CI runs).
 * @returns the disk, or undefined when this process may not mount (the caller skips its tests).
 */
export function mountSmallDisk(bytes: number): SmallDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Large blocks first, then single bytes, so no part of a page is left.
        for (const size of [65_536, 4_096, 1]) {
          const block = Buffer.alloc(size);
          try {
            for (;;) writeSync(fd, block);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      unlinkSync(filler);
    },
    remove() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
