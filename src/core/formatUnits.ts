/** Sizes and durations as a person reads them, in the display language: pure. */
import * as l10n from '@vscode/l10n';

/** `512 B`, `3.4 MB`, `120 GB`: a size in bytes, in binary units. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return l10n.t('{0} B', bytes);
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < 3) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 100 ? value.toFixed(0) : value.toFixed(1);
  return unit === 0 ? l10n.t('{0} KB', shown) : unit === 1 ? l10n.t('{0} MB', shown) : unit === 2 ? l10n.t('{0} GB', shown) : l10n.t('{0} TB', shown);
}

/** `5s`, `3m`, `2h 5m`, `4d`: a compact duration. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return l10n.t({ message: '{0}s', args: [s], comment: ['A duration in seconds, as short as it gets.'] });
  const m = Math.floor(s / 60);
  if (m < 60) return l10n.t({ message: '{0}m', args: [m], comment: ['A duration in minutes, as short as it gets.'] });
  const h = Math.floor(m / 60);
  if (h < 24) {
    return m % 60 === 0
      ? l10n.t({ message: '{0}h', args: [h], comment: ['A duration in hours, as short as it gets.'] })
      : l10n.t({ message: '{0}h {1}m', args: [h, m % 60], comment: ['A duration in hours and minutes, as short as it gets.'] });
  }
  return l10n.t({ message: '{0}d', args: [Math.floor(h / 24)], comment: ['A duration in days, as short as it gets.'] });
}
