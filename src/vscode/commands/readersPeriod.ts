/** The Readers view's period: the last 7, 30 or 90 days (remembered). */
import * as vscode from 'vscode';
import { PERIOD_DAYS } from '../../core/analytics/period';
import { command, type Deps } from '../commandKit/commandToolkit';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.readers.period', deps, async () => {
      const model = deps.readers.model;
      const items = PERIOD_DAYS.map((days) => ({ label: vscode.l10n.t('Last {0} days', days), description: days === model.period ? vscode.l10n.t('shown now') : '', days }));
      const picked = await deps.ui.quickPick(items, { title: vscode.l10n.t('What readers said: which period?'), placeHolder: vscode.l10n.t('Today is included; the data is loaded once for the whole site') });
      if (picked === undefined) return undefined;
      await model.setPeriod(picked.days);
      return picked.days;
    }),
  ];
}
