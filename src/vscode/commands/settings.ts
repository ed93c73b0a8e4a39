import * as vscode from 'vscode';
import { checkBaseUrl } from '../../core/links';
import { addEnvironment, listEnvironments, setActiveEnvironment, updateEnvironment } from '../environments';
import { command, type Deps } from './deps';

export function checkProjectId(value: string): string | undefined {
  const id = value.trim();
  if (id === '') return 'Enter the project id from the dashboard\'s API keys page.';
  if (/\s/.test(id) || id.length > 200) return 'A project id has no spaces.';
  if (/^https?:\/\//i.test(id)) return 'That is a URL: enter the project id, and the base URL with Docs Admin: Set Base URL.';
  return undefined;
}

export function registerSettingCommands(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.projectId.set', deps, async (given?: string) => {
      const env = deps.session.environment;
      const value = given ?? (await vscode.window.showInputBox({ title: `Docs Admin: project id for "${env.name}"`, value: env.projectId, ignoreFocusOut: true, validateInput: checkProjectId }));
      if (value === undefined) return false;
      const problem = checkProjectId(value);
      if (problem !== undefined) throw new Error(problem);
      // Settings are plain text (and may sync): an admin key pasted here must never land there.
      if (deps.keys.known().includes(value.trim())) {
        throw new Error('That is the admin key, not the project id; it was not saved (settings are plain text). The project id is on the dashboard\'s API keys page, beside the key.');
      }
      await updateEnvironment(env, 'projectId', value.trim());
      await deps.session.rebuild();
      return true;
    }),
    command('docsAdmin.baseUrl.set', deps, async (given?: string) => {
      const env = deps.session.environment;
      const validate = (v: string) => {
        const r = checkBaseUrl(v);
        return r.ok ? undefined : r.reason;
      };
      const value = given ?? (await vscode.window.showInputBox({ title: `Docs Admin: admin API base URL for "${env.name}"`, value: env.baseUrl, placeHolder: 'https://api.example.com', ignoreFocusOut: true, validateInput: validate }));
      if (value === undefined) return false;
      const checked = checkBaseUrl(value);
      if (!checked.ok) throw new Error(checked.reason);
      await updateEnvironment(env, 'baseUrl', checked.baseUrl);
      await deps.session.rebuild();
      return true;
    }),
    command('docsAdmin.environment.switch', deps, async (given?: string) => {
      let id = given;
      if (id === undefined) {
        const current = deps.session.environment.id;
        const items: (vscode.QuickPickItem & { id: string })[] = listEnvironments().map((e) => ({
          id: e.id,
          label: `${e.id === current ? '$(check) ' : ''}${e.name}`,
          description: e.baseUrl === '' ? '(no base URL)' : e.baseUrl,
          detail: e.projectId === '' ? 'no project id' : `project ${e.projectId}`,
        }));
        items.push({ id: '+add', label: '$(add) Add Environment…', description: 'another base URL, project id and key' });
        const picked = await vscode.window.showQuickPick(items, { title: 'Docs Admin: switch environment', ignoreFocusOut: true });
        if (picked === undefined) return false;
        id = picked.id;
      }
      if (id === '+add') {
        const name = await vscode.window.showInputBox({ title: 'Docs Admin: new environment name', placeHolder: 'staging', validateInput: (v) => (v.trim() === '' ? 'Enter a name.' : undefined) });
        if (name === undefined) return false;
        id = await addEnvironment({ name: name.trim(), baseUrl: '', projectId: '' });
      }
      if (!listEnvironments().some((e) => e.id === id)) throw new Error(`There is no environment "${id}".`);
      await setActiveEnvironment(deps.context.globalState, id);
      await deps.session.rebuild();
      return true;
    }),
  ];
}
