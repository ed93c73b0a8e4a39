/**
 * Date ranges for the analytics: the editor's periods (the last 7, 30 or 90 days, today
 * included) and the CLI's `--from` / `--to`, checked before anything is sent. The API takes
 * `YYYY-MM-DD` or ISO 8601, with `dateTo` exclusive. Pure: the clock is an argument.
 */
import * as l10n from '@vscode/l10n';
import type { DateRange } from './analyticsTypes';

export const PERIOD_DAYS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIOD_DAYS)[number];

const DAY_MS = 86_400_000;

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The last `days` days up to today (UTC) included: `to` is tomorrow, as `dateTo` is exclusive. */
export function periodRange(days: number, now: number): DateRange {
  const tomorrow = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return { from: day(tomorrow - days * DAY_MS), to: day(tomorrow) };
}

/** The key a period's data is cached under (it changes at midnight UTC, so a new day loads afresh). */
export function rangeKey(range: DateRange): string {
  return `${range.from}..${range.to}`;
}

export type DateCheck = { ok: true; value: string; at: number } | { ok: false; reason: string };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A date as the API takes it: `YYYY-MM-DD`, or an ISO 8601 date and time with its zone
 * (`2026-11-01T08:00:00Z`). A day that does not exist (`2026-02-30`) is refused, as is any other
 * shape; `name` says which option it was.
 */
export function checkDate(text: string, name: string): DateCheck {
  const value = text.trim();
  const match = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (match === null) return { ok: false, reason: l10n.t('{0} takes a date as YYYY-MM-DD (or ISO 8601 with a time and zone, such as 2026-11-01T08:00:00Z), not "{1}".', name, value) };
  const [, y, m, d, hh, mm, ss] = match;
  const at = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  const calendar = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const real = calendar.getUTCFullYear() === Number(y) && calendar.getUTCMonth() === Number(m) - 1 && calendar.getUTCDate() === Number(d);
  const clock = hh === undefined || (Number(hh) < 24 && Number(mm) < 60 && (ss === undefined || Number(ss) < 60));
  if (Number.isNaN(at) || !real || !clock) return { ok: false, reason: l10n.t('{0}: "{1}" is not a real date.', name, value) };
  return { ok: true, value, at };
}

/** `from` and `to` checked together: both dates, `from` before `to` (`to` is exclusive: the day itself is left out). */
export function checkRange(from: string, to: string, names: { from: string; to: string }): { ok: true; range: DateRange } | { ok: false; reason: string } {
  const a = checkDate(from, names.from);
  if (!a.ok) return a;
  const b = checkDate(to, names.to);
  if (!b.ok) return b;
  if (a.at >= b.at) {
    return { ok: false, reason: l10n.t('{0} ({1}) must come before {2} ({3}), which is exclusive: to report one day, give the next day as {2}.', names.from, a.value, names.to, b.value) };
  }
  return { ok: true, range: { from: a.value, to: b.value } };
}
