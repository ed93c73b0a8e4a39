/**
 * The rollout command, from a template whose parts are settings:
 * `helm upgrade --install ${release} ${chart} -f ${valuesFile}` by default. Each value is quoted
 * for a POSIX shell (or cmd.exe), so a path with spaces or quotes stays one argument and cannot
 * run anything.
 */

export interface RolloutParts {
  release: string;
  chart: string;
  valuesFile: string;
  namespace?: string;
}

export function shellQuote(value: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  if (platform === 'win32') return `"${value.replace(/"/g, '""')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function buildRolloutCommand(template: string, parts: RolloutParts, platform: NodeJS.Platform = process.platform): string {
  const values: Record<string, string> = { release: parts.release, chart: parts.chart, valuesFile: parts.valuesFile, namespace: parts.namespace ?? '' };
  let command = template.replace(/\$\{(release|chart|valuesFile|namespace)\}/g, (_m, name: string) => shellQuote(values[name] ?? '', platform));
  if (parts.namespace !== undefined && parts.namespace !== '' && !template.includes('${namespace}')) command += ` --namespace ${shellQuote(parts.namespace, platform)}`;
  return command;
}
