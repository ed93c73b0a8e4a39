/**
 * Deep links: `<scheme>://docs-admin.docs-admin/<route>/<id>[?env=<name>]`, the links a
 * dashboard, a chat message or a pull-request comment carries to follow a job in the editor.
 * A link is untrusted input: only the routes below, only ids of the id pattern, and only one
 * parameter, `env`, naming an environment configured in the editor by its name. A link never
 * carries a base URL, a key, a path or a project: those come from the person's own settings.
 * Pure: parsing, building, and what the confirmation says.
 */
import * as l10n from '@vscode/l10n';
import { parseStatusId } from '../deployments/deploymentInput';
import { parseJobId, visible } from './jobInput';

export type DeepLinkTarget =
  | { kind: 'agent'; id: string; review: boolean }
  | { kind: 'export'; id: string }
  | { kind: 'deployment'; id: string };

export interface DeepLink {
  target: DeepLinkTarget;
  /** The environment named by the link (`env=`), or undefined: the window's active one. */
  env?: string;
}

export type DeepLinkResult = { ok: true; link: DeepLink } | { ok: false; reason: string };

/**
 * The routes, one entry each: the first path segment, and how its id is read. A new job kind
 * is one entry here and one in `deepLinkPath`.
 */
const ROUTES: Record<string, { kind: DeepLinkTarget['kind']; parse: (id: string, secrets: readonly string[]) => { ok: true; id: string } | { ok: false; reason: string }; review?: true }> = {
  'agent-job': { kind: 'agent', parse: (id, secrets) => parseJobId(id, secrets), review: true },
  export: { kind: 'export', parse: (id, secrets) => parseJobId(id, secrets) },
  deployment: { kind: 'deployment', parse: (id, secrets) => parseStatusId(id, secrets) },
};

const FORMS = '/agent-job/<id>, /agent-job/<id>/review, /export/<id>, /deployment/<status id>';

/**
 * Reads a link's path, query and fragment (as `vscode.Uri` gives them: the path decoded, the
 * query raw). `secrets`: the admin keys in use, never accepted as an id.
 */
export function parseDeepLink(path: string, query: string, fragment: string, secrets: readonly string[] = []): DeepLinkResult {
  const unknown = () => ({ ok: false as const, reason: l10n.t('Docs Admin does not know the link "{0}": it was not followed. Its links are {1}, with "?env=<environment name>" at most.', visible(path), FORMS) });
  if (fragment !== '') return { ok: false, reason: l10n.t('The link ends with "#…", which Docs Admin links never have: it was not followed.') };
  // The query as VS Code hands it over, already percent-decoded: split on "&" and each pair's first "=", nothing decoded again.
  const pairs = query === '' ? [] : query.split('&').map((part): [string, string] => (part.includes('=') ? [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)] : [part, '']));
  // Desktop VS Code adds `windowId=<n>` to the links it makes (asExternalUri) to pick the window: read by nothing here.
  if (pairs.some(([name, value]) => name === 'windowId' && !/^\d{1,10}$/.test(value))) return { ok: false, reason: l10n.t('The link carries a "windowId" that is not a window number: it was not followed.') };
  const names = pairs.map(([name]) => name).filter((name) => name !== 'windowId');
  const extra = [...new Set(names.filter((name) => name !== 'env'))];
  if (extra.length > 0) {
    // A base URL, a key or a path in a link is refused whatever its name: they come only from the person's settings.
    return { ok: false, reason: l10n.t('The link carries {0}, which Docs Admin links never take (a link cannot choose a server, a key or a path): it was not followed, and nothing was sent. Only "env", naming one of your environments, is read.', extra.map((name) => `"${visible(name)}"`).join(', ')) };
  }
  if (names.length > 1) return { ok: false, reason: l10n.t('The link names the environment more than once: it was not followed.') };
  const env = pairs.find(([name]) => name === 'env')?.[1];
  if (env !== undefined && (env.trim() === '' || /[\p{Cc}\p{Cf}]/u.test(env))) return { ok: false, reason: l10n.t('The link names an environment that cannot be one ("{0}"): it was not followed.', visible(env)) };
  const segments = path.split('/');
  if (segments[0] !== '' || segments.length < 3 || segments.length > 4) return unknown();
  const [, route = '', rawId = '', action] = segments;
  const spec = Object.prototype.hasOwnProperty.call(ROUTES, route) ? ROUTES[route] : undefined;
  if (spec === undefined || (action !== undefined && !(action === 'review' && spec.review === true))) return unknown();
  // The id itself, never a URL holding one (the pasted-link forms of the id readers are for typing).
  if (/[/\\?#]|^[a-z][a-z0-9+.-]*:\/\//i.test(rawId)) return unknown();
  const id = spec.parse(rawId, secrets);
  if (!id.ok) return { ok: false, reason: l10n.t('The link was not followed: {0}', id.reason) };
  const target: DeepLinkTarget = spec.kind === 'agent' ? { kind: 'agent', id: id.id, review: action === 'review' } : { kind: spec.kind, id: id.id };
  return { ok: true, link: env === undefined ? { target } : { target, env } };
}

/**
 * The path and query of the link to a job (what Copy Link shares), unencoded: `vscode.Uri`
 * encodes them, and VS Code decodes them before the handler reads them. An environment whose
 * name holds "&", "=" or "#" cannot be named in a link.
 */
export function deepLinkPath(link: DeepLink): { path: string; query: string } {
  const route = Object.keys(ROUTES).find((name) => ROUTES[name]?.kind === link.target.kind) ?? '';
  const review = link.target.kind === 'agent' && link.target.review ? '/review' : '';
  if (link.env !== undefined && /[&=#]/.test(link.env)) {
    throw new Error(l10n.t('The environment "{0}" has "&", "=" or "#" in its name, which a link cannot carry: rename it (docsAdmin.environments) to share links to its jobs.', visible(link.env)));
  }
  return { path: `/${route}/${link.target.id}${review}`, query: link.env === undefined ? '' : `env=${link.env}` };
}

/** What the confirmation says: what will happen, where (the environment, its server's origin, the project). */
export function describeDeepLink(link: DeepLink, where: { name: string; origin: string; projectId: string; switching: boolean }): { text: string; detail: string; action: string } {
  const t = link.target;
  const text =
    t.kind === 'agent'
      ? t.review
        ? l10n.t('Track agent job {0} and open Review Changes?', t.id)
        : l10n.t('Track agent job {0}?', t.id)
      : t.kind === 'export'
        ? l10n.t('Track static export {0}?', t.id)
        : l10n.t('Track deployment {0}?', t.id);
  const lines = [
    l10n.t('A link asks for this. Docs Admin reads the job from the environment "{0}" ({1}), project {2}, with its admin key.', where.name, where.origin, where.projectId),
    ...(where.switching ? [l10n.t('This window switches to the environment "{0}" first: the views then show its jobs.', where.name)] : []),
    l10n.t('Nothing is sent before you choose Track, and nothing is changed on the server: the job is only read.'),
  ];
  return { text, detail: lines.join('\n'), action: l10n.t({ message: 'Track', comment: ['The button of the confirmation a deep link shows'] }) };
}
