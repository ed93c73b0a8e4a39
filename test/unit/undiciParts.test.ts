/**
 * The admin API client loads undici's dispatchers and request API from their own modules
 * (src/core/net/undiciParts.ts), not undici's index, which loads everything undici offers. These
 * must be the very classes the index exports, with the request API on them, so an undici upgrade
 * that moves or changes one fails here rather than in use.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Agent, Dispatcher, ProxyAgent, request } from '../../src/core/net/undiciParts';

const ROOT = resolve(__dirname, '../../..');

describe("undici's parts, loaded on their own", () => {
  it("are the classes undici's index exports", async () => {
    const undici = await import('undici');
    assert.equal(Agent, undici.Agent);
    assert.equal(ProxyAgent, undici.ProxyAgent);
    assert.equal(Dispatcher, undici.Dispatcher);
  });

  it("the API client, loaded in a fresh process, loads these parts and never undici's index, with the request API on every dispatcher", () => {
    // In this process another test file may have loaded undici's index (which sets the request
    // API up itself): a fresh process sees what the bundle sees.
    const probe = `
      require(${JSON.stringify(resolve(ROOT, 'out/src/core/api/client.js'))});
      const loaded = Object.keys(require.cache).filter((f) => f.includes('node_modules/undici/')).map((f) => f.split('node_modules/undici/')[1]);
      const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
      const api = ['request', 'stream', 'pipeline', 'upgrade', 'connect'].filter((m) => typeof Dispatcher.prototype[m] === 'function');
      process.stdout.write(JSON.stringify({ loaded, api }));`;
    const run = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const { loaded, api } = JSON.parse(run.stdout) as { loaded: string[]; api: string[] };
    assert.ok(loaded.includes('lib/dispatcher/proxy-agent.js'), `the client loads undici's parts: ${loaded.join(', ')}`);
    assert.ok(!loaded.includes('index.js'), "the client loads undici's index");
    assert.ok(!loaded.some((f) => f.startsWith('lib/web/fetch/index') || f.startsWith('lib/mock/')), `the client loads fetch or the mock agent: ${loaded.join(', ')}`);
    // ProxyAgent tunnels through its pool's connect(): without the request API, every proxied request fails.
    assert.deepEqual(api, ['request', 'stream', 'pipeline', 'upgrade', 'connect']);
  });

  describe('request', () => {
    let server: Server;
    let origin: string;
    before(async () => {
      server = createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null }));
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((done) => server.close(() => done())));

    it('sends the path and query of the URL through the dispatcher given', async () => {
      const agent = new Agent();
      try {
        const res = await request(new URL(`${origin}/v1/jobs/a%20b?x=1`), { method: 'GET', headers: { authorization: 'Bearer t' }, dispatcher: agent });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(await res.body.json(), { method: 'GET', url: '/v1/jobs/a%20b?x=1', auth: 'Bearer t' });
      } finally {
        await agent.close();
      }
    });
  });
});
