import * as vscode from 'vscode';
import { availabilityNote, DEPLOYMENT_NAMES, FEATURES } from '../../core/helm/availability';
import { readConfig } from '../session/extensionConfig';
import { command, type Deps } from '../commandKit/commandToolkit';

/** Show Feature Availability: what the chosen deployment type has, and a way to change it. */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.deploymentType.show', deps, async () => {
      const type = readConfig().deploymentType;
      const detail = FEATURES.map((f) => `${f.name}: ${f.availability[type]}`).join('\n');
      const change = vscode.l10n.t('Change Deployment Type');
      const choice = await deps.messages.ask('info', availabilityNote(type), { modal: false, detail }, change);
      if (choice === change) {
        const picked = await deps.ui.quickPick(
          (Object.keys(DEPLOYMENT_NAMES) as (keyof typeof DEPLOYMENT_NAMES)[]).map((t) => ({ label: DEPLOYMENT_NAMES[t], description: t === type ? vscode.l10n.t('current') : '', detail: availabilityNote(t), type: t })),
          { title: vscode.l10n.t('Docs Admin: where does the docs site run?') },
        );
        if (picked !== undefined) await vscode.workspace.getConfiguration('docsAdmin').update('deploymentType', picked.type, vscode.ConfigurationTarget.Global);
      }
      return availabilityNote(type);
    }),
  ];
}
