/**
 * `npm start` prints one short address that opens the playground ready (issue 35: the banner's
 * first URL, code-server's own, opened an empty editor with no folder and no Docs Admin; the
 * working one was 1,047 characters long): a loopback redirect on the port asked for, to the
 * workbench URL that loads the workspace, the extension and the demo key.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { playgroundBanner, startPlaygroundLink } from '../host/playgroundLink';

function get(url: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    })
      .on('error', reject)
      .end();
  });
}

describe('the playground\'s one address (npm start)', () => {
  it('/ sends the browser to the long workbench URL; nothing else is served', async () => {
    const target = `http://127.0.0.1:41234/?folder=%2Ftmp%2Fworkspace&payload=${encodeURIComponent(JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:41234${'/x'.repeat(300)}`], ['skipWelcome', 'true']]))}`;
    assert.ok(target.length > 1_000);
    const link = await startPlaygroundLink(target);
    try {
      assert.match(link.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.ok(link.url.length <= 30, link.url);
      assert.deepEqual(await get(link.url), { status: 302, location: target });
      assert.equal((await get(`${link.url}?from=bookmark`)).location, target);
      assert.equal((await get(`${link.url}favicon.ico`)).status, 404);
    } finally {
      await link.close();
    }
  });

  it('the banner\'s first address is the one to open, and the long URL is not printed', () => {
    const banner = playgroundBanner('http://127.0.0.1:8080/', { baseUrl: 'http://127.0.0.1:39001', projectId: 'proj_demo', key: 'da_sim_demo_key' });
    const urls = banner.match(/https?:\/\/\S+/g) ?? [];
    assert.equal(urls[0], 'http://127.0.0.1:8080/');
    assert.match(banner, /^\nDocs Admin playground: open http:\/\/127\.0\.0\.1:8080\/ in your browser\./);
    assert.ok(urls.every((u) => u.length < 40), urls.join(' '));
    assert.doesNotMatch(banner, /payload=|vscode-remote:/);
  });
});
