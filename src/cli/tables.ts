/**
 * Rows printed three ways: a table for a person (columns aligned, each cell on one line and cut
 * to a width), JSON, or CSV for a spreadsheet (csv-stringify: RFC 4180 quoting, and a cell that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return prefixed with `'` so no spreadsheet
 * runs it as a formula). Everything still passes the CLI's `terminalSafe` on its way out.
 */
import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | boolean | null;

export interface Column<T> {
  header: string;
  value(row: T): Cell;
  /** Cut to this many characters in the table (never in JSON or CSV). */
  width?: number;
}

function cellText(value: Cell): string {
  return value === null ? '' : String(value);
}

/** The table: a header line, then a line per row; line breaks in a cell read as spaces. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) =>
    columns.map((c) => {
      const text = cellText(c.value(row)).replace(/\s+/g, ' ').trim();
      return c.width !== undefined && text.length > c.width ? `${text.slice(0, c.width - 1)}…` : text;
    }),
  );
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (parts: string[]) => parts.map((p, i) => (i === parts.length - 1 ? p : p.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n';
}

/**
 * CSV: the header, then the rows; formulas neutralised. The full-width forms of the formula
 * characters (which some spreadsheets read as formulas too) are neutralised the same way.
 */
export function csv<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const guard = (value: Cell): Cell => (typeof value === 'string' && /^[\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? `'${value}` : value);
  return stringify([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => guard(c.value(row))))], { escape_formulas: true, record_delimiter: 'unix', cast: { boolean: (value) => String(value) } });
}
