/** Which contract route a request is, from its method and percent-decoded path segments. */
import type { AnalyticsRoute } from './analytics';
import type { RouteName } from './types';

export interface Matched {
  route: RouteName | 'unknown';
  params: Record<string, string>;
}

/** Splits the raw path and decodes each segment on its own, so `%2F` stays inside one. */
export function segments(rawPath: string): string[] | undefined {
  try {
    return rawPath.split('/').slice(1).map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

export function matchApi(method: string, parts: string[]): Matched {
  const [a, b, c, d, e, f] = parts;
  if (method === 'GET' && parts.length === 5 && a === 'v2' && b === 'agent' && d === 'job' && c !== undefined && e !== undefined && c !== '' && e !== '') {
    return { route: 'agent.get', params: { projectId: c, id: e } };
  }
  if (method === 'POST' && a === 'v2' && b === 'agent' && d === 'job' && c !== undefined && c !== '') {
    if (parts.length === 4) return { route: 'agent.create', params: { projectId: c } };
    if (parts.length === 6 && e !== undefined && e !== '' && f === 'message') return { route: 'agent.message', params: { projectId: c, id: e } };
  }
  if (method === 'GET' && a === 'v1' && b === 'analytics' && c !== undefined && c !== '') {
    const analytics = matchAnalytics(parts.slice(3));
    if (analytics !== undefined) return { route: analytics.route, params: { projectId: c, ...analytics.params } };
  }
  if (a === 'v1' && b === 'project' && c !== undefined && c !== '' && d !== undefined && d !== '' && parts.length === 4) {
    if (method === 'POST' && c === 'update') return { route: 'deploy.trigger', params: { projectId: d } };
    if (method === 'GET' && c === 'update-status') return { route: 'deploy.status', params: { statusId: d } };
    if (method === 'POST' && c === 'preview') return { route: 'preview.trigger', params: { projectId: d } };
  }
  if (method === 'POST' && a === 'v1' && b === 'workflow' && parts.length === 5 && c !== undefined && c !== '' && d !== undefined && d !== '' && e === 'trigger') {
    return { route: 'automation.trigger', params: { projectId: c, automationId: d } };
  }
  if (a === 'v1' && b === 'static-export' && c === 'jobs') {
    if (method === 'POST' && parts.length === 3) return { route: 'export.start', params: {} };
    if (method === 'GET' && parts.length === 4 && d !== undefined && d !== '') return { route: 'export.status', params: { jobId: d } };
    if (method === 'POST' && parts.length === 5 && d !== undefined && d !== '' && e === 'bundle' && f === undefined) {
      return { route: 'export.bundle', params: { jobId: d } };
    }
  }
  return { route: 'unknown', params: {} };
}

/** `feedback`, `feedback/by-page`, `assistant`, `assistant/threads/:threadId`, `assistant/caller-stats`, `searches`, `views`, `visitors`. */
function matchAnalytics(rest: string[]): { route: AnalyticsRoute; params: Record<string, string> } | undefined {
  const [d, e, f] = rest;
  if (rest.length === 1) {
    const routes: Record<string, AnalyticsRoute> = { feedback: 'analytics.feedback', assistant: 'analytics.assistant', searches: 'analytics.searches', views: 'analytics.views', visitors: 'analytics.visitors' };
    const route = routes[d ?? ''];
    return route === undefined ? undefined : { route, params: {} };
  }
  if (rest.length === 2 && d === 'feedback' && e === 'by-page') return { route: 'analytics.feedbackByPage', params: {} };
  if (rest.length === 2 && d === 'assistant' && e === 'caller-stats') return { route: 'analytics.callerStats', params: {} };
  if (rest.length === 3 && d === 'assistant' && e === 'threads' && f !== undefined && f !== '') return { route: 'analytics.thread', params: { threadId: f } };
  return undefined;
}

export function matchStorage(method: string, parts: string[]): Matched {
  const [a, b, c] = parts;
  if ((method === 'GET' || method === 'HEAD') && parts.length === 3 && a === 'bundles' && b !== undefined && b !== '' && c === 'bundle.tar.gz') {
    return { route: 'storage.get', params: { jobId: b } };
  }
  // The docs site and its previews, as a browser opens them (Open Site, Open Preview).
  if (method === 'GET' && (a === 'site' || a === 'previews') && b !== undefined && b !== '') return { route: 'site.get', params: { kind: a, name: b } };
  return { route: 'unknown', params: {} };
}
