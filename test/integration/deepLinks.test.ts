/**
 * Deep links, against the simulator: the URI handler VS Code calls with
 * `<uriScheme>://docs-admin.docs-admin/...` (opened through the workbench's own opener, as a click
 * on a link in the editor is), the confirmation it shows (what, which environment,
 * which origin and project), that nothing is sent before it is accepted, hostile links refused
 * with a message and no request, Copy Link's link followed back, and the views' badges counting
 * the jobs that ended out of sight. The modal itself is answered here through the handler's
 * `confirm` (an extension host cannot click a dialog); the question it is given is asserted.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { Confirmation, DeepLinkOutcome } from '../../src/vscode/links/deepLinks';
import { Simulator } from '../simulator';
import { EXTENSION_ID, configure, fromCode, internals, waitFor } from './support';

describe('deep links and the view badges (against the simulator)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let asked: Confirmation[] = [];
  let answer = true;

  const link = (pathAndQuery: string) => vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}${pathAndQuery}`);
  const tracked = (key: string) => api.session.service?.get(key as `agent:${string}`) !== undefined;
  const requestsFor = (id: string) => sim.requests.filter((r) => r.path.includes(id));
  const badge = (view: vscode.TreeView<unknown>) => view.badge;
  /**
   * Opens a link as a click on it in the editor does: the workbench's opener hands a link of
   * its own scheme to the URL service, which calls the handler registerUriHandler registered.
   */
  const viaWorkbench = async (uri: vscode.Uri): Promise<DeepLinkOutcome> => {
    const handled = new Promise<DeepLinkOutcome>((resolve) => {
      const once = api.deepLinks.onDidHandle((outcome) => {
        once.dispose();
        resolve(outcome);
      });
    });
    await vscode.commands.executeCommand('vscode.open', uri);
    return handled;
  };
  const lastError = () => [...api.messages.recent].reverse().find((m) => m.severity === 'error');

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [{ name: 'staging', baseUrl: 'https://staging-api.example.com/v2', projectId: 'proj-staging' }], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
    api.deepLinks.confirm = (question) => {
      asked.push(question);
      return Promise.resolve(answer);
    };
  });

  beforeEach(() => {
    asked = [];
    answer = true;
  });

  after(async () => {
    for (const job of api.session.service?.list() ?? []) await api.session.service?.untrack(`${job.kind}:${job.id}`);
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
  });

  it('a link opened in the workbench reaches the handler: a link to an agent job asks first, naming the environment, its origin and project; accepted, the job is tracked and its view shown', async () => {
    sim.addAgentJob({ id: 'job-linked', repository: 'https://github.com/acme/docs', ref: 'agent/linked', durationMs: 1_000 });
    sim.clearRequests();
    const outcome = await viaWorkbench(link('/agent-job/job-linked'));
    assert.deepEqual(outcome, { outcome: 'tracked', key: 'agent:job-linked', environment: 'Default' });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.text, 'Track agent job job-linked?');
    assert.ok(asked[0]?.detail.includes(`the environment "Default" (${new URL(sim.baseUrl).origin}), project ${sim.projectId}`), asked[0]?.detail);
    assert.match(asked[0]?.detail ?? '', /Nothing is sent before you choose Track/);
    assert.equal(asked[0]?.action, 'Track');
    assert.ok(tracked('agent:job-linked'));
    await waitFor('the view in sight', () => api.agentView.visible);
    await waitFor('the row', () => api.agentTree.getChildren().some((n) => n.key === 'agent:job-linked'));
  });

  it('declined: nothing is sent and nothing is tracked', async () => {
    sim.addAgentJob({ id: 'job-declined', durationMs: 1_000 });
    sim.addExportJob({ jobId: 'exp-declined' });
    sim.clearRequests();
    answer = false;
    assert.deepEqual(await api.deepLinks.open(link('/agent-job/job-declined/review')), { outcome: 'declined' });
    assert.deepEqual(await api.deepLinks.open(link('/export/exp-declined')), { outcome: 'declined' });
    assert.equal(asked.length, 2);
    assert.equal(asked[0]?.text, 'Track agent job job-declined and open Review Changes?');
    assert.equal(asked[1]?.text, 'Track static export exp-declined?');
    // Untracked, neither can be polled; the handler asks before anything else and has returned.
    assert.equal(tracked('agent:job-declined'), false);
    assert.equal(tracked('export:exp-declined'), false);
    assert.deepEqual(requestsFor('job-declined'), []);
    assert.deepEqual(requestsFor('exp-declined'), []);
  });

  it('hostile links are refused with a message that says why, before any question and any request: bad ids, a base URL, a key, a path, unknown routes, a fragment', async () => {
    sim.clearRequests();
    const cases: [string, RegExp][] = [
      ['/agent-job/job%20with%20space', /is not a job id/],
      ['/agent-job/..%2F..%2Fadmin', /does not know the link/],
      ['/agent-job/%E2%80%AEjob', /is not a job id/],
      [`/agent-job/${encodeURIComponent(sim.key)}`, /That is the admin key, not a job id/],
      ['/agent-job/job-1?baseUrl=https%3A%2F%2Fevil.example.com', /carries "baseUrl", which Docs Admin links never take \(a link cannot choose a server, a key or a path\)/],
      [`/agent-job/job-1?key=${sim.key}`, /carries "key"/],
      ['/export/exp-1?path=%2Fetc%2Fpasswd&env=staging', /carries "path"/],
      ['/deployment/st-1?env=staging&env=default', /more than once/],
      ['/agent-job/job-1/delete', /does not know the link "\/agent-job\/job-1\/delete"/],
      ['/export/exp-1/review', /does not know the link/],
      ['/settings/baseUrl', /does not know the link/],
      ['/agent-job/job-1#x', /"#…"/],
      ['/agent-job/job-1?windowId=abc', /"windowId" that is not a window number/],
      ['/agent-job/job-1?env=production', /names the environment "production", which is not one of yours/],
      ['/agent-job/[x](command:docsAdmin.baseUrl.set)', /does not know the link|is not a job id/],
    ];
    for (const [path, reason] of cases) {
      const outcome = await api.deepLinks.open(link(path));
      assert.equal(outcome.outcome, 'refused', path);
      assert.match(outcome.outcome === 'refused' ? outcome.reason : '', reason, path);
      const shown = lastError();
      assert.ok(shown !== undefined && reason.test(shown.text.replace(/\\(.)/g, '$1')), `${path}: ${shown?.text ?? 'no message'}`);
      assert.doesNotMatch(shown.text, /\]\(command:/, 'nothing in the message is a link');
      assert.ok(!shown.text.includes(sim.key), 'the key is never repeated');
    }
    // The same through the workbench.
    const viaClick = await viaWorkbench(link('/agent-job/job-1?baseUrl=https%3A%2F%2Fevil.example.com'));
    assert.equal(viaClick.outcome, 'refused');
    assert.deepEqual(asked, [], 'no question for a refused link');
    assert.deepEqual(sim.requests, [], 'nothing sent');
  });

  it('env= names one of the configured environments: the question says this window switches to it, with its origin; declined, the window stays where it was', async () => {
    answer = false;
    assert.deepEqual(await api.deepLinks.open(link('/deployment/st-elsewhere?env=staging')), { outcome: 'declined' });
    assert.equal(asked[0]?.text, 'Track deployment st-elsewhere?');
    assert.match(asked[0]?.detail ?? '', /the environment "staging" \(https:\/\/staging-api\.example\.com\), project proj-staging/);
    assert.match(asked[0]?.detail ?? '', /This window switches to the environment "staging" first/);
    assert.doesNotMatch(asked[0]?.detail ?? '', /\/v2/, 'the origin, not the whole base URL');
    assert.equal(api.session.environment.name, 'Default');
    // env=default is the environment set by docsAdmin.baseUrl: no switch.
    assert.deepEqual(await api.deepLinks.open(link('/deployment/st-elsewhere?env=default')), { outcome: 'declined' });
    assert.doesNotMatch(asked[1]?.detail ?? '', /switches/);
  });

  it('Copy Link on a row gives the link that tracks it, naming the environment it was copied from (never its server); followed, it asks and tracks', async () => {
    const created = sim.addDeployment({});
    const statusId = String(created._id);
    await vscode.commands.executeCommand('docsAdmin.deployment.track', fromCode({ value: statusId }));
    const copied = await vscode.commands.executeCommand<string>('docsAdmin.job.copyLink', api.deploymentTree.getChildren().find((n) => n.key === `deployment:${statusId}`));
    assert.equal(await vscode.env.clipboard.readText(), copied);
    // The editor's own scheme (code-server's here), this extension, the route and the environment's name; no server.
    assert.equal(copied, `${vscode.env.uriScheme}://${EXTENSION_ID}/deployment/${statusId}?env%3Ddefault`);
    await api.session.service?.untrack(`deployment:${statusId}`);
    sim.clearRequests();
    // Followed back as VS Code hands it over (parsed from its text).
    const outcome = await api.deepLinks.open(vscode.Uri.parse(copied ?? ''));
    assert.deepEqual(outcome, { outcome: 'tracked', key: `deployment:${statusId}`, environment: 'Default' });
    assert.equal(asked[0]?.text, `Track deployment ${statusId}?`);
    await waitFor('the status read', () => sim.requests.some((r) => r.route === 'deploy.status'));
    // An export's link too.
    const exported = sim.addExportJob({});
    const jobId = String(exported.jobId);
    assert.deepEqual(await api.deepLinks.open(link(`/export/${jobId}`)), { outcome: 'tracked', key: `export:${jobId}`, environment: 'Default' });
  });

  it('the Agent Jobs badge counts the jobs that ended while the view was out of sight, and is cleared when it is seen', async () => {
    await vscode.commands.executeCommand('docsAdmin.agentJobs.focus');
    await waitFor('the view in sight', () => api.agentView.visible);
    // Ended in sight: no badge. (Each job is held active by the simulator until released.)
    sim.addAgentJob({ id: 'job-seen', durationMs: 1_000, held: true });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-seen' }));
    await waitFor('the active row', () => api.session.service?.get('agent:job-seen')?.snapshot?.status === 'active');
    sim.release('job-seen');
    await waitFor('the end', () => api.session.service?.get('agent:job-seen')?.snapshot?.status === 'completed', 15_000);
    assert.equal(badge(api.agentView), undefined);
    // Out of sight: two end, the badge says 2.
    for (const id of ['job-away-1', 'job-away-2']) {
      sim.addAgentJob({ id, durationMs: 1_000, held: true });
      await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
    }
    await waitFor('both active', () => ['job-away-1', 'job-away-2'].every((id) => api.session.service?.get(`agent:${id}`)?.snapshot?.status === 'active'));
    // Track selects the new row (reveal): once it is selected, no reveal is on its way to show the view again.
    await waitFor('the last row selected', () => api.agentView.selection.some((n) => n.key === 'agent:job-away-2'));
    await vscode.commands.executeCommand('workbench.view.extensions');
    await waitFor('the view out of sight', () => !api.agentView.visible);
    sim.release('job-away-1');
    sim.release('job-away-2');
    await waitFor('the badge', () => badge(api.agentView)?.value === 2, 15_000);
    assert.equal(badge(api.agentView)?.tooltip, '2 agent jobs ended since you last looked');
    assert.equal(badge(api.exportView), undefined, 'another view counts only its own');
    // Seen: cleared.
    await vscode.commands.executeCommand('docsAdmin.agentJobs.focus');
    await waitFor('the badge cleared', () => badge(api.agentView) === undefined);
  });

  it('accepted with env= naming another environment: the window switches to it, and the job is tracked there', async () => {
    await configure({ environments: [{ name: 'staging', baseUrl: 'https://staging-api.example.com/v2', projectId: 'proj-staging' }, { name: 'mirror', baseUrl: sim.baseUrl, projectId: sim.projectId }] });
    try {
      const outcome = await viaWorkbench(link('/export/exp-mirror?env=mirror'));
      assert.deepEqual(outcome, { outcome: 'tracked', key: 'export:exp-mirror', environment: 'mirror' });
      assert.match(asked[0]?.detail ?? '', /This window switches to the environment "mirror" first/);
      assert.equal(api.session.environment.name, 'mirror');
      assert.ok(api.session.service?.get('export:exp-mirror') !== undefined, 'tracked in the environment switched to');
    } finally {
      await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
      await configure({ environments: [{ name: 'staging', baseUrl: 'https://staging-api.example.com/v2', projectId: 'proj-staging' }] });
    }
    await waitFor('the ok state', () => api.session.state === 'ok');
    assert.equal(api.session.service?.get('export:exp-mirror'), undefined, 'the default environment has its own jobs');
  });
});
