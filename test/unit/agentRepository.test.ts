import * as assert from 'node:assert/strict';
import { checkBranchRef } from '../../src/core/agent/ref';
import { findRemote, parseRepositoryUrl, sameRepository } from '../../src/core/agent/remote';
import { reviewTitle, sides, withReviewTokens } from '../../src/core/agent/review';

describe('an agent job\'s repository and branch', () => {
  describe('matching source.repository against remotes', () => {
    const job = 'https://github.com/acme/docs';
    const same = [
      'https://github.com/acme/docs',
      'https://github.com/acme/docs.git',
      'https://github.com/acme/docs/',
      'https://GitHub.com/ACME/Docs.git',
      'http://github.com/acme/docs',
      'https://user:token@github.com/acme/docs.git',
      'git@github.com:acme/docs.git',
      'git@github.com:acme/docs',
      'GIT@github.com:Acme/DOCS.GIT',
      'ssh://git@github.com/acme/docs.git',
      'ssh://git@github.com:22/acme/docs',
      'git://github.com/acme/docs.git',
    ];
    for (const remote of same) it(`${remote} is the job's`, () => assert.equal(sameRepository(job, remote), true));

    const other = [
      'https://github.com/acme/docs-old',
      'https://github.com/acme/doc',
      'https://github.com/other/docs',
      'https://gitlab.com/acme/docs',
      'git@gitlab.com:acme/docs.git',
      'https://github.com/acme',
      '/srv/git/docs.git',
      'file:///srv/git/acme/docs.git',
      'javascript:alert(1)//github.com/acme/docs',
      '',
    ];
    for (const remote of other) it(`${JSON.stringify(remote)} is not`, () => assert.equal(sameRepository(job, remote), false));

    it('reads host and owner/name', () => {
      assert.deepEqual(parseRepositoryUrl('git@github.com:Acme/Docs.git'), { host: 'github.com', path: 'acme/docs' });
      assert.deepEqual(parseRepositoryUrl('https://github.com/acme/docs.git/'), { host: 'github.com', path: 'acme/docs' });
      assert.equal(parseRepositoryUrl('https://github.com/acme/../docs'), undefined);
      assert.equal(parseRepositoryUrl('https://github.com/acme/docs\n'), undefined);
      assert.equal(parseRepositoryUrl(null), undefined);
    });

    it('finds the remote, origin first when several match', () => {
      const remotes = [
        { name: 'upstream', fetchUrl: 'git@github.com:acme/docs.git' },
        { name: 'fork', fetchUrl: 'https://github.com/me/docs' },
        { name: 'origin', fetchUrl: 'https://github.com/acme/docs' },
      ];
      assert.equal(findRemote(job, remotes)?.name, 'origin');
      assert.equal(findRemote(job, remotes.slice(0, 2))?.name, 'upstream');
      assert.equal(findRemote(job, [{ name: 'push-only', pushUrl: 'git@github.com:acme/docs' }])?.name, 'push-only');
      assert.equal(findRemote(job, [remotes[1]!]), undefined);
    });
  });

  describe('branch names from the server', () => {
    const good = ['main', 'agent/fix-typos', 'mintlify/docs-update-1a2b', 'feature/a.b', 'release-1.0', 'a_b'];
    for (const ref of good) it(`accepts ${ref}`, () => assert.deepEqual(checkBranchRef(ref), { ok: true, ref }));

    const bad = [
      '-x',
      '--upload-pack=touch /tmp/pwned',
      '--output=/tmp/x',
      'a..b',
      'main..evil',
      'has space',
      'tab\there',
      'new\nline',
      'bell\u0007',
      'rtl\u202eoverride',
      'a~1',
      'a^',
      'a:b',
      'what?',
      'star*',
      'br[acket',
      'back\\slash',
      'a@{1}',
      '@',
      '/lead',
      'trail/',
      'a//b',
      'ends.',
      '.hidden',
      'x/.hidden',
      'x.lock',
      'refs/heads/main',
      'HEAD',
      '',
      null,
      undefined,
      'x'.repeat(256),
    ];
    for (const ref of bad) {
      it(`refuses ${JSON.stringify(ref)}`, () => {
        const check = checkBranchRef(ref);
        assert.equal(check.ok, false);
        assert.ok(!check.ok && check.reason.length > 0);
      });
    }
  });

  describe('the review', () => {
    it('is titled with the job', () => {
      assert.equal(reviewTitle({ id: 'job-1', source: { repository: 'https://github.com/acme/docs', ref: 'agent/x' } }), 'Agent job acme/docs @ agent/x (job-1)');
    });
    it('marks rows without a branch, and leaves the others as they were', () => {
      const repository = 'https://github.com/acme/docs';
      assert.equal(withReviewTokens('agentJob.completed.hasPr', { ref: 'agent/x', repository }), 'agentJob.completed.hasPr');
      assert.equal(withReviewTokens('agentJob.active', { ref: 'main', repository }), 'agentJob.active');
      assert.equal(withReviewTokens('agentJob.completed.noPr', { ref: null, repository }), 'agentJob.completed.noRef.noPr');
      assert.equal(withReviewTokens('agentJob.active', { ref: '', repository }), 'agentJob.active.noRef');
      // The vendor's API requires no field: a job whose answer named no repository.
      assert.equal(withReviewTokens('agentJob.active', { ref: 'main' }), 'agentJob.active.noRepo');
      assert.equal(withReviewTokens('agentJob.completed.hasPr', { ref: null }), 'agentJob.completed.noRef.noRepo.hasPr');
    });
    it('shows added files without an original and deleted ones without a modified side', () => {
      assert.deepEqual(sides('added'), { original: false, modified: true });
      assert.deepEqual(sides('deleted'), { original: true, modified: false });
      assert.deepEqual(sides('renamed'), { original: true, modified: true });
      assert.deepEqual(sides('modified'), { original: true, modified: true });
    });
  });
});
