/**
 * The storage side of a bundle download: GETs of a presigned link, with a connect timeout, an
 * idle timeout and redirects checked like any link we open. Straight to the host (no proxy,
 * and Node's http not patched by the editor's proxy support: storageAgents.ts `direct`) they go
 * over our own reader of the answer (rawHttp.ts: one reused read buffer for the whole body, where
 * Node's http allocates one per read, which cost 66 garbage collections per GiB); otherwise over
 * Node's own HTTP client, which the editor routes through its proxy. The body goes to the file in
 * bodyFile.ts. No Authorization header is ever set here: the link carries its own signature.
 */
import * as l10n from '@vscode/l10n';
import type * as https from 'node:https';
import { checkOpenableLink } from '../../links';
import type { Logger } from '../../log';
import type { Network } from '../../net/network';
import { StorageAgents } from '../../net/storageAgents';
import { redactUrl } from '../../redact';
import { BundleDownloadError } from './errors';
import { rawGet } from './rawHttp';
import { fromIncoming, type StorageResponse } from './response';

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Drops a body we will not read (an error after this is nobody's business). */
export function discard(body: StorageResponse): void {
  body.destroy();
}

/** At most 64 KiB of an error body, for its code and message. */
export function readSmall(body: StorageResponse): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      discard(body);
      resolve(Buffer.concat(chunks).toString('utf8').slice(0, 65_536));
    };
    body.read({
      data: (view) => {
        if (size > 65_536) return;
        // A view lasts only for the call.
        chunks.push(Buffer.from(view));
        size += view.length;
        if (size > 65_536) done();
      },
      // A broken error body still has a status.
      end: () => done(),
    });
  });
}

export interface StorageClientOptions {
  /** Proxy and certificate settings; each URL gets its agent from them (direct otherwise). */
  network?: Network;
  signal?: AbortSignal;
  connectTimeoutMs: number;
  /** Nothing sent or received for this long counts as a dropped connection. */
  idleTimeoutMs: number;
  log: Logger;
}

export class StorageClient {
  private readonly agents: StorageAgents;

  constructor(private readonly o: StorageClientOptions) {
    this.agents = new StorageAgents(o.network);
  }

  close(): void {
    this.agents.close();
  }

  /** A GET, following at most 5 redirects to links we would open. */
  async get(url: URL, headers: Record<string, string>): Promise<StorageResponse> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const res = await this.once(target, headers);
      const location = firstHeader(res.headers.location);
      if (![301, 302, 303, 307, 308].includes(res.statusCode) || location === undefined) return res;
      discard(res);
      const next = new URL(location, target);
      const verdict = checkOpenableLink(next.href);
      if (!verdict.ok) throw new BundleDownloadError('link', l10n.t('The storage redirected the download to a link that is not followed: {0}.', verdict.reason));
      if (hop >= 5) throw new BundleDownloadError('link', l10n.t('The storage redirected the download more than 5 times ({0}).', redactUrl(next.href)));
      this.o.log.debug(`Bundle download redirected to ${redactUrl(next.href)}.`);
      target = next;
    }
  }

  /**
   * One GET: a connect timeout, then an idle timeout for as long as the answer lasts. Over our
   * own reader (rawHttp.ts) where the request goes straight to the host; over Node's `http`
   * through a proxy, or where the editor's proxy support has taken `http` over.
   */
  private once(url: URL, headers: Record<string, string>): Promise<StorageResponse> {
    const { connectTimeoutMs, idleTimeoutMs } = this.o;
    const route = this.agents.for(url);
    if (route.direct) return rawGet(url, headers, { tls: route.options, signal: this.o.signal, connectTimeoutMs, idleTimeoutMs });
    return new Promise((resolve, reject) => {
      const options: https.RequestOptions = { ...route.options, headers, agent: route.agent, ...(this.o.signal === undefined ? {} : { signal: this.o.signal }) };
      const req = route.get(url, options, (res) => {
        clearTimeout(connectTimer);
        resolve(fromIncoming(res));
      });
      const fail = (code: string, message: string) => req.destroy(Object.assign(new Error(message), { code }));
      const connectTimer = setTimeout(() => fail('ETIMEDOUT', l10n.t('no connection to {0} within {1} ms', url.host, connectTimeoutMs)), connectTimeoutMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.setTimeout(idleTimeoutMs, () => fail('ETIMEDOUT', l10n.t('nothing received for {0} ms', idleTimeoutMs)));
      req.on('error', (error) => {
        clearTimeout(connectTimer);
        reject(error);
      });
    });
  }
}
