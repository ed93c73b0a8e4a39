/**
 * Where a prompt draft lives, and what it is for: one draft per environment and target (a new
 * job, or a follow-up to one job), as a file under the extension's storage, so it outlives a
 * failed send, a window reload and a restart. Names are made of hex, so any environment name or
 * job id gives a safe path, and the path alone says where the draft goes.
 */
import type { AgentRequest } from './ask';

function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

function unhex(text: string): string | undefined {
  if (!/^(?:[0-9a-f]{2})+$/.test(text)) return undefined;
  return Buffer.from(text, 'hex').toString('utf8');
}

export interface DraftAddress {
  environmentId: string;
  request: AgentRequest;
}

/** The folders of a draft, below the drafts' root: `<env>/new` or `<env>/job-<id>`. */
export function draftFolder(address: DraftAddress): string[] {
  return [hex(address.environmentId), address.request.kind === 'create' ? 'new' : `job-${hex(address.request.jobId)}`];
}

/**
 * What a file below the drafts' root is a draft for (`segments`: its path there, split), or
 * undefined when it is not one.
 */
export function parseDraftPath(segments: readonly string[]): DraftAddress | undefined {
  if (segments.length !== 3 || !/\.md$/i.test(segments[2] ?? '')) return undefined;
  const environmentId = unhex(segments[0] ?? '');
  const target = segments[1] ?? '';
  if (environmentId === undefined || environmentId === '') return undefined;
  if (target === 'new') return { environmentId, request: { kind: 'create' } };
  const jobId = target.startsWith('job-') ? unhex(target.slice(4)) : undefined;
  return jobId === undefined || jobId === '' ? undefined : { environmentId, request: { kind: 'message', jobId } };
}
