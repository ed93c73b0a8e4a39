/**
 * Tests that only Linux can run: a device, a filesystem or a program only Linux has. Off Linux
 * (CI's Windows and macOS unit jobs) they are not defined at all rather than skipped (CI counts
 * a skip as a failure); on Linux, where the README's counts are made, every one of them runs and
 * fails if what it needs is missing. Whole files are listed in test/unit/linux-only.json instead.
 */
import type { Func } from 'mocha';

export const onLinux = process.platform === 'linux';

/** `it(title, fn)` on Linux; nothing elsewhere, for the reason `linuxOnly` gives. */
export function itOnLinux(title: string, linuxOnly: string, fn: Func | (() => Promise<void>)): void {
  if (linuxOnly === '') throw new Error(`${title}: say why it runs on Linux only`);
  if (onLinux) it(title, fn as Func);
}
