import * as vscode from 'vscode';
import { readConfig, SECTION, type EnvironmentSetting } from './extensionConfig';
import type { KeyStore } from './keys';

export interface Environment {
  /** `default`, or `env:<name>` for one of `docsAdmin.environments`. */
  id: string;
  name: string;
  baseUrl: string;
  projectId: string;
  /** The docs site's address, for Open Site ("" until set). */
  siteUrl: string;
}

const ACTIVE = 'docsAdmin.activeEnvironment';

export function listEnvironments(): Environment[] {
  const config = readConfig();
  return [
    { id: 'default', name: vscode.l10n.t({ message: 'Default', comment: 'The name of the environment set by docsAdmin.baseUrl and docsAdmin.projectId (the others are named by the person)' }), baseUrl: config.baseUrl, projectId: config.projectId, siteUrl: config.siteUrl },
    ...config.environments.map((e) => ({ id: `env:${e.name}`, name: e.name, baseUrl: e.baseUrl.trim(), projectId: e.projectId.trim(), siteUrl: typeof e.siteUrl === 'string' ? e.siteUrl.trim() : '' })),
  ];
}

export function activeEnvironment(state: vscode.Memento): Environment {
  const all = listEnvironments();
  const id = state.get<string>(ACTIVE, 'default');
  return all.find((e) => e.id === id) ?? (all[0] as Environment);
}

export async function setActiveEnvironment(state: vscode.Memento, id: string): Promise<void> {
  await state.update(ACTIVE, id);
}

/** Changes the active environment's base URL, project id or site address, where it is configured. */
export async function updateEnvironment(env: Environment, field: 'baseUrl' | 'projectId' | 'siteUrl', value: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  if (env.id === 'default') {
    await config.update(field, value, vscode.ConfigurationTarget.Global);
    return;
  }
  const list = config.get<EnvironmentSetting[]>('environments', []).map((e) => (`env:${e.name}` === env.id ? { ...e, [field]: value } : e));
  await config.update('environments', list, vscode.ConfigurationTarget.Global);
}

export async function addEnvironment(setting: EnvironmentSetting): Promise<string> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const list = config.get<EnvironmentSetting[]>('environments', []).filter((e) => e.name !== setting.name);
  await config.update('environments', [...list, setting], vscode.ConfigurationTarget.Global);
  return `env:${setting.name}`;
}

/** The project ids of every environment: a key box must not take one of them. */
export function knownProjectIds(): string[] {
  return listEnvironments().map((e) => e.projectId).filter((id) => id !== '');
}

/**
 * The admin keys of every environment (those read from the keychain, and those this window
 * holds), for telling a key pasted where it does not belong; a keychain that fails gives none.
 */
export async function knownKeys(keys: KeyStore): Promise<string[]> {
  const stored = await Promise.all(listEnvironments().map((e) => keys.get(e.id).catch(() => undefined)));
  return [...new Set([...stored.filter((k): k is string => k !== undefined && k !== ''), ...keys.known()])];
}
