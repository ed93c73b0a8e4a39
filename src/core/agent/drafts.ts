/**
 * Where a prompt draft lives, and what it is for: one draft per environment and target (a new
 * job, or a follow-up to one job), as a file under the extension's storage, so it outlives a
 * failed send, a window reload and a restart. Names are made of hex, so any environment name or
 * job id gives a safe path, and the path alone says where the draft goes. Which draft opens
 * again (the person's unsent text, or a new one) is decided here too, from what the editor reads.
 */
import { createHash } from 'node:crypto';
import { isBlankPrompt, type AgentRequest } from './ask';
import { promptFromDraft } from './prompt';

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

/** A digest of a prompt: what the composer keeps of a prompt the agent took (never the text). */
export function promptDigest(prompt: string): string {
  return createHash('sha256').update(prompt, 'utf8').digest('hex');
}

/** What the composer knows of a draft when it opens it. */
export interface DraftRecord {
  /** The draft's file as saved; undefined when there is none (never written, sent, or discarded). */
  saved: string | undefined;
  /**
   * The text of the document VS Code holds for the file, if any: it may be newer than the file
   * (typing not yet saved), and it may outlive the file (VS Code keeps a closed document in
   * memory for minutes, after its file was deleted).
   */
  inMemory: string | undefined;
  /** The text the draft was given when it was last made anew. */
  generated: string | undefined;
  /** `promptDigest` of the prompt the agent last took from this draft. */
  sentDigest: string | undefined;
  /** `promptDigest` of the prompt of this draft when it was last discarded. */
  discardedDigest?: string | undefined;
}

/**
 * The draft to open again: the person's unsent text, or undefined when a new draft is due. A
 * draft counts only while its file exists: a document left in memory after its file was
 * removed is a draft that was sent or discarded, never one to continue. A draft never edited,
 * one that holds no prompt, one whose prompt is the one the agent took, and one whose prompt is
 * the one the person discarded (its file left behind by a removal that failed, or written back
 * by a save that was under way) are made anew too.
 */
export function draftToContinue(record: DraftRecord): string | undefined {
  if (record.saved === undefined) return undefined;
  const text = record.inMemory ?? record.saved;
  if (text === record.generated) return undefined;
  const prompt = promptFromDraft(text);
  if (isBlankPrompt(prompt)) return undefined;
  const digest = promptDigest(prompt);
  if (digest === record.sentDigest || digest === record.discardedDigest) return undefined;
  return text;
}
