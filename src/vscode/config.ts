import * as vscode from 'vscode';
import type { DeploymentType } from '../core/deploy/availability';

export const SECTION = 'docsAdmin';

export interface EnvironmentSetting {
  name: string;
  baseUrl: string;
  projectId: string;
}

export interface Config {
  baseUrl: string;
  projectId: string;
  environments: EnvironmentSetting[];
  notifications: 'all' | 'failures' | 'none';
  minIntervalMs: number;
  maxIntervalMs: number;
  /** A known bundle link with less time left than this is regenerated before use. */
  linkMinimumMs: number;
  extractMaxEntries: number;
  extractMaxTotalBytes: number;
  previewOpenIn: 'simpleBrowser' | 'external';
  /** A bundleUrl in a values file expiring within this is a warning. */
  valuesWarnWithinMs: number;
  rollout: { command: string; release: string; chart: string; namespace: string };
  deploymentType: DeploymentType;
  airGapped: { bundleDirectory: string; bundleBaseUrl: string };
}

export type { DeploymentType } from '../core/deploy/availability';

/** The extension's settings, typed and sanitised in one place. */
export function readConfig(): Config {
  const c = vscode.workspace.getConfiguration(SECTION);
  const environments = c.get<unknown[]>('environments', []).filter(
    (e): e is EnvironmentSetting =>
      typeof e === 'object' && e !== null && ['name', 'baseUrl', 'projectId'].every((k) => typeof (e as Record<string, unknown>)[k] === 'string'),
  );
  const notifications = c.get<string>('notifications', 'all');
  const min = Math.max(1, c.get<number>('polling.minIntervalSeconds', 2));
  const max = Math.max(min, c.get<number>('polling.maxIntervalSeconds', 60));
  return {
    baseUrl: c.get<string>('baseUrl', '').trim(),
    projectId: c.get<string>('projectId', '').trim(),
    environments,
    notifications: notifications === 'failures' || notifications === 'none' ? notifications : 'all',
    minIntervalMs: min * 1000,
    maxIntervalMs: max * 1000,
    linkMinimumMs: Math.max(1, c.get<number>('bundle.linkMinimumMinutes', 10)) * 60_000,
    extractMaxEntries: Math.max(1, Math.floor(c.get<number>('extract.maxEntries', 100_000))),
    extractMaxTotalBytes: Math.max(1, c.get<number>('extract.maxTotalMegabytes', 4096)) * 1024 * 1024,
    previewOpenIn: c.get<string>('preview.openIn', 'simpleBrowser') === 'external' ? 'external' : 'simpleBrowser',
    valuesWarnWithinMs: Math.max(0, c.get<number>('values.warnBeforeExpiryHours', 24)) * 3600_000,
    rollout: {
      command: c.get<string>('rollout.command', 'helm upgrade --install ${release} ${chart} -f ${valuesFile}').trim(),
      release: c.get<string>('rollout.release', 'docs').trim(),
      chart: c.get<string>('rollout.chart', './chart').trim(),
      namespace: c.get<string>('rollout.namespace', '').trim(),
    },
    deploymentType: ((t) => (t === 'cloud' || t === 'airGapped' ? t : 'clientHosted'))(c.get<string>('deploymentType', 'clientHosted')),
    airGapped: { bundleDirectory: c.get<string>('airGapped.bundleDirectory', '').trim(), bundleBaseUrl: c.get<string>('airGapped.bundleBaseUrl', '').trim().replace(/\/+$/, '') },
  };
}
