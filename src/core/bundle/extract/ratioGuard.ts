/**
 * The compression-ratio guard (limits.ts says why): bytes inflated against compressed bytes
 * consumed, for each entry and for the whole archive, checked before a chunk is written, so that
 * a refused bomb has written at most `ratioAfterBytes` (of that entry, or of the archive).
 */
import * as l10n from '@vscode/l10n';
import { formatBytes } from '../../formatUnits';
import { UnsafeArchiveError } from './archivePaths';
import type { ExtractLimits, LimitNames } from './limits';

/** One running count: bytes out, and the compressed bytes in that gave them. */
export class RatioCount {
  output = 0;
  constructor(
    private readonly limits: ExtractLimits,
    private readonly names: LimitNames,
    /** The entry's name, as the archive spells it; undefined for the whole archive. */
    private readonly entry?: string,
  ) {}

  /**
   * `more` bytes are about to come out, and `input` compressed bytes have been consumed so far
   * (for this count): refused when the output would pass the limit.
   */
  add(more: number, input: number): void {
    const output = this.output + more;
    if (output > this.limits.ratioAfterBytes && output > this.limits.maxRatio * Math.max(1, input)) throw this.refusal(output, input);
    this.output = output;
  }

  private refusal(output: number, input: number): UnsafeArchiveError {
    const ratio = this.limits.maxRatio;
    const raise = this.names.maxCompressionRatio;
    const out = formatBytes(output);
    const from = formatBytes(Math.max(0, input));
    const message =
      this.entry === undefined
        ? l10n.t('The bundle expands more than {0} times over ({1} from {2} compressed), as an archive bomb does; nothing was extracted. If you trust the bundle, raise {3}.', ratio, out, from, raise)
        : l10n.t('The bundle holds a file that expands more than {0} times over ({1}: {2} from {3} compressed), as an archive bomb does; nothing was extracted. If you trust the bundle, raise {4}.', ratio, this.entry, out, from, raise);
    return new UnsafeArchiveError('compressionRatio', message, this.entry);
  }
}
