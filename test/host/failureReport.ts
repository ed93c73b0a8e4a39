/**
 * What the UI check prints when a step fails, beside failure.png: the simulator's last requests
 * and the end of the extension's own log (its "Docs Admin" output channel, written under the
 * window's user data), so a failure seen once on a loaded machine says why. The log quotes the
 * simulator's answers: every line is neutralised for a terminal and stripped of keys first.
 */
import { readFileSync } from 'node:fs';
import { redactSecrets } from '../../src/core/redact';
import { forTerminal } from '../../src/core/untrusted';
import type { Simulator } from '../simulator';
import { filesBelow } from './logScan';

export function failureReport(sim: Simulator, userDataDir: string | undefined, lines = 40): string {
  const clean = (text: string) => forTerminal(redactSecrets(text, [sim.key]));
  const requests = sim.requests.slice(-15).map((r) => `  ${r.method} ${r.route} ${r.status}`);
  const report = [`the simulator's last ${requests.length} requests (method, route, status):`, ...requests.map(clean)];
  // Read while code-server still runs: a file that goes meanwhile is left out (filesBelow, and
  // here), so the report never hides the failure it is printed for behind an error of its own.
  const files = userDataDir === undefined ? [] : filesBelow(userDataDir).map((f) => f.path).filter((path) => /Docs Admin\.log$/.test(path));
  if (files.length === 0) report.push('no "Docs Admin" log file under the user data folder');
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const tail = text.split('\n').filter((l) => l !== '').slice(-lines);
    report.push(`the last ${tail.length} lines of ${file}:`, ...tail.map((l) => `  ${clean(l)}`));
  }
  return report.join('\n');
}
