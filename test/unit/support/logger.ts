/**
 * The logger every unit test hands the core (instead of a silent one): it keeps the lines for
 * the test to read, and gives each to the suite's collector, which fails the run if any of
 * them holds a key or a presigned signature.
 */
import type { Logger } from '../../../src/core/log';
import { collector } from './collector';

/** A logger that keeps every line it is given, at every level, and hands each to the collector. */
export interface RecordingLogger extends Logger {
  readonly lines: string[];
}

export function recordingLogger(source = 'log'): RecordingLogger {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => {
    lines.push(`[${level}] ${message}`);
    collector.record(`${source}:${level}`, message);
  };
  return { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
