import * as assert from 'node:assert/strict';
import { Simulator } from '../simulator';
import { collector } from './support/collector';
import { recordingLogger } from './support/logger';
import { AdminApiClient } from '../../src/core/api/client';
import { InvalidInputError, NotFoundError, RateLimitedError, RequestRejectedError, ServerError, TimeoutError } from '../../src/core/api/apiErrors';

const KEY = 'da_test_agent_key_61c0';

describe('agent create and follow-up (client against the simulator)', () => {
  let sim: Simulator;
  let client: AdminApiClient;

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }], agentDefaults: { durationMs: 60_000, hourlyLimit: 3 } });
    client = new AdminApiClient({
      baseUrl: sim.baseUrl,
      projectId: sim.projectId,
      getKey: () => KEY,
      log: recordingLogger('agent-api'),
      requestTimeoutMs: 500,
      connectTimeoutMs: 500,
      baseDelayMs: 1,
      maxDelayMs: 2,
      sleep: () => Promise.resolve(),
    });
  });
  afterEach(async () => {
    await client.close();
    await sim.stop();
  });

  const agentPosts = () => sim.requests.filter((r) => r.route === 'agent.create' || r.route === 'agent.message');

  async function failure(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof Error);
      collector.recordError('agent-api', error);
      return error;
    }
    assert.fail('expected the call to fail');
  }

  it('creates a job from the prompt exactly as written (line breaks kept); the job runs and opens a pull request', async () => {
    const prompt = 'In docs/guide.mdx, lines 3-4:\n  3| Old text\n  4| More\n\nRewrite them.\r\n';
    const job = await client.createAgentJob(prompt);
    assert.equal(job.status, 'active');
    assert.equal(job.prLink, null);
    assert.equal(job.source.repository, 'https://github.com/acme/docs');
    assert.equal(job.source.ref, `docs-agent/${job.id}`);
    const [req] = agentPosts();
    assert.equal(req?.path, `/v2/agent/${sim.projectId}/job`);
    assert.equal(req?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(req?.body ?? ''), { prompt });
    assert.deepEqual(sim.agentPrompts(job.id), [prompt]);
    sim.advance(60_000);
    const done = await client.getAgentJob(job.id);
    assert.equal(done.status, 'completed');
    assert.match(done.prLink ?? '', /^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/);
  });

  it('a follow-up makes a completed job active again, then it completes again with its pull request', async () => {
    const job = await client.createAgentJob('First');
    sim.advance(60_000);
    const prLink = (await client.getAgentJob(job.id)).prLink;
    assert.ok(prLink);
    const again = await client.sendAgentMessage(job.id, 'Also fix the title');
    assert.equal(again.status, 'active');
    assert.equal(agentPosts()[1]?.path, `/v2/agent/${sim.projectId}/job/${job.id}/message`);
    assert.deepEqual(sim.agentPrompts(job.id), ['First', 'Also fix the title']);
    sim.advance(60_000);
    const done = await client.getAgentJob(job.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.prLink, prLink);
  });

  it('an empty or blank prompt is refused before any request', async () => {
    for (const prompt of ['', '   ', '\n\t\n']) {
      const error = await failure(client.createAgentJob(prompt));
      assert.ok(error instanceof InvalidInputError, String(error));
      assert.match(error.message, /prompt is empty/i);
      await assert.rejects(client.sendAgentMessage('any', prompt), InvalidInputError);
    }
    assert.equal(sim.requests.length, 0);
  });

  it('a follow-up to an unknown job is a 404 naming the job; to an archived job, the server says why', async () => {
    const missing = await failure(client.sendAgentMessage('nope', 'x'));
    assert.ok(missing instanceof NotFoundError);
    assert.match(missing.message, /Agent job "nope"/);
    const job = await client.createAgentJob('x');
    sim.archiveAgentJob(job.id);
    const archived = await failure(client.sendAgentMessage(job.id, 'y'));
    assert.ok(archived instanceof RequestRejectedError);
    assert.match(archived.message, /archived/);
  });

  it('the hourly limit is shared by creates and follow-ups: a 429 with Retry-After, not retried by the client', async () => {
    const job = await client.createAgentJob('one');
    await client.sendAgentMessage(job.id, 'two');
    await client.createAgentJob('three');
    sim.clearRequests();
    const limited = await failure(client.createAgentJob('four'));
    assert.ok(limited instanceof RateLimitedError);
    assert.ok(limited.retryAfterMs !== undefined && limited.retryAfterMs > 3_500_000 && limited.retryAfterMs <= 3_600_000, String(limited.retryAfterMs));
    assert.equal(agentPosts().length, 1, 'a 429 on a POST is left to the caller');
    await assert.rejects(client.sendAgentMessage(job.id, 'five'), RateLimitedError);
    sim.advance(3_600_000);
    assert.equal((await client.createAgentJob('six')).status, 'active', 'an hour later the limit has room again');
  });

  it('a 429 without Retry-After carries no wait', async () => {
    sim.setAgentDefaults({ hourlyLimit: 0, retryAfter: false });
    const limited = await failure(client.createAgentJob('x'));
    assert.ok(limited instanceof RateLimitedError);
    assert.equal(limited.retryAfterMs, undefined);
  });

  it('a create that got a 5xx or timed out is never resent (it may exist)', async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 502 });
    assert.ok((await failure(client.createAgentJob('x'))) instanceof ServerError);
    assert.equal(agentPosts().length, 1);
    sim.clearRequests();
    sim.injectFault({ route: 'agent.create', kind: 'delay', ms: 1_500 });
    assert.ok((await failure(client.createAgentJob('y'))) instanceof TimeoutError);
    assert.equal(agentPosts().length, 1);
  });
});
