/**
 * Deep links as text: what a link may say (routes, ids, only `env`), what it may never carry
 * (a base URL, a key, a path), the link Copy Link builds read back, and what the confirmation
 * says. The badges' count of jobs that ended out of sight.
 */
import * as assert from 'node:assert/strict';
import { deepLinkPath, describeDeepLink, parseDeepLink, type DeepLink } from '../../src/core/jobs/deepLink';
import { UnseenEnds } from '../../src/core/jobs/unseen';

const KEY = 'da_live_0123456789abcdef';

describe('deep links: what a link may ask', () => {
  const parse = (path: string, query = '', fragment = '') => parseDeepLink(path, query, fragment, [KEY]);

  it('reads the four routes, with or without env=', () => {
    assert.deepEqual(parse('/agent-job/job-1'), { ok: true, link: { target: { kind: 'agent', id: 'job-1', review: false } } });
    assert.deepEqual(parse('/agent-job/job-1/review', 'env=staging'), { ok: true, link: { target: { kind: 'agent', id: 'job-1', review: true }, env: 'staging' } });
    assert.deepEqual(parse('/export/exp_2.a:b'), { ok: true, link: { target: { kind: 'export', id: 'exp_2.a:b' } } });
    assert.deepEqual(parse('/deployment/65f0c1', 'env=my prod+1'), { ok: true, link: { target: { kind: 'deployment', id: '65f0c1' }, env: 'my prod+1' } });
    // Desktop VS Code's own window parameter is read by nothing.
    assert.deepEqual(parse('/export/exp-1', 'windowId=3'), { ok: true, link: { target: { kind: 'export', id: 'exp-1' } } });
  });

  const refused = (path: string, query: string, fragment: string, reason: RegExp) => {
    const r = parse(path, query, fragment);
    assert.equal(r.ok, false, `${path}?${query}#${fragment}`);
    assert.match(r.ok ? '' : r.reason, reason);
    assert.ok(!(r.ok ? '' : r.reason).includes(KEY), 'the key is never repeated');
  };

  it('refuses a base URL, a key, a path or any parameter but env, whatever its name', () => {
    refused('/agent-job/job-1', 'baseUrl=https://evil.example.com', '', /carries "baseUrl", which Docs Admin links never take/);
    refused('/agent-job/job-1', `key=${KEY}`, '', /carries "key"/);
    refused('/export/exp-1', 'env=prod&path=/etc/passwd&url=x&path=y', '', /carries "path", "url"/);
    refused('/export/exp-1', 'projectId=p', '', /carries "projectId"/);
    refused('/export/exp-1', 'env=a&env=b', '', /more than once/);
    refused('/export/exp-1', 'env=', '', /cannot be one/);
    refused('/export/exp-1', 'env=a\u202eb', '', /cannot be one \("a\\u202eb"\)/);
    refused('/export/exp-1', 'windowId=1;x', '', /not a window number/);
    refused('/export/exp-1', 'env', '', /cannot be one/);
    refused('/export/exp-1', '', 'frag', /"#…"/);
  });

  it('refuses ids that are not ids, URLs and keys in the id, and every unknown route', () => {
    refused('/agent-job/a b', '', '', /is not a job id/);
    refused(`/agent-job/${KEY}`, '', '', /That is the admin key/);
    refused(`/deployment/${KEY}`, '', '', /That is the admin key/);
    refused('/agent-job/\u202ejob', '', '', /is not a job id/);
    refused('/agent-job/https://evil.example.com/job/1', '', '', /does not know the link/);
    refused('/agent-job/', '', '', /Enter a job id|not a job id/);
    for (const path of ['/', '', '/agent-job', '/agent-job/a/b', '/agent-job/a/review/x', '/export/a/review', '/deployment/a/review', '/jobs/a', '/__proto__/a', '/constructor/a', 'agent-job/a', '//agent-job/a', '/agent-job/../../x']) {
      refused(path, '', '', /does not know the link/);
    }
  });

  it('the link Copy Link builds is read back as the same target and environment', () => {
    const links: DeepLink[] = [
      { target: { kind: 'agent', id: 'job-1', review: false }, env: 'default' },
      { target: { kind: 'agent', id: 'job:2', review: true }, env: 'EU prod+1 (eu-west)' },
      { target: { kind: 'export', id: 'exp.3' } },
      { target: { kind: 'deployment', id: 'st_4' }, env: 'prod' },
    ];
    for (const link of links) {
      const { path, query } = deepLinkPath(link);
      // As vscode.Uri gives them to the handler: decoded (deepLinkPath's are not encoded yet).
      assert.deepEqual(parseDeepLink(path, query, ''), { ok: true, link });
    }
    assert.throws(() => deepLinkPath({ target: { kind: 'export', id: 'e' }, env: 'a&b' }), /"&", "=" or "#" in its name/);
  });

  it('the confirmation names what happens, the environment, its origin and the project, and says nothing is sent before it is accepted', () => {
    const question = describeDeepLink({ target: { kind: 'agent', id: 'job-1', review: true } }, { name: 'staging', origin: 'https://api.example.com', projectId: 'proj-1', switching: true });
    assert.equal(question.text, 'Track agent job job-1 and open Review Changes?');
    assert.equal(
      question.detail,
      [
        'A link asks for this. Docs Admin reads the job from the environment "staging" (https://api.example.com), project proj-1, with its admin key.',
        'This window switches to the environment "staging" first: the views then show its jobs.',
        'Nothing is sent before you choose Track, and nothing is changed on the server: the job is only read.',
      ].join('\n'),
    );
    assert.equal(question.action, 'Track');
    assert.doesNotMatch(describeDeepLink({ target: { kind: 'export', id: 'e' } }, { name: 'Default', origin: 'https://a.example', projectId: 'p', switching: false }).detail, /switches/);
  });
});

describe('the view badges: jobs that ended out of sight', () => {
  it('counts each job once, per view, only while the view is out of sight; cleared when seen; a job no longer tracked stops counting', () => {
    const unseen = new UnseenEnds();
    unseen.ended('agent', 'agent:a', false);
    unseen.ended('agent', 'agent:a', false);
    unseen.ended('agent', 'agent:b', false);
    unseen.ended('agent', 'agent:c', true);
    unseen.ended('export', 'export:x', false);
    assert.equal(unseen.count('agent'), 2);
    assert.equal(unseen.count('export'), 1);
    assert.equal(unseen.count('deployment'), 0);
    unseen.keepOnly(new Set(['agent:b', 'export:x']));
    assert.equal(unseen.count('agent'), 1);
    unseen.seen('agent');
    assert.equal(unseen.count('agent'), 0);
    assert.equal(unseen.count('export'), 1);
  });
});
