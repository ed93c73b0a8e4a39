/**
 * The API fault matrix: one row per fault, with what a person must see (a message that names
 * the cause and says what to do) and what must be kept. `client.test.ts`, `service.test.ts` and
 * `cli.test.ts` run every row through their layer; the README's reliability table is this list.
 */
import type { Dispatcher } from 'undici';
import type { FaultSpec, RouteName } from '../../simulator';
import { AGENT_ID, EXPORT_ID, FLAKY_HOST, KEY, READ_ONLY_KEY, type World } from './world';
import type { ApiErrorKind } from '../../../src/core/api/apiErrors';

export { AGENT_ID, EXPORT_ID };

export type Call = 'agent.get' | 'export.status' | 'export.start' | 'export.bundle';
export type Layer = 'client' | 'service' | 'cli';

export interface ServiceExpectation {
  /** The service's state while the fault lasts (what the views' welcome and status show). */
  state: 'ok' | 'unauthorized' | 'unreachable';
  /** Where the message shows: on the job's row, or as the service's state. */
  shownOn: 'row' | 'state' | 'log';
  /**
   * How polling behaves while the fault lasts: `paused` (nothing is polled), `stopped` (that
   * job is not polled again until Refresh), `backoff` (polled again, ever more slowly),
   * `origin` (no job of the origin is polled until the Retry-After has passed).
   */
  polling: 'paused' | 'stopped' | 'backoff' | 'origin';
  /** How it recovers once the fault is gone: by itself, or on Refresh (the views' Retry). */
  recovery: 'auto' | 'refresh';
  /** The route the fault is on while polling (default: the agent job's). */
  route?: RouteName | '*';
}

export interface FaultCase {
  name: string;
  /** Which endpoint the client and the CLI call. */
  call: Call;
  /** The base URL (and dispatcher) each layer uses; default the simulator's API origin. */
  target?: (w: World, layer: Layer) => { baseUrl: string; dispatcher?: Dispatcher };
  /** The key the person has set; default a valid read-write key. */
  key?: string;
  /** Makes the fault happen on `route` until healed. */
  arrange: (w: World, route: RouteName | '*') => void | Promise<void>;
  heal: (w: World) => void | Promise<void>;
  kind: ApiErrorKind;
  /** The message names the cause, and says what to do. */
  cause: RegExp;
  action: RegExp;
  exit: number;
  /** `undefined`: the service never makes this call (it polls only GETs). */
  service: ServiceExpectation | 'startExport' | undefined;
  /** The fault is a body that stops after the headers: the client's short wait is the body's (see `timeoutsFor`). */
  stallsBody?: true;
  /** For the README table. */
  sees: string;
  kept: string;
}

/** `*` here means every API route (a simulator fault on `*` would also hit the storage origin). */
const API_ROUTES: RouteName[] = ['agent.get', 'export.status', 'export.start', 'export.bundle'];
const routes = (route: RouteName | '*') => (route === '*' ? API_ROUTES : [route]);
const persist = (fault: FaultSpec) => (w: World, route: RouteName | '*') => {
  for (const r of routes(route)) w.sim.injectFault({ ...fault, route: r, times: null });
};
const clear = (w: World) => w.sim.clearFaults();
const idOn = (route: RouteName | '*') => (route === 'export.status' || route === 'export.bundle' ? EXPORT_ID : AGENT_ID);

const SERVER_SIDE: ServiceExpectation = { state: 'ok', shownOn: 'row', polling: 'backoff', recovery: 'auto' };
/** Faults of the network or the whole server: every route of the origin meets them. */
const UNREACHABLE: ServiceExpectation = { state: 'unreachable', shownOn: 'state', polling: 'backoff', recovery: 'auto', route: '*' };
const UNTIL_REFRESH: ServiceExpectation = { state: 'ok', shownOn: 'row', polling: 'stopped', recovery: 'refresh' };

const KEPT_ROWS = 'every tracked job, with its last status; polling goes on';

const serverError = (status: number, phrase: string): FaultCase => ({
  name: `${status} ${phrase}`,
  call: 'agent.get',
  arrange: persist({ kind: 'status', status, body: { error: `upstream said ${status}` } }),
  heal: clear,
  kind: 'server',
  cause: new RegExp(`server failed \\(${status} ${phrase}: upstream said ${status}\\)`),
  action: /try again in a few minutes/,
  exit: 5,
  service: SERVER_SIDE,
  sees: `"The server failed (${status} ${phrase}: …). This is on the service's side; try again in a few minutes." (GETs were retried 3 times first)`,
  kept: `${KEPT_ROWS}, backing off; the row shows the error until a poll succeeds`,
});

export const FAULTS: FaultCase[] = [
  {
    name: '401 Unauthorized (key expired or revoked)',
    call: 'agent.get',
    arrange: persist({ kind: 'status', status: 401, body: { error: 'Invalid or missing API key' } }),
    heal: clear,
    kind: 'auth',
    cause: /admin key was rejected \(401: Invalid or missing API key\)/,
    action: /create a new one on the dashboard's API keys page/,
    exit: 3,
    service: { state: 'unauthorized', shownOn: 'state', polling: 'paused', recovery: 'refresh', route: '*' },
    sees: '"The admin key was rejected (401 …). It may be wrong, expired or revoked: create a new one on the dashboard\'s API keys page and set it again."',
    kept: 'the key (never cleared: Retry uses it again), every tracked job with its last status; polling pauses until the key is set again or Retry',
  },
  {
    name: '403 plan (static export not enabled)',
    call: 'export.start',
    arrange: (w) => w.sim.setStaticExportEnabled(false),
    heal: (w) => w.sim.setStaticExportEnabled(true),
    kind: 'forbidden',
    cause: /plan does not include static export/,
    action: /enterprise plan: ask an owner of the organization to upgrade it/,
    exit: 3,
    service: { ...UNTIL_REFRESH, route: 'export.status' },
    sees: '"Access denied (403: static export is not enabled …). The cause: the organization\'s plan does not include static export. To fix it, it needs an enterprise plan: ask an owner …"',
    kept: 'every tracked export with its last status; the row shows the error and is not polled again until Refresh',
  },
  {
    name: '403 key scope (read-only key)',
    call: 'export.start',
    key: READ_ONLY_KEY,
    arrange: () => undefined,
    heal: () => undefined,
    kind: 'forbidden',
    cause: /key is read-only or lacks the scope/,
    action: /create a read-write admin key on the dashboard's API keys page/,
    exit: 3,
    service: 'startExport',
    sees: '"Access denied (403: API key does not have write access). The cause: the key is read-only … To fix it, create a read-write admin key …"',
    kept: 'nothing half-started is tracked; the tracked jobs keep being polled (reading works with the key)',
  },
  {
    name: '403 IP allow-list',
    call: 'agent.get',
    arrange: persist({ kind: 'status', status: 403, body: { error: "request IP is not in the API key's allow-list" } }),
    heal: clear,
    kind: 'forbidden',
    cause: /allow-list does not include this machine's address/,
    action: /add this address to the key's allow-list on the dashboard's API keys page/,
    exit: 3,
    service: UNTIL_REFRESH,
    sees: '"Access denied (403: request IP is not in the API key\'s allow-list). The cause: … To fix it, add this address to the key\'s allow-list …"',
    kept: 'every tracked job with its last status; that row shows the error and is not polled again until Refresh',
  },
  {
    name: '403 with no reason given',
    call: 'export.status',
    arrange: persist({ kind: 'status', status: 403, body: {} }),
    heal: clear,
    kind: 'forbidden',
    cause: /Possible causes: the organization's plan .*; or the key is read-only .*; or the key's IP allow-list/,
    action: /to fix it, create a read-write admin key/,
    exit: 3,
    service: { ...UNTIL_REFRESH, route: 'export.status' },
    sees: '"Access denied (403). Possible causes: … (to fix it, …); or … (to fix it, …)": every cause, each with its fix',
    kept: 'every tracked job with its last status; that row shows the error and is not polled again until Refresh',
  },
  {
    name: '404 Not Found',
    call: 'agent.get',
    arrange: persist({ kind: 'status', status: 404, body: { error: 'Agent job not found' } }),
    heal: clear,
    kind: 'notFound',
    cause: new RegExp(`Agent job "${AGENT_ID}" in project "[^"]+" was not found \\(404: Agent job not found\\)`),
    action: /Check the id and the project id/,
    exit: 4,
    service: UNTIL_REFRESH,
    sees: '"Agent job "…" in project "…" was not found (404: Agent job not found). Check the id and the project id."',
    kept: 'the job stays tracked with its last status (never dropped); not polled again until Refresh',
  },
  {
    name: '409 Conflict (bundle before the export completed)',
    call: 'export.bundle',
    arrange: () => undefined,
    heal: () => undefined,
    kind: 'conflict',
    cause: new RegExp(`Export job "${EXPORT_ID}" has not completed yet, so its bundle cannot be generated`),
    action: /wait until its status is "completed"/,
    exit: 1,
    service: undefined,
    sees: '"Export job "…" has not completed yet, so its bundle cannot be generated; wait until its status is "completed" (409: …)"',
    kept: 'the export and its status; no link is recorded',
  },
  {
    name: '429 with Retry-After in seconds',
    call: 'agent.get',
    arrange: persist({ kind: 'status', status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '120' } }),
    heal: clear,
    kind: 'rateLimited',
    cause: /rate limiting requests \(429\)/,
    action: /Wait 120 s before trying again/,
    exit: 5,
    service: { state: 'ok', shownOn: 'log', polling: 'origin', recovery: 'auto' },
    sees: '"The server is rate limiting requests (429). Wait 120 s before trying again." (a wait of up to 60 s is waited out and the request sent again)',
    kept: 'every tracked job with its last status; no job of that API origin is polled until the Retry-After has passed',
  },
  {
    name: '429 with Retry-After as an HTTP date',
    call: 'agent.get',
    arrange: persist({ kind: 'status', status: 429, body: { error: 'Too many requests' }, retryAfterDateSeconds: 120 }),
    heal: clear,
    kind: 'rateLimited',
    cause: /rate limiting requests \(429\)/,
    action: /Wait 1(19|20) s before trying again/,
    exit: 5,
    service: { state: 'ok', shownOn: 'log', polling: 'origin', recovery: 'auto' },
    sees: 'the same, the date read against the answer\'s own `Date` (a client clock that is off does not change the wait)',
    kept: 'as above',
  },
  serverError(500, 'Internal Server Error'),
  serverError(502, 'Bad Gateway'),
  serverError(503, 'Service Unavailable'),
  serverError(504, 'Gateway Timeout'),
  {
    name: 'an HTML error page from a proxy (502)',
    call: 'agent.get',
    arrange: persist({ kind: 'malformed', status: 502, body: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>' }),
    heal: clear,
    kind: 'server',
    cause: /server failed \(502 Bad Gateway: an HTML error page, perhaps from a proxy\)/,
    action: /try again in a few minutes/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"The server failed (502 Bad Gateway: an HTML error page, perhaps from a proxy). … try again in a few minutes."',
    kept: `${KEPT_ROWS}, backing off`,
  },
  {
    name: 'an HTML page instead of JSON (login page, captive portal)',
    call: 'agent.get',
    arrange: persist({ kind: 'malformed', status: 200, body: '<!doctype html><html><title>Sign in</title><form action="/login"></form></html>' }),
    heal: clear,
    kind: 'invalidResponse',
    cause: /an HTML page came back instead of JSON \(status 200\): a proxy, captive portal or login page may be in the way/,
    action: /Check the base URL and your proxy settings/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"The server\'s answer could not be used: an HTML page came back instead of JSON … Check the base URL and your proxy settings …"',
    kept: `${KEPT_ROWS}, backing off`,
  },
  {
    name: 'an empty body',
    call: 'agent.get',
    arrange: persist({ kind: 'malformed', status: 200, contentType: 'application/json', body: '' }),
    heal: clear,
    kind: 'invalidResponse',
    cause: /the body is empty \(status 200\)/,
    action: /Check that the base URL points at the admin API; if it does, try again later/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"The server\'s answer could not be used: the body is empty (status 200). Check that the base URL points at the admin API; if it does, try again later."',
    kept: `${KEPT_ROWS}, backing off`,
  },
  {
    name: 'a body that is not JSON',
    call: 'agent.get',
    arrange: persist({ kind: 'malformed', status: 200, contentType: 'application/json', body: '{"id": "agent-rel-1", "status": act' }),
    heal: clear,
    kind: 'invalidResponse',
    cause: /the body is not JSON \(status 200\)/,
    action: /Check that the base URL points at the admin API/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"… the body is not JSON (status 200). Check that the base URL points at the admin API; if it does, try again later."',
    kept: `${KEPT_ROWS}, backing off`,
  },
  {
    name: 'JSON of the wrong shape',
    call: 'agent.get',
    // The vendor's API requires no field, so only a field of the wrong type is a wrong shape.
    arrange: persist({ kind: 'status', status: 200, body: { id: AGENT_ID, status: 'active', source: { repository: 42 }, createdAt: '2026-11-23T10:00:00Z' } }),
    heal: clear,
    kind: 'invalidResponse',
    cause: /the agent job has the wrong shape: field "source\.repository" is not a string/,
    action: /look for an update/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"… the agent job has the wrong shape: field "source.repository" is not a string. Check that the base URL points at the admin API; if it does, … look for an update."',
    kept: `${KEPT_ROWS}, backing off`,
  },
  {
    name: 'a 50 MB body (with Content-Length)',
    call: 'agent.get',
    arrange: persist({ kind: 'oversized', bytes: 50_000_000 }),
    heal: clear,
    kind: 'invalidResponse',
    cause: /the body is too large \(50000000 bytes; at most 1048576 are read\)/,
    action: /Check that the base URL points at the admin API/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"… the body is too large (50000000 bytes; at most 1048576 are read). …" (refused from the header, before reading)',
    kept: `${KEPT_ROWS}; memory stays bounded`,
  },
  {
    name: 'a 50 MB body, chunked (no Content-Length)',
    call: 'agent.get',
    arrange: persist({ kind: 'oversized', bytes: 50_000_000, chunked: true }),
    heal: clear,
    kind: 'invalidResponse',
    cause: /the body is too large \(over 1048576 bytes\)/,
    action: /Check that the base URL points at the admin API/,
    exit: 5,
    service: SERVER_SIDE,
    sees: '"… the body is too large (over 1048576 bytes). …" (reading stops at the cap)',
    kept: `${KEPT_ROWS}; memory stays bounded`,
  },
  {
    name: 'headers that never come',
    call: 'agent.get',
    arrange: persist({ kind: 'delay', ms: 1_500 }),
    heal: clear,
    kind: 'timeout',
    cause: /did not answer within \d+ m?s/,
    action: /Try again; if it persists, the service may be overloaded/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"The server at … did not answer within 30 s. Try again; if it persists, the service may be overloaded." (GETs retried first)',
    kept: 'every tracked job with its last status; the views show "unreachable" with the message; polling backs off and recovers by itself',
  },
  {
    name: 'a body that stalls',
    call: 'agent.get',
    arrange: persist({ kind: 'stall', afterBytes: 10 }),
    heal: clear,
    kind: 'timeout',
    stallsBody: true,
    cause: /stopped sending its answer \(nothing more came for \d+ m?s\)/,
    action: /Try again; if it persists, a proxy or the network may be cutting the connection/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"The server at … stopped sending its answer (nothing more came for 30 s). Try again; if it persists, a proxy or the network may be cutting the connection."',
    kept: 'as above',
  },
  {
    name: 'a connection reset',
    call: 'agent.get',
    arrange: persist({ kind: 'reset' }),
    heal: clear,
    kind: 'network',
    cause: /the connection to [\d.:]+ was dropped/,
    action: /Try again; if it persists, check your network, proxy or VPN/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"Could not reach the server: the connection to … was dropped. Try again; if it persists, check your network, proxy or VPN."',
    kept: 'as above',
  },
  {
    name: 'connection refused',
    call: 'agent.get',
    target: (w) => ({ baseUrl: w.front.url }),
    arrange: (w) => w.front.setMode('refuse'),
    heal: (w) => w.front.setMode('relay'),
    kind: 'network',
    cause: /the connection to [\d.:]+ was refused/,
    action: /Check the base URL, and that the service is up/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"Could not reach the server: the connection to … was refused. Check the base URL, and that the service is up." (even a POST is retried: it never left)',
    kept: 'as above',
  },
  {
    name: 'a DNS failure',
    call: 'agent.get',
    // The CLI takes plain http: only for a loopback host; a name that does not resolve fails before TLS anyway.
    target: (w, layer) => ({ baseUrl: layer === 'cli' ? `https://${FLAKY_HOST}` : w.flakyUrl, dispatcher: w.dispatcher }),
    arrange: (w) => {
      // Names are looked up for new connections: the network change that broke DNS dropped the open ones.
      w.dns.up = false;
      w.sim.dropConnections();
    },
    heal: (w) => {
      w.dns.up = true;
    },
    kind: 'network',
    cause: new RegExp(`the host name ${FLAKY_HOST.replace(/\./g, '\\.')}(:\\d+)? could not be resolved`),
    action: /Check the base URL and your network or proxy/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"Could not reach the server: the host name … could not be resolved. Check the base URL and your network or proxy."',
    kept: 'as above',
  },
  {
    name: 'a redirect to another origin',
    call: 'agent.get',
    arrange: (w, route) => {
      for (const r of routes(route)) w.sim.injectFault({ kind: 'redirect', status: 302, location: `${w.sim.storageBaseUrl}/moved/${idOn(r)}`, route: r, times: null });
    },
    heal: clear,
    kind: 'redirect',
    cause: /redirected to another origin \(http:\/\/[\d.:]+\); a redirect that leaves the API's origin is not followed/,
    action: /Set the base URL to the API's own address/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"The server redirected to another origin (…); a redirect that leaves the API\'s origin is not followed. Set the base URL to the API\'s own address."',
    kept: 'nothing is sent to the other origin (the key stays on the API origin); every tracked job with its last status',
  },
  {
    name: 'a redirect loop',
    call: 'agent.get',
    // The job's own address again: the client must notice it is going round.
    arrange: (w, route) => {
      for (const r of routes(route)) w.sim.injectFault({ kind: 'redirect', status: 302, location: `./${idOn(r)}`, route: r, times: null });
    },
    heal: clear,
    kind: 'redirect',
    cause: /redirects in a loop/,
    action: /Check the base URL/,
    exit: 5,
    service: UNREACHABLE,
    sees: '"The server redirects in a loop (…). Check the base URL."',
    kept: 'every tracked job with its last status; polling backs off and recovers by itself',
  },
];

/** The key a row uses. */
export const keyOf = (c: FaultCase): string => c.key ?? KEY;

/**
 * The client's timeouts for a case. Only a timeout case needs a short one; every other case gets
 * 30 s, so a busy machine that reads a 1 MiB body slowly cannot turn a refused answer into a
 * timeout and a retry (seen on a loaded 2-core machine: the chunked 50 MB body, "attempts: 2 !==
 * 1"). A server that does not answer (it waits 1.5 s, in the same process: the client's timer
 * always ends first) gets a short wait for the headers. A body that stalls gets 30 s for the
 * headers and the short wait for the body: with one short wait for both, a busy machine could
 * take longer than it for the headers to come, and the case would read as "did not answer" (seen
 * at load 7-10).
 */
export const timeoutsFor = (c: FaultCase | undefined, short = 250): { requestTimeoutMs: number; bodyTimeoutMs?: number } =>
  c?.kind !== 'timeout' ? { requestTimeoutMs: 30_000 } : c.stallsBody === true ? { requestTimeoutMs: 30_000, bodyTimeoutMs: short } : { requestTimeoutMs: short };
