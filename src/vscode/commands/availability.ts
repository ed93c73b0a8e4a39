import * as vscode from 'vscode';
import { availabilityNote, DEPLOYMENT_NAMES, FEATURES } from '../../core/deploy/availability';
import { readConfig } from '../config';
import { command, type Deps } from './deps';

/** Show Feature Availability: what the chosen deployment type has, and a way to change it. */
export function register(deps: Deps): vscode.Disposable {
  return command('docsAdmin.deploymentType.show', deps, async () => {
    const type = readConfig().deploymentType;
    const detail = FEATURES.map((f) => `${f.name}: ${f.availability[type]}`).join('\n');
    const choice = await vscode.window.showInformationMessage(availabilityNote(type), { modal: false, detail }, 'Change Deployment Type');
    if (choice === 'Change Deployment Type') {
      const picked = await vscode.window.showQuickPick(
        (Object.keys(DEPLOYMENT_NAMES) as (keyof typeof DEPLOYMENT_NAMES)[]).map((t) => ({ label: DEPLOYMENT_NAMES[t], description: t === type ? 'current' : '', detail: availabilityNote(t), type: t })),
        { title: 'Docs Admin: where does the docs site run?' },
      );
      if (picked !== undefined) await vscode.workspace.getConfiguration('docsAdmin').update('deploymentType', picked.type, vscode.ConfigurationTarget.Global);
    }
    return availabilityNote(type);
  });
}
