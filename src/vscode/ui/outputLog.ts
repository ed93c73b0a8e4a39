import type * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { redactSecrets } from '../../core/redact';

/**
 * The log is for support: its lines stay in English in every display language (they are not
 * passed through `vscode.l10n.t`), so that anyone can read a log someone sends.
 *
 * The core's logger over the extension's LogOutputChannel. Every line is redacted: the keys
 * known right now, bearer tokens and presigned query strings never reach the channel.
 */
export function channelLogger(channel: vscode.LogOutputChannel, secrets: () => readonly string[]): Logger {
  const clean = (message: string) => redactSecrets(message, secrets());
  return {
    trace: (m) => channel.trace(clean(m)),
    debug: (m) => channel.debug(clean(m)),
    info: (m) => channel.info(clean(m)),
    warn: (m) => channel.warn(clean(m)),
    error: (m) => channel.error(clean(m)),
  };
}
