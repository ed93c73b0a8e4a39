/** What can stop a publish, light enough for the editor to load at start. */
import * as l10n from '@vscode/l10n';
import { isLoopbackHost } from '../links';

export class ExportFailedError extends Error {
  constructor(
    readonly jobId: string,
    readonly reason: string | undefined,
  ) {
    super(
      reason
        ? l10n.t('The export {0} failed: {1}. Nothing was changed; fix the cause and publish again.', jobId, reason)
        : l10n.t('The export {0} failed. Nothing was changed; fix the cause and publish again.', jobId),
    );
    this.name = 'ExportFailedError';
  }
}

export class RolloutError extends Error {
  constructor(message: string, readonly exitCode?: number) {
    super(message);
    this.name = 'RolloutError';
  }
}

/**
 * The values file changed after it was read (in an editor, by another program, by git): it was
 * not written over. The change someone else made is kept.
 */
export class ValuesChangedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValuesChangedError';
  }
}

/**
 * The bundle link is plain http: to a remote host: written into the values file, the deployment
 * would fetch the site over an unencrypted connection, where anyone on the way can read or
 * replace it. Refused unless the person allowed it (`allow`: the setting or flag that does).
 */
export class InsecureBundleUrlError extends Error {
  constructor(host: string, allow: string) {
    super(l10n.t('The bundle link is plain http: to {0}: the deployment would fetch the site unencrypted, where anyone on the way could read or replace it. Nothing was changed. Serve bundles over https:, or allow http: links with {1} if this network is trusted.', host, allow));
    this.name = 'InsecureBundleUrlError';
  }
}

/** Refuses a plain http: link to a remote host, unless allowed. Loopback http: is fine. */
export function checkBundleUrlScheme(link: string, allow: { allowed: boolean; hint: string }): void {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return;
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allow.allowed) throw new InsecureBundleUrlError(url.host, allow.hint);
}
