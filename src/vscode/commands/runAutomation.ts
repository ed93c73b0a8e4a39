/**
 * Run Automation…: runs a scheduled automation now. The API has no list of automations, so an
 * id is typed once and remembered for the environment under a name of the person's choosing
 * (the most recently run first; a button on each forgets it). Paced with deployments (10 per
 * 10 s, shared) and sent once per automation.
 */
import * as vscode from 'vscode';
import { Automations, type Automation } from '../../core/deployments/automations';
import { checkAutomationName, parseAutomationId } from '../../core/deployments/deploymentInput';
import { command, optionsFromCode, requireService, type Deps } from '../commandKit/commandToolkit';
import { triggersOf, triggerWithProgress } from '../deployments/deploymentActions';
import { knownKeys } from '../session/environments';

const ID = 'docsAdmin.automation.run';

function automations(deps: Deps): Automations {
  return new Automations(deps.context.globalState, `docsAdmin.automations.${deps.session.environment.id}`);
}

/** A new automation: its id, then its name. Undefined when dismissed. */
async function addAutomation(deps: Deps): Promise<Automation | undefined> {
  const keys = await knownKeys(deps.keys);
  const idText = await deps.ui.inputBox({
    title: vscode.l10n.t('Docs Admin: run an automation (1/2)'),
    prompt: vscode.l10n.t("The automation's id, from its settings panel on the dashboard's Automations page (only automations with a custom schedule can be run)"),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = parseAutomationId(v, keys);
      return r.ok ? undefined : r.reason;
    },
  });
  if (idText === undefined) return undefined;
  const id = parseAutomationId(idText, keys);
  if (!id.ok) throw new Error(id.reason);
  const name = await deps.ui.inputBox({
    title: vscode.l10n.t('Docs Admin: run an automation (2/2)'),
    prompt: vscode.l10n.t('A name for it, to pick it next time in "{0}"', deps.session.environment.name),
    placeHolder: vscode.l10n.t({ message: 'Weekly link check', comment: ['An example of the name a person gives an automation.'] }),
    ignoreFocusOut: true,
    validateInput: checkAutomationName,
  });
  if (name === undefined) return undefined;
  const problem = checkAutomationName(name);
  if (problem !== undefined) throw new Error(problem);
  return { id: id.id, name: name.trim() };
}

/** A remembered automation, or a new one. Undefined when dismissed. */
async function pickAutomation(deps: Deps): Promise<Automation | undefined> {
  const store = automations(deps);
  const forget: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Forget this automation') };
  type Item = vscode.QuickPickItem & { automation?: Automation };
  const items = (): Item[] => [
    ...store.list().map((a) => ({ label: a.name.replace(/\$\(/g, '\\$('), description: a.id, automation: a, buttons: [forget] })),
    { label: `$(add) ${vscode.l10n.t('Add an automation…')}`, description: vscode.l10n.t('by its id, from the dashboard') },
  ];
  if (store.list().length === 0) return addAutomation(deps);
  const pick = deps.ui.quickPickBox<Item>();
  pick.title = vscode.l10n.t('Docs Admin: run an automation in "{0}"', deps.session.environment.name);
  pick.ignoreFocusOut = true;
  pick.items = items();
  const chosen = await pick.answer(
    () => ({ value: pick.selectedItems[0] }),
    [
      pick.onDidTriggerItemButton(async (event) => {
        if (event.item.automation !== undefined) await store.forget(event.item.automation.id);
        pick.items = items();
      }),
    ],
  );
  if (chosen === undefined) return undefined;
  return chosen.automation ?? addAutomation(deps);
}

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command(ID, deps, async (given?: { id?: string; name?: string }) => {
      const options = optionsFromCode(deps, given, ID);
      requireService(deps);
      const automation = options.id === undefined ? await pickAutomation(deps) : { id: options.id, name: options.name ?? automations(deps).get(options.id)?.name ?? options.id };
      if (automation === undefined) return undefined;
      const triggers = triggersOf(deps);
      const run = await triggerWithProgress(deps, vscode.l10n.t('Running the automation "{0}"…', automation.name), (o) => triggers.runAutomation(automation.id, o));
      if (run === undefined) return undefined;
      // Remembered once the platform took it: a mistyped id is not kept.
      await automations(deps).remember({ ...automation, lastRunAt: Date.now() });
      deps.log.info(`Automation ${automation.id} started: run ${run.instanceId ?? '?'}, job ${run.jobId ?? '?'}`);
      void deps.messages.info(run.instanceId === undefined ? vscode.l10n.t('The automation "{0}" started.', automation.name) : vscode.l10n.t('The automation "{0}" started (run {1}); its result is on the dashboard\'s Automation Runs page.', automation.name, run.instanceId));
      return run;
    }),
  ];
}
