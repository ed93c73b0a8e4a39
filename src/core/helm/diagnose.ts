/**
 * What is wrong with a values file's `staticExport` block, as a deployment would find out on its
 * next restart: an expired `bundleUrl` (it cannot start), one about to expire, a link that is not
 * `https:`, or `enabled: true` without a link. Pure: text and time in, problems with their
 * offsets out. Invalid YAML yields nothing here (the YAML tooling reports it).
 */
import * as l10n from '@vscode/l10n';
import { expiryFromUrl } from '../bundle/links/expiry';
import { readStaticExport, ValuesFileError } from './values';
import { formatDuration } from '../formatUnits';

export type ValuesProblemCode = 'expired' | 'expiring' | 'insecure' | 'missingLink' | 'invalidLink';

export interface ValuesProblem {
  code: ValuesProblemCode;
  severity: 'error' | 'warning';
  message: string;
  start: number;
  end: number;
}

export interface BundleUrlInfo {
  url: string;
  start: number;
  end: number;
  /** Milliseconds left on this machine's clock; undefined when the link does not say. */
  timeLeftMs: number | undefined;
}

/** The block's `bundleUrl` and its time left, for a hover or a CodeLens. */
export function bundleUrlInfo(text: string, now: number): BundleUrlInfo | undefined {
  let block;
  try {
    block = readStaticExport(text);
  } catch (error) {
    if (error instanceof ValuesFileError) return undefined;
    throw error;
  }
  const link = block?.bundleUrl;
  if (link === undefined || typeof link.value !== 'string' || link.value === '') return undefined;
  const expiry = expiryFromUrl(link.value);
  return { url: link.value, start: link.start, end: link.end, timeLeftMs: expiry === undefined ? undefined : expiry.at - now };
}

export function diagnoseValues(text: string, now: number, warnWithinMs: number): ValuesProblem[] {
  let block;
  try {
    block = readStaticExport(text);
  } catch (error) {
    if (error instanceof ValuesFileError) return [];
    throw error;
  }
  if (block === undefined) return [];
  const problems: ValuesProblem[] = [];
  const enabled = block.enabled?.value === true;
  const link = block.bundleUrl;
  const hasLink = link !== undefined && typeof link.value === 'string' && link.value.trim() !== '';
  if (enabled && !hasLink) {
    const at = link ?? block.enabled ?? block.key;
    problems.push({
      code: 'missingLink',
      severity: 'error',
      message: l10n.t('staticExport.enabled is true but there is no bundleUrl: the deployment has no bundle to start with. Regenerate the bundle and update the values.'),
      start: at.start,
      end: at.end,
    });
  }
  if (!hasLink || link === undefined) return problems;
  const value = String(link.value).trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push({ code: 'invalidLink', severity: 'error', message: l10n.t('staticExport.bundleUrl is not a valid URL: the deployment cannot fetch its bundle.'), start: link.start, end: link.end });
    return problems;
  }
  if (url.protocol !== 'https:') {
    problems.push({ code: 'insecure', severity: 'error', message: l10n.t('staticExport.bundleUrl uses {0} instead of https:: the bundle would travel unencrypted. Use the link that bundle generation returns.', url.protocol), start: link.start, end: link.end });
  }
  const expiry = expiryFromUrl(value);
  if (expiry !== undefined) {
    const left = expiry.at - now;
    if (left <= 0) {
      problems.push({
        code: 'expired',
        severity: 'error',
        message: l10n.t('staticExport.bundleUrl expired {0} ago: the deployment cannot start on its next restart. Regenerate the bundle and update the values.', formatDuration(-left)),
        start: link.start,
        end: link.end,
      });
    } else if (left <= warnWithinMs) {
      problems.push({
        code: 'expiring',
        severity: 'warning',
        message: l10n.t('staticExport.bundleUrl expires in {0}: a pod that restarts after that cannot start. Regenerate the bundle and update the values before then.', formatDuration(left)),
        start: link.start,
        end: link.end,
      });
    }
  }
  return problems;
}
