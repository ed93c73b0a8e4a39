/**
 * The caps an extraction holds to, defined once: the extension's settings (`docsAdmin.extract.*`,
 * whose package.json defaults a test holds to these) and the CLI's flags both start here.
 *
 * The compression-ratio guard is counted on the bytes actually inflated against the compressed
 * bytes actually consumed, never on what headers declare: once more than `ratioAfterBytes` have
 * come out (of one entry, or of the whole archive), more than `maxRatio` bytes out for every byte
 * in is refused. A docs site (HTML compresses 5-10:1) never comes near 100:1; a bomb of zeros
 * (about 1,000:1) is stopped after 64 MiB. Apache POI guards its zip reading the same way.
 */
import * as l10n from '@vscode/l10n';

export interface ExtractLimits {
  /** `docsAdmin.extract.maxEntries`, `--max-entries`. */
  maxEntries: number;
  /** `docsAdmin.extract.maxTotalMegabytes`, `--max-total-mb` (here in bytes). */
  maxTotalBytes: number;
  /** `docsAdmin.extract.maxCompressionRatio`, `--max-compression-ratio`: bytes out per compressed byte in. */
  maxRatio: number;
  /** `docsAdmin.extract.ratioCheckAfterMegabytes`, `--ratio-check-after-mb` (here in bytes). */
  ratioAfterBytes: number;
}

const MiB = 1024 * 1024;

/** The defaults, in the units of the settings and flags. */
export const EXTRACT_DEFAULTS = {
  maxEntries: 100_000,
  maxTotalMegabytes: 4096,
  maxCompressionRatio: 100,
  ratioCheckAfterMegabytes: 64,
} as const;

export const DEFAULT_LIMITS: ExtractLimits = {
  maxEntries: EXTRACT_DEFAULTS.maxEntries,
  maxTotalBytes: EXTRACT_DEFAULTS.maxTotalMegabytes * MiB,
  maxRatio: EXTRACT_DEFAULTS.maxCompressionRatio,
  ratioAfterBytes: EXTRACT_DEFAULTS.ratioCheckAfterMegabytes * MiB,
};

/** The values as a setting or flag gives them (any may be missing or nonsense); a default where so. */
export interface LimitValues {
  maxEntries?: unknown;
  maxTotalMegabytes?: unknown;
  maxCompressionRatio?: unknown;
  ratioCheckAfterMegabytes?: unknown;
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The limits from settings or flags, in bytes; anything not a positive number is the default. */
export function extractLimits(values: LimitValues = {}): ExtractLimits {
  return {
    maxEntries: Math.max(1, Math.floor(positive(values.maxEntries, EXTRACT_DEFAULTS.maxEntries))),
    maxTotalBytes: Math.round(positive(values.maxTotalMegabytes, EXTRACT_DEFAULTS.maxTotalMegabytes) * MiB),
    maxRatio: positive(values.maxCompressionRatio, EXTRACT_DEFAULTS.maxCompressionRatio),
    ratioAfterBytes: Math.round(positive(values.ratioCheckAfterMegabytes, EXTRACT_DEFAULTS.ratioCheckAfterMegabytes) * MiB),
  };
}

/** How a message names each limit, so that it says how to raise it: the settings, or the CLI's flags. */
export interface LimitNames {
  maxEntries: string;
  maxTotalMegabytes: string;
  maxCompressionRatio: string;
  ratioCheckAfterMegabytes: string;
}

/** The extension's settings, as a message names them ("the setting docsAdmin.extract.maxEntries"). */
export function settingNames(): LimitNames {
  const setting = (name: string) => l10n.t('the setting {0}', name);
  return {
    maxEntries: setting('docsAdmin.extract.maxEntries'),
    maxTotalMegabytes: setting('docsAdmin.extract.maxTotalMegabytes'),
    maxCompressionRatio: setting('docsAdmin.extract.maxCompressionRatio'),
    ratioCheckAfterMegabytes: setting('docsAdmin.extract.ratioCheckAfterMegabytes'),
  };
}

/** The CLI's flags, as a message names them ("the option --max-entries"). */
export function flagNames(): LimitNames {
  const flag = (name: string) => l10n.t('the option {0}', name);
  return {
    maxEntries: flag('--max-entries'),
    maxTotalMegabytes: flag('--max-total-mb'),
    maxCompressionRatio: flag('--max-compression-ratio'),
    ratioCheckAfterMegabytes: flag('--ratio-check-after-mb'),
  };
}
