/** Offsets to lines and columns (both from 1, columns in UTF-16 code units) and back, for one text. */
import type { Position } from './siteTypes';

export class LineIndex {
  /** The offset at which each line starts. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - (this.starts[low] ?? 0) + 1, offset: at };
  }

  offsetOf(line: number, column: number): number {
    const start = this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))] ?? 0;
    return Math.min(this.text.length, start + Math.max(0, column - 1));
  }
}
