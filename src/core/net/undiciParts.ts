/**
 * The parts of undici the admin API client uses, loaded from their own modules. undici's index
 * loads everything it offers whatever is used (fetch, WebSocket, EventSource, the caches, the
 * mock agent, SQLite...): about half of the extension's bundle. The dispatchers and the request
 * API alone are about 60 % of that, and what ships in the .vsix and the CLI is that much smaller
 * (issue 36). undici has no `exports` map, so these paths are public files of the package; a unit
 * test (undiciParts.test.ts) checks that they are the very classes undici's index exports, so an
 * upgrade that moves one fails there, not in use.
 */
import type { Dispatcher as DispatcherType } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import api from 'undici/lib/api/index.js';

// What undici's own index does when it loads: the request API (request, stream, pipeline,
// upgrade, connect) on every dispatcher. ProxyAgent's tunnel calls its pool's connect().
Object.assign(Dispatcher.prototype, api);

export { Agent, Dispatcher, ProxyAgent };

export type RequestOptions = Omit<DispatcherType.RequestOptions, 'origin' | 'path'> & { dispatcher: DispatcherType };

/** undici's `request(url, options)` for a URL and the dispatcher to send it through. */
export function request(url: URL, options: RequestOptions): Promise<DispatcherType.ResponseData> {
  const { dispatcher, ...rest } = options;
  return dispatcher.request({ ...rest, origin: url.origin, path: `${url.pathname}${url.search}` });
}
