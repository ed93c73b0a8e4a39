import * as vscode from 'vscode';
import { AuthError, ForbiddenError, NotFoundError } from '../../core/api/apiErrors';
import { checkAdminKey } from '../../core/jobs/jobInput';
import { checkBaseUrl } from '../../core/links';
import { knownProjectIds } from '../session/environments';
import { command, optionsFromCode, type Deps } from '../commandKit/commandToolkit';

type Check = 'accepted' | 'rejected' | 'unchecked';

/** Checks the key with the server at `baseUrl` (the one named in the key box), and only there. */
async function liveCheck(deps: Deps, key: string, baseUrl: string): Promise<{ result: Check; note?: string }> {
  const env = deps.session.environment;
  if (env.projectId === '') return { result: 'unchecked', note: vscode.l10n.t('set the project id to check it') };
  const { AdminApiClient } = await import('../../core/api/client.js');
  // Through the same proxy and certificates as the session's client.
  const network = deps.session.network;
  const client = new AdminApiClient({ baseUrl, projectId: env.projectId, getKey: () => key, log: deps.log, maxAttempts: 1, requestTimeoutMs: 10_000, ...(network === undefined ? {} : { network }) });
  try {
    // No endpoint says "who am I": an unknown job answers 404 only once the key is accepted.
    await client.getAgentJob('docs-admin-key-check');
    return { result: 'accepted' };
  } catch (error) {
    if (error instanceof NotFoundError) return { result: 'accepted' };
    if (error instanceof AuthError) return { result: 'rejected', note: error.message };
    if (error instanceof ForbiddenError) return { result: 'accepted', note: error.message };
    return { result: 'unchecked', note: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close();
  }
}

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.key.set', deps, async (options?: { key?: string }) => {
      // A key given by a link could swap in someone else's (valid) key: taken from code only.
      const given = optionsFromCode(deps, options, 'docsAdmin.key.set').key;
      const env = deps.session.environment;
      // A key is kept for one server, named here and in the box: the base URL comes first.
      const base = checkBaseUrl(env.baseUrl);
      if (env.baseUrl === '' || !base.ok) {
        const setBaseUrl = vscode.l10n.t('Set Base URL');
        void deps.messages.warn(vscode.l10n.t('Set the base URL of "{0}" first: the admin key is kept for that server, and sent nowhere else.', env.name), setBaseUrl).then((choice) => {
          if (choice === setBaseUrl) void vscode.commands.executeCommand('docsAdmin.baseUrl.set');
        });
        return false;
      }
      const origin = new URL(base.baseUrl).origin;
      const value =
        given ??
        (await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: admin key for "{0}" ({1})', env.name, origin),
          prompt: vscode.l10n.t('From the dashboard: organization settings → API keys. Sent only to {0}; stored in the system keychain only.', origin),
          password: true,
          ignoreFocusOut: true,
          validateInput: (v) => {
            const r = checkAdminKey(v, knownProjectIds());
            return r.ok ? (r.note === undefined ? undefined : { message: r.note, severity: vscode.InputBoxValidationSeverity.Info }) : r.reason;
          },
        }));
      if (value === undefined) return false;
      const checked = checkAdminKey(value, knownProjectIds());
      if (!checked.ok) throw new Error(checked.reason);
      const key = checked.value;
      const check = await liveCheck(deps, key, base.baseUrl);
      if (check.result === 'rejected') {
        const saveAnyway = vscode.l10n.t('Save Anyway');
        // The note quotes the server's 401 text: Messages leaves nothing in it clickable.
        const rejected = vscode.l10n.t('The server rejected this key; it was not saved. {0}', check.note ?? '');
        if (given !== undefined) {
          void deps.messages.error(rejected);
          return false;
        }
        if ((await deps.messages.error(rejected, saveAnyway)) !== saveAnyway) return false;
      }
      // Bound to the server named in the box: a base URL changed since (a sync, another window) gets nothing.
      const now = deps.session.environment;
      const nowBase = checkBaseUrl(now.baseUrl);
      if (now.id !== env.id || !nowBase.ok || new URL(nowBase.baseUrl).origin !== origin) {
        throw new Error(vscode.l10n.t('The base URL of "{0}" changed while its admin key was being set (it was {1}): the key was not stored. Set it again.', env.name, origin));
      }
      await deps.keys.set(env.id, key, origin);
      await deps.session.rebuild();
      if (check.result === 'unchecked') void deps.messages.warn(vscode.l10n.t('Admin key saved for "{0}", but not checked: {1}', env.name, check.note ?? ''));
      else if (check.note === undefined) void deps.messages.info(vscode.l10n.t('Admin key saved for "{0}" and accepted by the server.', env.name));
      else void deps.messages.info(vscode.l10n.t('Admin key saved for "{0}" ({1}).', env.name, check.note));
      return true;
    }),
    command('docsAdmin.key.clear', deps, async (options?: { confirmed?: boolean }) => {
      const confirmed = optionsFromCode(deps, options, 'docsAdmin.key.clear').confirmed;
      const env = deps.session.environment;
      if (confirmed !== true) {
        const remove = vscode.l10n.t('Remove');
        const choice = await deps.messages.ask('warning', vscode.l10n.t('Remove the admin key of "{0}" from the system keychain?', env.name), { modal: true }, remove);
        if (choice !== remove) return false;
      }
      await deps.keys.delete(env.id);
      await deps.session.rebuild();
      return true;
    }),
  ];
}
