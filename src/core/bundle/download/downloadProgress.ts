/**
 * A download's progress as the person sees it: bytes on disk, the speed (averaged over about a
 * second, so that it does not flicker), how much of the archive the check has read through, and
 * whether what is left is the check. At most ten reports a second, and always the last one.
 */
import type { DownloadProgress } from './options';

export class ProgressReport {
  received = 0;
  total: number | undefined;
  checked = 0;
  phase: DownloadProgress['phase'] = 'download';
  private speed = { at: 0, bytes: 0, rate: 0, reported: 0 };

  constructor(
    private readonly now: () => number,
    private readonly report: ((progress: DownloadProgress) => void) | undefined,
  ) {}

  /** Downloading, or every byte on disk and the archive check catching up. */
  enter(phase: DownloadProgress['phase']): void {
    this.phase = phase;
    this.tell(true);
  }

  /** The check has read every byte on disk. */
  checkedAll(): void {
    this.checked = this.received;
    this.tell(true);
  }

  /** The speed is measured from here (a new request, after a pause). */
  restartClock(): void {
    this.speed = { at: this.now(), bytes: this.received, rate: this.speed.rate, reported: 0 };
  }

  tell(force: boolean): void {
    const now = this.now();
    const elapsed = now - this.speed.at;
    if (elapsed >= 1_000) {
      const rate = ((this.received - this.speed.bytes) * 1000) / elapsed;
      this.speed = { at: now, bytes: this.received, rate: this.speed.rate === 0 ? rate : 0.5 * this.speed.rate + 0.5 * rate, reported: this.speed.reported };
    }
    if (!force && now - this.speed.reported < 100) return;
    this.speed.reported = now;
    this.report?.({ received: this.received, total: this.total, bytesPerSecond: this.phase === 'check' ? 0 : Math.round(this.speed.rate), checked: this.checked, phase: this.phase });
  }
}
