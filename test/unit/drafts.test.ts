/**
 * Which prompt draft opens again (core/agent/drafts): the person's unsent text, never a prompt
 * the agent took (issue 28: VS Code keeps a closed document in memory after its file is gone).
 */
import * as assert from 'node:assert/strict';
import { draftFolder, draftToContinue, parseDraftPath, promptDigest, type DraftRecord } from '../../src/core/agent/drafts';
import { composerHeader, newDraft } from '../../src/core/agent/prompt';

const HEADER = composerHeader('Ask the agent for a change. Send: Ctrl+Enter.');
const GENERATED = newDraft(HEADER, 'Page: docs/quickstart.mdx\nSelected line 3:\n3 | Install the CLI with npm.');
const WRITTEN = `${GENERATED}Say which Node versions are tested.`;
const PROMPT = 'Page: docs/quickstart.mdx\nSelected line 3:\n3 | Install the CLI with npm.\n\nSay which Node versions are tested.';

const record = (over: Partial<DraftRecord>): DraftRecord => ({ saved: undefined, inMemory: undefined, generated: GENERATED, sentDigest: undefined, ...over });

describe('which prompt draft opens again (core/agent/drafts)', () => {
  it('a draft sent (its file removed) never comes back, though VS Code still holds its document', () => {
    assert.equal(draftToContinue(record({ inMemory: WRITTEN, generated: undefined })), undefined, 'issue 28: the marks were dropped, the document stayed');
    assert.equal(draftToContinue(record({ inMemory: WRITTEN, sentDigest: promptDigest(PROMPT) })), undefined);
    assert.equal(draftToContinue(record({})), undefined, 'no file, nothing in memory: a new draft');
  });

  it('a sent draft whose file could not be removed does not come back either: its prompt is the one the agent took', () => {
    assert.equal(draftToContinue(record({ saved: WRITTEN, generated: undefined, sentDigest: promptDigest(PROMPT) })), undefined);
    assert.equal(draftToContinue(record({ saved: WRITTEN, inMemory: WRITTEN, sentDigest: promptDigest(PROMPT) })), undefined);
    // Written on after it (the prompt is not the one sent): the person's text, kept.
    const more = `${WRITTEN}\nAnd link the guide.`;
    assert.equal(draftToContinue(record({ saved: more, sentDigest: promptDigest(PROMPT) })), more);
  });

  it('a discarded draft never comes back, though its file was written back by a save under way, or could not be removed', () => {
    assert.equal(draftToContinue(record({ saved: WRITTEN, generated: undefined, discardedDigest: promptDigest(PROMPT) })), undefined);
    assert.equal(draftToContinue(record({ saved: WRITTEN, inMemory: WRITTEN, discardedDigest: promptDigest(PROMPT) })), undefined);
    // Written in after it was opened again (the prompt is not the one discarded): the person's text, kept.
    const more = `${WRITTEN}\nAnd link the guide.`;
    assert.equal(draftToContinue(record({ saved: more, discardedDigest: promptDigest(PROMPT) })), more);
  });

  it('an unsent draft comes back from its file (a reload, a restart), or from memory when that is newer (typing not yet saved)', () => {
    assert.equal(draftToContinue(record({ saved: WRITTEN })), WRITTEN);
    assert.equal(draftToContinue(record({ saved: WRITTEN, generated: undefined })), WRITTEN, 'its marks lost: the text is still the person\'s');
    const typing = `${WRITTEN} And the npm version.`;
    assert.equal(draftToContinue(record({ saved: WRITTEN, inMemory: typing })), typing);
    assert.equal(draftToContinue(record({ saved: GENERATED, inMemory: typing })), typing, 'the first words, not saved yet');
  });

  it('a draft never edited, or one holding no prompt, is made anew (with the context of the moment)', () => {
    assert.equal(draftToContinue(record({ saved: GENERATED })), undefined);
    assert.equal(draftToContinue(record({ saved: GENERATED, inMemory: GENERATED })), undefined);
    assert.equal(draftToContinue(record({ saved: `${HEADER}\n \n\t\n`, generated: undefined })), undefined);
    assert.equal(draftToContinue(record({ saved: '', generated: undefined })), undefined);
  });

  it('the digest is of the prompt, not of the file: the header and its blank lines do not count', () => {
    assert.equal(promptDigest(PROMPT), promptDigest(PROMPT));
    assert.notEqual(promptDigest(PROMPT), promptDigest(`${PROMPT} `));
    assert.match(promptDigest(PROMPT), /^[0-9a-f]{64}$/);
    const otherHeader = `${composerHeader('A follow-up instruction to agent job 7.')}\n${PROMPT}`;
    assert.equal(draftToContinue(record({ saved: otherHeader, generated: undefined, sentDigest: promptDigest(PROMPT) })), undefined);
  });

  it('a draft\'s path says what it is for, for any environment name or job id', () => {
    for (const address of [
      { environmentId: 'default', request: { kind: 'create' } },
      { environmentId: 'env:Prod / EU', request: { kind: 'message', jobId: '../job?#1' } },
    ] as const) {
      assert.deepEqual(parseDraftPath([...draftFolder(address), 'Ask Agent.md']), address);
    }
    assert.equal(parseDraftPath(['zz', 'new', 'Ask Agent.md']), undefined, 'not hex');
    assert.equal(parseDraftPath(['64656661756c74', 'new', 'notes.txt']), undefined, 'not Markdown');
  });
});
