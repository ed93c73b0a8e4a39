/** The simulator's clock: real time, shifted by a skew, plus whatever tests advanced it by. */
export class SimClock {
  private advanced = 0;

  constructor(private readonly skewMs: number) {}

  now(): number {
    return Date.now() + this.skewMs + this.advanced;
  }

  advance(ms: number): void {
    this.advanced += ms;
  }
}

/** S3's `X-Amz-Date` format: `yyyyMMddTHHmmssZ`. */
export function amzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function parseAmzDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}
