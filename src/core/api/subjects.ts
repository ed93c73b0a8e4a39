/**
 * What a call was about (an agent job, an export, a deployment, the analytics, ...), and the
 * words of a 404 or a 409 about it: what was not found or not possible, and what to check.
 */
import * as l10n from '@vscode/l10n';

/**
 * What a call was about, for the messages of its errors: each route says what a person can
 * check. The export routes have no project id (the key's organization is the scope).
 */
export type ApiSubject =
  | { kind: 'agentJob'; id: string; projectId: string }
  /** An export job's status. */
  | { kind: 'exportJob'; id: string }
  /** An export job's bundle (a new link). */
  | { kind: 'exportBundle'; id: string }
  /** Starting an export. */
  | { kind: 'exportEndpoint' }
  /** Creating an agent job: the project's agent endpoint. */
  | { kind: 'agentEndpoint'; projectId: string }
  /** A deployment's status, by its id. */
  | { kind: 'deployment'; id: string }
  /** Triggering a deployment or a preview of the project. */
  | { kind: 'deployEndpoint'; projectId: string }
  | { kind: 'automation'; id: string; projectId: string }
  /** The project's reader analytics. */
  | { kind: 'analytics'; projectId: string };

/** The status and the server's own words, as the messages quote them: `404` or `404: …`. */
function status(code: 404 | 409, serverMessage: string | undefined): string {
  return serverMessage ? `${code}: ${serverMessage}` : String(code);
}

export function notFoundMessage(subject: ApiSubject, serverMessage: string | undefined): string {
  const code = status(404, serverMessage);
  switch (subject.kind) {
    case 'agentJob':
      return l10n.t('Agent job "{0}" in project "{1}" was not found ({2}). Check the id and the project id.', subject.id, subject.projectId, code);
    case 'exportJob':
      return l10n.t('Export job "{0}" was not found ({1}). Check the export job id, and that the base URL and the admin key are those of the organization that started it.', subject.id, code);
    case 'exportBundle':
      return l10n.t('No bundle can be generated for export job "{0}": the job was not found ({1}). Check the export job id, and that the base URL and the admin key are those of the organization that started it.', subject.id, code);
    case 'exportEndpoint':
      return l10n.t('The static export endpoint was not found ({0}). Check the base URL: it must be the admin API\'s, where the static export routes are under /v1/static-export.', code);
    case 'agentEndpoint':
      return l10n.t('The agent endpoint of project "{0}" was not found ({1}). Check the project id and the base URL.', subject.projectId, code);
    case 'deployment':
      return l10n.t('Deployment status "{0}" was not found ({1}). Check the status id, and that it belongs to this environment\'s project.', subject.id, code);
    case 'deployEndpoint':
      return l10n.t('Project "{0}" was not found for deployments ({1}). Check the project id and the base URL.', subject.projectId, code);
    case 'automation':
      return l10n.t('Automation "{0}" was not found in project "{1}" ({2}). Copy its id again from the automation\'s settings on the dashboard.', subject.id, subject.projectId, code);
    case 'analytics':
      return l10n.t('The reader analytics of project "{0}" were not found ({1}). Check the project id and the base URL.', subject.projectId, code);
  }
}

export function conflictMessage(subject: ApiSubject, serverMessage: string | undefined): string {
  const code = status(409, serverMessage);
  switch (subject.kind) {
    case 'deployment':
    case 'deployEndpoint':
    case 'automation':
      return l10n.t('The server cannot take this request now ({0}). Try again later.', code);
    case 'agentJob':
      return l10n.t('Agent job "{0}" in project "{1}" cannot take this request in its current state ({2}). Refresh it and try again.', subject.id, subject.projectId, code);
    case 'agentEndpoint':
      return l10n.t('The agent of project "{0}" cannot take a new job now ({1}). Try again later.', subject.projectId, code);
    case 'exportBundle':
      return l10n.t('Export job "{0}" has not completed yet, so its bundle cannot be generated; wait until its status is "completed" ({1})', subject.id, code);
    case 'exportJob':
      return l10n.t('Export job "{0}" cannot be read in its current state ({1}). Try again in a moment.', subject.id, code);
    case 'exportEndpoint':
      return l10n.t('The static export endpoint cannot start an export now ({0}). Try again later.', code);
    case 'analytics':
      return l10n.t('The reader analytics refused the request ({0}). Try again later.', code);
  }
}
