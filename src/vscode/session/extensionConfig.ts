import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DeploymentType } from '../../core/helm/availability';
import { extractLimits, type ExtractLimits } from '../../core/bundle/extract/limits';

export const SECTION = 'docsAdmin';

/** The product's name: the output channel, the diagnostics' source, the task source. A name, so not translated. */
export const PRODUCT_NAME = 'Docs Admin';

export interface EnvironmentSetting {
  name: string;
  baseUrl: string;
  projectId: string;
  /** The docs site's address (Open Site); optional. */
  siteUrl?: string;
}

export interface Config {
  baseUrl: string;
  projectId: string;
  /** The default environment's docs site (Open Site). */
  siteUrl: string;
  environments: EnvironmentSetting[];
  notifications: 'all' | 'failures' | 'none';
  minIntervalMs: number;
  maxIntervalMs: number;
  /** A known bundle link with less time left than this is regenerated before use. */
  linkMinimumMs: number;
  /** Byte ranges fetched at once for a large bundle (1: one connection). */
  downloadConnections: number;
  /** `docsAdmin.extract.*`: in Restricted Mode the workspace's values are not read (see `restrictedValue`). */
  extract: ExtractLimits;
  previewOpenIn: 'simpleBrowser' | 'external';
  /** A bundleUrl in a values file expiring within this is a warning. */
  valuesWarnWithinMs: number;
  rollout: { command: string; release: string; chart: string; namespace: string };
  /** Plain http: bundle links to a remote host may be written into the values. */
  allowHttpBundleUrl: boolean;
  deploymentType: DeploymentType;
  airGapped: { bundleDirectory: string; bundleBaseUrl: string };
  readers: ReadersConfig;
}

/** `docsAdmin.readers.*`: the reader analytics. */
export interface ReadersConfig {
  /** Off: no request, no view content, no CodeLens. */
  enabled: boolean;
  codeLens: boolean;
  /** How long a period's data is kept before the next need loads it again. */
  cacheMs: number;
  /** A search whose click-through rate is under this share (0 to 1) found nothing useful. */
  lowClickThrough: number;
  /** The most rows read of each list (feedback, conversations, searches, views). */
  maxItems: number;
}

export function readReadersConfig(c: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration(SECTION)): ReadersConfig {
  const number = (key: string, fallback: number, min: number, max: number) => {
    const value = c.get<unknown>(key);
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
  };
  return {
    enabled: c.get<unknown>('readers.enabled') !== false,
    codeLens: c.get<unknown>('readers.codeLens') !== false,
    cacheMs: number('readers.cacheMinutes', 15, 1, 1440) * 60_000,
    lowClickThrough: number('readers.lowClickThroughPercent', 20, 0, 100) / 100,
    maxItems: Math.floor(number('readers.maxItems', 1000, 100, 10_000)),
  };
}


/**
 * A setting listed in package.json's `restrictedConfigurations`: in Restricted Mode only the
 * user's own value counts (or the default), never one a workspace brings (its .vscode/settings.json
 * or .code-workspace file, for any folder, in any language). VS Code leaves such values out itself;
 * this holds whatever the version, and for a value read while trust is being granted.
 */
export function restrictedValue(c: vscode.WorkspaceConfiguration, key: string): unknown {
  if (vscode.workspace.isTrusted) return c.get<unknown>(key);
  const seen = c.inspect<unknown>(key);
  return seen?.globalValue ?? seen?.defaultValue;
}

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
    siteUrl: c.get<string>('siteUrl', '').trim(),
    environments,
    notifications: notifications === 'failures' || notifications === 'none' ? notifications : 'all',
    minIntervalMs: min * 1000,
    maxIntervalMs: max * 1000,
    linkMinimumMs: Math.max(1, c.get<number>('bundle.linkMinimumMinutes', 10)) * 60_000,
    downloadConnections: Math.min(16, Math.max(1, Math.floor(c.get<number>('download.connections', 4)))),
    extract: extractLimits({
      maxEntries: restrictedValue(c, 'extract.maxEntries'),
      maxTotalMegabytes: restrictedValue(c, 'extract.maxTotalMegabytes'),
      maxCompressionRatio: restrictedValue(c, 'extract.maxCompressionRatio'),
      ratioCheckAfterMegabytes: restrictedValue(c, 'extract.ratioCheckAfterMegabytes'),
    }),
    previewOpenIn: c.get<string>('preview.openIn', 'simpleBrowser') === 'external' ? 'external' : 'simpleBrowser',
    valuesWarnWithinMs: Math.max(0, c.get<number>('values.warnBeforeExpiryHours', 24)) * 3600_000,
    allowHttpBundleUrl: c.get<boolean>('publish.allowHttpBundleUrl', false) === true,
    rollout: {
      command: c.get<string>('rollout.command', 'helm upgrade --install ${release} ${chart} -f ${valuesFile}').trim(),
      release: c.get<string>('rollout.release', 'docs').trim(),
      chart: c.get<string>('rollout.chart', './chart').trim(),
      namespace: c.get<string>('rollout.namespace', '').trim(),
    },
    deploymentType: ((t) => (t === 'cloud' || t === 'airGapped' ? t : 'clientHosted'))(c.get<string>('deploymentType', 'clientHosted')),
    airGapped: { bundleDirectory: c.get<string>('airGapped.bundleDirectory', '').trim(), bundleBaseUrl: c.get<string>('airGapped.bundleBaseUrl', '').trim().replace(/\/+$/, '') },
    readers: readReadersConfig(c),
  };
}

/** The settings the network depends on: a change to any of them rebuilds the session's clients. */
export const NETWORK_SETTINGS = ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL', 'http.proxyAuthorization', 'http.systemCertificates', `${SECTION}.network`];

export interface NetworkSettings {
  proxy: string;
  noProxy: string[];
  strictSSL: boolean;
  proxyAuthorization: string | undefined;
  systemCertificates: boolean;
  /** Paths of PEM files, `~` expanded; relative ones are kept (and refused with a message). */
  extraCaFiles: string[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : []);

/** VS Code's own proxy and certificate settings (`http.*`), and ours. */
export function readNetworkSettings(): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const ours = vscode.workspace.getConfiguration(SECTION);
  const authorization = http.get<unknown>('proxyAuthorization');
  return {
    proxy: typeof http.get<unknown>('proxy') === 'string' ? String(http.get<unknown>('proxy')).trim() : '',
    noProxy: strings(http.get<unknown>('noProxy')),
    strictSSL: http.get<unknown>('proxyStrictSSL') !== false,
    proxyAuthorization: typeof authorization === 'string' && authorization.trim() !== '' ? authorization.trim() : undefined,
    systemCertificates: http.get<unknown>('systemCertificates') !== false,
    extraCaFiles: strings(ours.get<unknown>('network.extraCaCertificates')).map((p) => (p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p)),
  };
}

/** How messages name the settings, in the editor (in the display language: the core places them in its sentences). */
export function networkHints() {
  return {
    proxy: 'http.proxy',
    noProxy: 'http.noProxy',
    proxyCredentials: vscode.l10n.t('the user name and password in {0} ({1}), or {2}', 'http.proxy', 'http://<user>:<password>@proxy:port', 'http.proxyAuthorization'),
    ca: CA_SETTING,
    strictSSL: 'http.proxyStrictSSL',
  };
}

/** The setting that names extra CA certificate files. */
export const CA_SETTING = `${SECTION}.network.extraCaCertificates`;
