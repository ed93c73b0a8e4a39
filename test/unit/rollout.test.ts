import * as assert from 'node:assert/strict';
import { availabilityNote } from '../../src/core/helm/availability';
import { describeArgv, rolloutArgv, RolloutTemplateError } from '../../src/core/helm/rollout';

describe('the rollout command and deployment types', () => {
  it('fills the default template into one program and its arguments, a value staying one argument whatever it holds', () => {
    const template = 'helm upgrade --install ${release} ${chart} -f ${valuesFile}';
    assert.deepEqual(rolloutArgv(template, { release: 'docs', chart: './chart', valuesFile: 'deploy/values.yaml' }), { program: 'helm', args: ['upgrade', '--install', 'docs', './chart', '-f', 'deploy/values.yaml'] });
    assert.deepEqual(rolloutArgv(template, { release: 'docs', chart: './chart', valuesFile: "/home/me/my values/it's.yaml", namespace: 'docs-prod' }).args, ['upgrade', '--install', 'docs', './chart', '-f', "/home/me/my values/it's.yaml", '--namespace', 'docs-prod']);
    // What a shell would run (PowerShell's $(…), POSIX quoting tricks, cmd's %VAR%) stays text in one argument.
    for (const hostile of ['docs"$(calc)"', "a'; rm -rf / #", 'x & calc', '%PATH%', 'a\nb']) {
      assert.deepEqual(rolloutArgv(template, { release: hostile, chart: 'c', valuesFile: 'v' }).args, ['upgrade', '--install', hostile, 'c', '-f', 'v'], hostile);
    }
    assert.deepEqual(rolloutArgv('"/opt/my tools/helm" -n ${namespace} upgrade ${release} ${chart} --values=${valuesFile}', { release: 'r', chart: 'c', valuesFile: '/a b/v.yaml', namespace: 'ns' }), { program: '/opt/my tools/helm', args: ['-n', 'ns', 'upgrade', 'r', 'c', '--values=/a b/v.yaml'] });
    assert.equal(describeArgv({ program: 'helm', args: ['upgrade', 'my docs', '-f', 'v.yaml'] }), 'helm upgrade "my docs" -f v.yaml');
  });

  it('refuses a value that would be taken for an option, and shell syntax in the template', () => {
    const template = 'helm upgrade --install ${release} ${chart} -f ${valuesFile}';
    assert.throws(() => rolloutArgv(template, { release: '--post-renderer=./x', chart: 'c', valuesFile: 'v' }), (e: Error) => e instanceof RolloutTemplateError && /release "--post-renderer=\.\/x" starts with "-"/.test(e.message));
    assert.throws(() => rolloutArgv(template, { release: 'r', chart: '-c', valuesFile: 'v' }), RolloutTemplateError);
    assert.throws(() => rolloutArgv(template, { release: 'r', chart: 'c', valuesFile: 'v', namespace: '--kubeconfig=/x' }), RolloutTemplateError);
    for (const bad of ['helm upgrade ${release} && rm -rf /', 'helm upgrade ${release} | tee x', 'helm $(whoami)', 'helm `id`', 'helm > out', 'helm "unclosed']) {
      assert.throws(() => rolloutArgv(bad, { release: 'r', chart: 'c', valuesFile: 'v' }), RolloutTemplateError, bad);
    }
  });

  it('says what is unavailable on each deployment type', () => {
    assert.match(availabilityNote('airGapped'), /unavailable: documentation search, ai assistant, web analytics; depends on your set-up: api playground; the admin API cannot be reached/);
    assert.match(availabilityNote('clientHosted'), /^Client-hosted deployment — depends on your set-up: documentation search, ai assistant, web analytics\.$/);
    assert.equal(availabilityNote('cloud'), 'Cloud deployment: every feature is available.');
  });
});
