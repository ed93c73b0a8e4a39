/**
 * The views' title bars and the composer's, as the manifest lays them out (issue 36): at most 3
 * icons in a view's title bar, the rest in its `…` menu; the same setup items in every view's
 * `…` menu; one icon in the composer's title; one icon per meaning. What the command palette
 * shows is read from the real window by test/integration/palette.test.ts.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..', '..');

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: {
    commands: { command: string; icon?: string }[];
    views: Record<string, { id: string }[]>;
    menus: Record<string, MenuItem[]>;
  };
}

const manifest = JSON.parse(readFileSync(resolve(REPO, 'package.json'), 'utf8')) as Manifest;
const VIEWS = Object.values(manifest.contributes.views).flat().map((v) => v.id);

/**
 * The views a title-bar item is for, from the clause its `when` starts with: `view == <id>`,
 * `(view == <id> || view == <id> …)` (its parentheses left out when nothing follows), or `view =~ /^docsAdmin\.(<name>|<name>…)$/`; the rest of
 * the `when` follows after ` && `.
 */
function viewsOf(item: MenuItem): string[] {
  const when = item.when ?? '';
  const one = /^view == ([\w.]+)(?: && |$)/.exec(when);
  if (one !== null) return [one[1] ?? ''];
  const several = /^\((view == [\w.]+(?: \|\| view == [\w.]+)+)\)(?: && |$)/.exec(when) ?? /^(view == [\w.]+(?: \|\| view == [\w.]+)+)$/.exec(when);
  if (several !== null) return (several[1] ?? '').split(' || ').map((c) => c.slice('view == '.length));
  const pattern = /^view =~ \/\^docsAdmin\\\.\(([\w|]+)\)\$\/(?: && |$)/.exec(when);
  if (pattern !== null) return (pattern[1] ?? '').split('|').map((name) => `docsAdmin.${name}`);
  assert.fail(`view/title: the when of ${item.command} does not start with the views it is for: ${when}`);
}

const titleItems = (view: string) => (manifest.contributes.menus['view/title'] ?? []).filter((item) => viewsOf(item).includes(view));
const isIcon = (item: MenuItem) => (item.group ?? '').startsWith('navigation');

/**
 * The icons several commands share, and the one meaning they share it for. Any other icon is
 * one command's: a new command with an icon already taken must mean the same, and be added here.
 */
const SHARED_ICONS: Record<string, { meaning: string; commands: string[] }> = {
  '$(add)': { meaning: 'track', commands: ['docsAdmin.agentJob.track', 'docsAdmin.deployment.track'] },
  '$(edit)': { meaning: "set a value of the environment's", commands: ['docsAdmin.projectId.set', 'docsAdmin.baseUrl.set', 'docsAdmin.site.set'] },
  '$(eye)': { meaning: 'preview a branch', commands: ['docsAdmin.deployment.preview', 'docsAdmin.agentJob.previewBranch'] },
  '$(link)': { meaning: 'copy a link', commands: ['docsAdmin.job.copyLink', 'docsAdmin.export.copyBundleLink', 'docsAdmin.deployment.copyPreviewUrl'] },
  '$(link-external)': { meaning: 'open in the browser', commands: ['docsAdmin.export.openBundleLink', 'docsAdmin.deployment.openPreview', 'docsAdmin.site.open'] },
  '$(output)': { meaning: 'show logs', commands: ['docsAdmin.logs.show', 'docsAdmin.deployment.showLogs'] },
  '$(package)': { meaning: 'generate the bundle', commands: ['docsAdmin.export.generateBundle', 'docsAdmin.values.regenerate'] },
  '$(refresh)': { meaning: 'ask the server again', commands: ['docsAdmin.refresh', 'docsAdmin.job.refresh', 'docsAdmin.readers.refresh'] },
  '$(sparkle)': { meaning: 'ask the agent', commands: ['docsAdmin.agent.ask', 'docsAdmin.readers.askAgent'] },
  '$(trash)': { meaning: 'delete', commands: ['docsAdmin.key.clear', 'docsAdmin.agent.discardDraft'] },
};

describe("the manifest's title bars and icons", () => {
  it('knows every view/title item by the views it is for', () => {
    assert.deepEqual(VIEWS.sort(), ['docsAdmin.agentJobs', 'docsAdmin.deployments', 'docsAdmin.exportJobs', 'docsAdmin.readersView']);
    for (const item of manifest.contributes.menus['view/title'] ?? []) for (const view of viewsOf(item)) assert.ok(VIEWS.includes(view), `${item.command}: ${view}`);
  });

  it("a view's title bar holds at most 3 icons, even with every condition met; the rest is in its … menu", () => {
    for (const view of VIEWS) {
      const icons = titleItems(view).filter(isIcon).map((item) => item.command);
      assert.ok(icons.length <= 3, `${view}: ${icons.join(', ')}`);
    }
  });

  it("every view's … menu holds the same setup items: environment, base URL, project id, key, site address, feature availability, Get Started and the logs", () => {
    const setup = (view: string) =>
      titleItems(view)
        .filter((item) => !isIcon(item) && /^[89]_/.test(item.group ?? ''))
        .map((item) => `${item.group ?? ''} ${item.command}`)
        .sort();
    const first = setup(VIEWS[0] ?? '');
    for (const view of VIEWS) assert.deepEqual(setup(view), first, view);
    for (const command of ['docsAdmin.environment.switch', 'docsAdmin.baseUrl.set', 'docsAdmin.projectId.set', 'docsAdmin.key.set', 'docsAdmin.key.clear', 'docsAdmin.logs.show']) {
      assert.ok(first.some((entry) => entry.endsWith(` ${command}`)), command);
    }
  });

  it("the prompt composer's title holds one icon: Send (Discard Prompt Draft is in its … menu)", () => {
    const composer = (manifest.contributes.menus['editor/title'] ?? []).filter((item) => isIcon(item) && /(^|[^!])docsAdmin\.composerActive/.test(item.when ?? ''));
    assert.deepEqual(composer.map((item) => item.command), ['docsAdmin.agent.send']);
    const discard = (manifest.contributes.menus['editor/title'] ?? []).find((item) => item.command === 'docsAdmin.agent.discardDraft');
    assert.ok(discard !== undefined && !isIcon(discard), 'Discard Prompt Draft is in the … menu');
  });

  it('one icon per meaning: an icon several commands share is shared for one meaning, listed here', () => {
    const byIcon = new Map<string, string[]>();
    for (const { command, icon } of manifest.contributes.commands) {
      if (icon === undefined) continue;
      byIcon.set(icon, [...(byIcon.get(icon) ?? []), command]);
    }
    const shared = Object.fromEntries([...byIcon].filter(([, commands]) => commands.length > 1).map(([icon, commands]) => [icon, [...commands].sort()]));
    const expected = Object.fromEntries(Object.entries(SHARED_ICONS).map(([icon, { commands }]) => [icon, [...commands].sort()]));
    assert.deepEqual(shared, expected);
    // Deploy Docs keeps the rocket, the icon of a deployed row: nothing else may take it.
    assert.deepEqual(byIcon.get('$(rocket)'), ['docsAdmin.deployment.deploy']);
  });
});
