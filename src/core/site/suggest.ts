/** "Did you mean": the known names nearest a mistyped one (edit distance), for messages and quick fixes. Pure. */

/** Names further apart than this many edits are not suggested. */
const MAX_EDITS = 6;

/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
export function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = new Uint16Array(b.length + 1);
  let current = new Uint16Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length] ?? limit + 1;
}

/** Up to `count` candidates within a third of the name's length (2 to 6 edits), nearest first, then by name. */
export function nearest(name: string, candidates: Iterable<string>, count = 3): string[] {
  const limit = Math.min(MAX_EDITS, Math.max(2, Math.floor(name.length / 3)));
  const scored: [number, string][] = [];
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const d = distance(name, candidate, limit);
    if (d <= limit) scored.push([d, candidate]);
  }
  scored.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  return scored.slice(0, count).map(([, c]) => c);
}
