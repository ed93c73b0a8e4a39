import * as assert from 'node:assert/strict';
import { availabilityNote } from '../../src/core/deploy/availability';
import { buildRolloutCommand, shellQuote } from '../../src/core/deploy/rollout';

describe('the rollout command and deployment types', () => {
  it('fills the default template, quoting what needs it', () => {
    const template = 'helm upgrade --install ${release} ${chart} -f ${valuesFile}';
    assert.equal(buildRolloutCommand(template, { release: 'docs', chart: './chart', valuesFile: 'deploy/values.yaml' }, 'linux'), 'helm upgrade --install docs ./chart -f deploy/values.yaml');
    assert.equal(
      buildRolloutCommand(template, { release: 'docs', chart: './chart', valuesFile: "/home/me/my values/it's.yaml", namespace: 'docs-prod' }, 'linux'),
      `helm upgrade --install docs ./chart -f '/home/me/my values/it'\\''s.yaml' --namespace docs-prod`,
    );
    assert.equal(shellQuote('a; rm -rf /', 'linux'), `'a; rm -rf /'`);
    assert.equal(shellQuote('C:\\my values\\v.yaml', 'win32'), '"C:\\my values\\v.yaml"');
    assert.equal(buildRolloutCommand('helm -n ${namespace} upgrade ${release} ${chart} -f ${valuesFile}', { release: 'r', chart: 'c', valuesFile: 'v', namespace: 'ns' }, 'linux'), 'helm -n ns upgrade r c -f v');
  });

  it('says what is unavailable on each deployment type', () => {
    assert.match(availabilityNote('airGapped'), /unavailable: documentation search, ai assistant, web analytics; depends on your set-up: api playground; the admin API cannot be reached/);
    assert.match(availabilityNote('clientHosted'), /^Client-hosted deployment — depends on your set-up: documentation search, ai assistant, web analytics\.$/);
    assert.equal(availabilityNote('cloud'), 'Cloud deployment: every feature is available.');
  });
});
