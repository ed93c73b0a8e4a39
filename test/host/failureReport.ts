/**
 * What the UI check prints when a step fails, beside failure.png: the simulator's last requests
 * and the end of the extension's own log (its "Docs Admin" output channel, written under the
 * window's user data), so a failure seen once on a loaded machine says why. The log quotes the
 * simulator's answers: every line is neutralised for a terminal and stripped of keys first.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../../src/core/redact';
import { forTerminal } from '../../src/core/untrusted';
import type { Simulator } from '../simulator';

function logFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return logFiles(path);
    return /Docs Admin\.log$/.test(entry.name) ? [path] : [];
  });
}

export function failureReport(sim: Simulator, userDataDir: string | undefined, lines = 40): string {
  const clean = (text: string) => forTerminal(redactSecrets(text, [sim.key]));
  const requests = sim.requests.slice(-15).map((r) => `  ${r.method} ${r.route} ${r.status}`);
  const report = [`the simulator's last ${requests.length} requests (method, route, status):`, ...requests.map(clean)];
  const files = userDataDir === undefined ? [] : logFiles(userDataDir);
  if (files.length === 0) report.push('no "Docs Admin" log file under the user data folder');
  for (const file of files) {
    const tail = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').slice(-lines);
    report.push(`the last ${tail.length} lines of ${file}:`, ...tail.map((l) => `  ${clean(l)}`));
  }
  return report.join('\n');
}
