import * as vscode from 'vscode';
import { checkEnvironmentName, checkProjectId } from '../../core/jobs/jobInput';
import { checkBaseUrl } from '../../core/links';
import { redactUrl } from '../../core/redact';
import { addEnvironment, knownKeys, listEnvironments, setActiveEnvironment, updateEnvironment } from '../session/environments';
import { command, valueFromCode, type Deps } from '../commandKit/commandToolkit';

/**
 * Set Project ID, Set Base URL and Switch Environment. Each takes its value from code only
 * (`fromCode({ value })`): a value from a link (a string) is shown in the box for the person to
 * confirm, and a link cannot switch the environment without the person picking it.
 */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.projectId.set', deps, async (given?: unknown) => {
      const { value: fromCodeValue, suggested } = valueFromCode(given);
      const env = deps.session.environment;
      // Settings are plain text (and may sync): an admin key pasted here must never land there.
      const keys = await knownKeys(deps.keys);
      const validate = (v: string) => {
        const r = checkProjectId(v, keys);
        return r.ok ? undefined : r.reason;
      };
      const value = fromCodeValue ?? (await deps.ui.inputBox({ title: vscode.l10n.t('Docs Admin: project id for "{0}"', env.name), value: suggested ?? env.projectId, ignoreFocusOut: true, validateInput: validate }));
      if (value === undefined) return false;
      const checked = checkProjectId(value, keys);
      if (!checked.ok) throw new Error(checked.reason);
      await updateEnvironment(env, 'projectId', checked.value);
      await deps.session.rebuild();
      return true;
    }),
    command('docsAdmin.baseUrl.set', deps, async (given?: unknown) => {
      const { value: fromCodeValue, suggested } = valueFromCode(given);
      const env = deps.session.environment;
      const validate = (v: string) => {
        const r = checkBaseUrl(v);
        return r.ok ? undefined : r.reason;
      };
      const value = fromCodeValue ?? (await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: admin API base URL for "{0}"', env.name),
          prompt: vscode.l10n.t('The admin key of "{0}" is sent only to the server it was set for: a new server gets it once you confirm.', env.name),
          value: suggested ?? env.baseUrl,
          placeHolder: 'https://api.example.com',
          ignoreFocusOut: true,
          validateInput: validate,
        }));
      if (value === undefined) return false;
      const checked = checkBaseUrl(value);
      if (!checked.ok) throw new Error(checked.reason);
      await updateEnvironment(env, 'baseUrl', checked.baseUrl);
      await deps.session.rebuild();
      return true;
    }),
    command('docsAdmin.environment.switch', deps, async (given?: unknown) => {
      // From anywhere but code, the person picks (a link must not move the key's use to another environment).
      let id = valueFromCode(given).value;
      if (id === undefined) {
        const current = deps.session.environment.id;
        const items: (vscode.QuickPickItem & { id: string })[] = listEnvironments().map((e) => ({
          id: e.id,
          label: `${e.id === current ? '$(check) ' : ''}${e.name}`,
          description: e.baseUrl === '' ? vscode.l10n.t('(no base URL)') : redactUrl(e.baseUrl),
          detail: e.projectId === '' ? vscode.l10n.t('no project id') : vscode.l10n.t('project {0}', e.projectId),
        }));
        items.push({ id: '+add', label: `$(add) ${vscode.l10n.t('Add Environment…')}`, description: vscode.l10n.t('another base URL, project id and key') });
        const picked = await deps.ui.quickPick(items, { title: vscode.l10n.t('Docs Admin: switch environment'), ignoreFocusOut: true });
        if (picked === undefined) return false;
        id = picked.id;
      }
      if (id === '+add') {
        const name = await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: new environment name'),
          placeHolder: vscode.l10n.t({ message: 'staging', comment: 'An example of an environment name' }),
          validateInput: checkEnvironmentName,
        });
        if (name === undefined) return false;
        const problem = checkEnvironmentName(name);
        if (problem !== undefined) throw new Error(problem);
        id = await addEnvironment({ name: name.trim(), baseUrl: '', projectId: '' });
      }
      if (!listEnvironments().some((e) => e.id === id)) throw new Error(vscode.l10n.t('There is no environment "{0}".', id));
      await setActiveEnvironment(deps.context.globalState, id);
      await deps.session.rebuild();
      return true;
    }),
  ];
}
