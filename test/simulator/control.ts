/** The simulator's control interface under `/_sim/`, for the playground and child processes. */
import type { AnalyticsData } from './analyticsData';
import type { HostileField } from './hostile';
import type { Simulator } from './server';
import type { AgentDefaults, AgentJobSeed, AutomationSeed, DeploymentDefaults, DeploymentSeed, ExportDefaults, ExportJobSeed, Fault } from './types';

export interface ControlReply {
  status: number;
  body: unknown;
}

function parse<T>(body: string): T {
  return (body.trim() === '' ? {} : JSON.parse(body)) as T;
}

export function handleControl(sim: Simulator, method: string, path: string, body: string): ControlReply {
  try {
    const route = `${method} ${path.replace(/\/+$/, '')}`;
    const archive = /^POST \/_sim\/agent-jobs\/([^/]+)\/archive$/.exec(route);
    const prompts = /^GET \/_sim\/agent-jobs\/([^/]+)\/prompts$/.exec(route);
    const held = /^POST \/_sim\/jobs\/([^/]+)\/(hold|release|step)$/.exec(route);
    const gate = /^POST \/_sim\/gates\/([^/]+)\/open$/.exec(route);
    if (gate) {
      sim.openGate(decodeURIComponent(gate[1] ?? ''));
      return { status: 204, body: {} };
    }
    if (held) {
      const id = decodeURIComponent(held[1] ?? '');
      if (held[2] === 'hold') sim.hold(id);
      else if (held[2] === 'release') sim.release(id);
      else sim.stepJob(id, Number(parse<{ ms?: number }>(body).ms ?? 0));
      return { status: 204, body: {} };
    }
    if (prompts) {
      const list = sim.agentPrompts(decodeURIComponent(prompts[1] ?? ''));
      return list ? { status: 200, body: list } : { status: 404, body: { error: 'Agent job not found' } };
    }
    if (archive) {
      const job = sim.archiveAgentJob(decodeURIComponent(archive[1] ?? ''));
      return job ? { status: 200, body: job } : { status: 404, body: { error: 'Agent job not found' } };
    }
    switch (route) {
      case 'GET /_sim/info':
        return { status: 200, body: { baseUrl: sim.baseUrl, storageBaseUrl: sim.storageBaseUrl, projectId: sim.projectId, key: sim.key } };
      case 'POST /_sim/agent-jobs':
        return { status: 201, body: sim.addAgentJob(parse<AgentJobSeed>(body)) };
      case 'POST /_sim/export-jobs':
        return { status: 201, body: sim.addExportJob(parse<ExportJobSeed>(body)) };
      case 'POST /_sim/deployments':
        return { status: 201, body: sim.addDeployment(parse<DeploymentSeed>(body)) };
      case 'GET /_sim/deployments':
        return { status: 200, body: sim.deploymentList() };
      case 'PUT /_sim/deployment-defaults':
        sim.setDeploymentDefaults(parse<Partial<DeploymentDefaults>>(body));
        return { status: 204, body: {} };
      case 'POST /_sim/automations':
        return { status: 201, body: { id: sim.addAutomation(parse<AutomationSeed>(body)) } };
      case 'PUT /_sim/plan':
        sim.setPreviewsEnabled(parse<{ previews?: boolean }>(body).previews !== false);
        return { status: 204, body: {} };
      case 'PUT /_sim/agent-defaults':
        sim.setAgentDefaults(parse<Partial<AgentDefaults>>(body));
        return { status: 204, body: {} };
      case 'PUT /_sim/export-defaults':
        sim.setExportDefaults(parse<Partial<ExportDefaults>>(body));
        return { status: 204, body: {} };
      case 'POST /_sim/faults':
        sim.injectFault(parse<Fault>(body));
        return { status: 204, body: {} };
      case 'DELETE /_sim/faults':
        sim.clearFaults();
        return { status: 204, body: {} };
      case 'GET /_sim/requests':
        return { status: 200, body: sim.requests };
      case 'DELETE /_sim/requests':
        sim.clearRequests();
        return { status: 204, body: {} };
      case 'POST /_sim/analytics/playground':
        sim.seedPlaygroundAnalytics();
        return { status: 204, body: {} };
      case 'PUT /_sim/analytics':
        sim.setAnalytics(parse<AnalyticsData>(body));
        return { status: 204, body: {} };
      case 'PUT /_sim/analytics-enabled':
        sim.setAnalyticsEnabled(parse<{ enabled?: boolean }>(body).enabled !== false);
        return { status: 204, body: {} };
      case 'PUT /_sim/hostile':
        sim.setHostileField(parse<HostileField>(body));
        return { status: 204, body: {} };
      case 'DELETE /_sim/hostile':
        sim.setHostileField(undefined);
        return { status: 204, body: {} };
      case 'POST /_sim/fields':
        sim.recordFields(parse<{ record?: boolean }>(body).record !== false);
        return { status: 204, body: {} };
      case 'GET /_sim/fields':
        return { status: 200, body: sim.servedFields() };
      case 'POST /_sim/clock':
        sim.advance(Number(parse<{ advanceMs?: number }>(body).advanceMs ?? 0));
        return { status: 200, body: { now: new Date(sim.now()).toISOString() } };
      default:
        return { status: 404, body: { error: `no control route ${route}` } };
    }
  } catch (error) {
    return { status: 400, body: { error: error instanceof Error ? error.message : String(error) } };
  }
}
