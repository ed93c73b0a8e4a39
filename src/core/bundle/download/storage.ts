/**
 * The storage side of a bundle download: GETs of a presigned link, every one made with Node's
 * own `https` module (`http` for a loopback `http:` link), through the agents of
 * storageAgents.ts, in the CLI and in the editor alike. In the editor's extension host VS Code
 * patches those modules (`http.proxySupport`), so its proxy support (`http.proxy`, PAC, the
 * system's settings) applies to the download as to any extension's request. Node's client reads
 * the answer (framing, TLS, back-pressure); nothing here parses HTTP.
 *
 * What is ours: a deadline for the connection, one for the answer's head (an endless run of
 * `1xx` answers, or a head sent a byte at a time, ends as a network error), an idle timeout for
 * the body, and which redirects are followed: only to links we would open, never from https: to
 * http:, and never to this machine or its local network unless the link itself was there.
 * No Authorization header is ever set here: the link carries its own signature.
 */
import * as l10n from '@vscode/l10n';
import type * as http from 'node:http';
import type * as https from 'node:https';
import { checkOpenableLink } from '../../links';
import type { Logger } from '../../log';
import type { Network } from '../../net/network';
import { isPrivateAddress, isPrivateHost, PrivateAddressError, publicOnlyLookup } from '../../net/privateAddress';
import { StorageAgents } from '../../net/storageAgents';
import { redactUrl } from '../../redact';
import { BundleDownloadError } from './errors';
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
  /** From the request to the answer's status line and headers, whatever comes before them. */
  headTimeoutMs: number;
  /** Nothing sent or received for this long counts as a dropped connection. */
  idleTimeoutMs: number;
  log: Logger;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function timedOut(message: string): Error {
  return Object.assign(new Error(message), { code: 'ETIMEDOUT' });
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
    /** Whether the link itself is on this machine or its local network: then its redirects may be too. */
    let local = isPrivateHost(url.hostname);
    for (let hop = 0; ; hop++) {
      const { res, remote } = await this.once(target, headers, !local && hop > 0);
      if (hop === 0 && remote !== undefined && isPrivateAddress(remote)) local = true;
      const location = firstHeader(res.headers.location);
      if (!REDIRECTS.has(res.statusCode) || location === undefined) return res;
      discard(res);
      target = this.nextHop(target, location, url, local, hop);
    }
  }

  /** Where a redirect leads, if it may be followed. */
  private nextHop(from: URL, location: string, link: URL, local: boolean, hop: number): URL {
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw new BundleDownloadError('link', l10n.t('The storage redirected the download to a link that is not followed: {0}.', l10n.t('it is not a valid URL')));
    }
    const verdict = checkOpenableLink(next.href, { loopbackHttp: true });
    if (!verdict.ok) throw new BundleDownloadError('link', l10n.t('The storage redirected the download to a link that is not followed: {0}.', verdict.reason));
    if (link.protocol === 'https:' && next.protocol !== 'https:') {
      throw new BundleDownloadError('link', l10n.t('The storage redirected an https: download to plain http: ({0}); it was not followed, so the bundle is not fetched unencrypted. Generate the bundle again; if it persists, the storage is misconfigured.', redactUrl(next.href)));
    }
    if (!local && isPrivateHost(next.hostname)) throw privateRedirect(next.hostname);
    if (hop >= 5) throw new BundleDownloadError('link', l10n.t('The storage redirected the download more than 5 times ({0}).', redactUrl(next.href)));
    this.o.log.debug(`Bundle download redirected to ${redactUrl(next.href)}.`);
    return next;
  }

  /**
   * One GET with Node's http/https: a connect deadline, a deadline for the head, then an idle
   * timeout for as long as the answer lasts. `publicOnly`: a name that resolves to a private
   * address is refused where the connection is made (when it is made here, not by a proxy).
   */
  private once(url: URL, headers: Record<string, string>, publicOnly: boolean): Promise<{ res: StorageResponse; remote: string | undefined }> {
    const { connectTimeoutMs, headTimeoutMs, idleTimeoutMs } = this.o;
    const route = this.agents.for(url);
    return new Promise((resolve, reject) => {
      const options: https.RequestOptions = {
        ...route.options,
        headers,
        agent: route.agent,
        ...(publicOnly && route.proxy === undefined ? { lookup: publicOnlyLookup } : {}),
        ...(this.o.signal === undefined ? {} : { signal: this.o.signal }),
      };
      const clear = (): void => {
        clearTimeout(connectTimer);
        clearTimeout(headTimer);
      };
      const req = route.get(url, options, (res: http.IncomingMessage) => {
        clear();
        resolve({ res: fromIncoming(res), remote: route.proxy === undefined ? res.socket.remoteAddress : undefined });
      });
      const fail = (error: Error): void => void req.destroy(error);
      const connectTimer = setTimeout(() => fail(timedOut(l10n.t('no connection to {0} within {1} ms', url.host, connectTimeoutMs))), connectTimeoutMs);
      const headTimer = setTimeout(() => fail(timedOut(l10n.t('no answer from {0} within {1} ms of asking', url.host, headTimeoutMs))), headTimeoutMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.setTimeout(idleTimeoutMs, () => fail(timedOut(l10n.t('nothing received for {0} ms', idleTimeoutMs))));
      req.on('error', (error) => {
        clear();
        reject(error instanceof PrivateAddressError ? privateRedirect(error.host, error.address, error) : error);
      });
    });
  }
}

function privateRedirect(host: string, address?: string, cause?: unknown): BundleDownloadError {
  const where = address === undefined ? host : `${host} (${address})`;
  return new BundleDownloadError(
    'link',
    l10n.t('The storage redirected the download to {0}, on this machine or its local network; it was not followed. Generate the bundle again; if it persists, report it to the platform: a bundle link must not lead there.', where),
    cause === undefined ? {} : { cause },
  );
}
