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

export function notFoundMessage(subject: ApiSubject, serverMessage: string | undefined): string {
  switch (subject.kind) {
    case 'agentJob':
      return serverMessage
        ? l10n.t('Agent job "{0}" in project "{1}" was not found (404: {2}). Check the id and the project id.', subject.id, subject.projectId, serverMessage)
        : l10n.t('Agent job "{0}" in project "{1}" was not found (404). Check the id and the project id.', subject.id, subject.projectId);
    case 'exportJob':
      return serverMessage
        ? l10n.t('Export job "{0}" was not found (404: {1}). Check the export job id, and that the base URL and the admin key are those of the organization that started it.', subject.id, serverMessage)
        : l10n.t('Export job "{0}" was not found (404). Check the export job id, and that the base URL and the admin key are those of the organization that started it.', subject.id);
    case 'exportBundle':
      return serverMessage
        ? l10n.t('No bundle can be generated for export job "{0}": the job was not found (404: {1}). Check the export job id, and that the base URL and the admin key are those of the organization that started it.', subject.id, serverMessage)
        : l10n.t('No bundle can be generated for export job "{0}": the job was not found (404). Check the export job id, and that the base URL and the admin key are those of the organization that started it.', subject.id);
    case 'exportEndpoint':
      return serverMessage
        ? l10n.t('The static export endpoint was not found (404: {0}). Check the base URL: it must be the admin API\'s, where the static export routes are under /v1/static-export.', serverMessage)
        : l10n.t('The static export endpoint was not found (404). Check the base URL: it must be the admin API\'s, where the static export routes are under /v1/static-export.');
    case 'agentEndpoint':
      return serverMessage
        ? l10n.t('The agent endpoint of project "{0}" was not found (404: {1}). Check the project id and the base URL.', subject.projectId, serverMessage)
        : l10n.t('The agent endpoint of project "{0}" was not found (404). Check the project id and the base URL.', subject.projectId);
    case 'deployment':
      return l10n.t('Deployment status "{0}" was not found (404{1}). Check the status id, and that it belongs to this environment\'s project.', subject.id, serverMessage ? `: ${serverMessage}` : '');
    case 'deployEndpoint':
      return l10n.t('Project "{0}" was not found for deployments (404{1}). Check the project id and the base URL.', subject.projectId, serverMessage ? `: ${serverMessage}` : '');
    case 'automation':
      return l10n.t('Automation "{0}" was not found in project "{1}" (404{2}). Copy its id again from the automation\'s settings on the dashboard.', subject.id, subject.projectId, serverMessage ? `: ${serverMessage}` : '');
    case 'analytics':
      return serverMessage
        ? l10n.t('The reader analytics of project "{0}" were not found (404: {1}). Check the project id and the base URL.', subject.projectId, serverMessage)
        : l10n.t('The reader analytics of project "{0}" were not found (404). Check the project id and the base URL.', subject.projectId);
  }
}

export function conflictMessage(subject: ApiSubject, serverMessage: string | undefined): string {
  switch (subject.kind) {
    case 'deployment':
    case 'deployEndpoint':
    case 'automation':
      return serverMessage ? l10n.t('The server cannot take this request now (409: {0}). Try again later.', serverMessage) : l10n.t('The server cannot take this request now (409). Try again later.');
    case 'agentJob':
      return serverMessage
        ? l10n.t('Agent job "{0}" in project "{1}" cannot take this request in its current state (409: {2}). Refresh it and try again.', subject.id, subject.projectId, serverMessage)
        : l10n.t('Agent job "{0}" in project "{1}" cannot take this request in its current state (409). Refresh it and try again.', subject.id, subject.projectId);
    case 'agentEndpoint':
      return serverMessage
        ? l10n.t('The agent of project "{0}" cannot take a new job now (409: {1}). Try again later.', subject.projectId, serverMessage)
        : l10n.t('The agent of project "{0}" cannot take a new job now (409). Try again later.', subject.projectId);
    case 'exportBundle':
      return serverMessage
        ? l10n.t('Export job "{0}" has not completed yet, so its bundle cannot be generated; wait until its status is "completed" (409: {1})', subject.id, serverMessage)
        : l10n.t('Export job "{0}" has not completed yet, so its bundle cannot be generated; wait until its status is "completed" (409)', subject.id);
    case 'exportJob':
      return serverMessage
        ? l10n.t('Export job "{0}" cannot be read in its current state (409: {1}). Try again in a moment.', subject.id, serverMessage)
        : l10n.t('Export job "{0}" cannot be read in its current state (409). Try again in a moment.', subject.id);
    case 'exportEndpoint':
      return serverMessage
        ? l10n.t('The static export endpoint cannot start an export now (409: {0}). Try again later.', serverMessage)
        : l10n.t('The static export endpoint cannot start an export now (409). Try again later.');
    case 'analytics':
      return serverMessage ? l10n.t('The reader analytics refused the request (409: {0}). Try again later.', serverMessage) : l10n.t('The reader analytics refused the request (409). Try again later.');
  }
}
