import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanRun } from '../host/logScan';
import { isRunning, processTree, stopTree } from '../host/processTree';

/**
 * The test host's teardown (issue 34): the disk scan for secrets reads the run's folders only
 * once code-server and every process it started have exited, and a file that vanishes while it
 * is read is skipped, not a failure of the run.
 */
describe('test host teardown: the scan after every process has exited', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-teardown-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a file listed and gone before it is read (a lock file released) is skipped; the rest is scanned', () => {
    const contact = 'reader.one@example.com';
    mkdirSync(join(dir, 'logs'));
    mkdirSync(join(dir, 'User', 'workspaceStorage', 'abc'), { recursive: true });
    // Listed by readdir, gone at stat: what vscode.lock did when code-server let go of it mid-scan.
    symlinkSync(join(dir, 'User', 'workspaceStorage', 'abc', 'gone'), join(dir, 'User', 'workspaceStorage', 'abc', 'vscode.lock'));
    writeFileSync(join(dir, 'User', 'state.json'), `{"contact":"${contact}"}`);
    const scan = scanRun(dir, [], { keys: [], signatures: [], contacts: [contact] });
    assert.deepEqual(scan.leaks.map((l) => l.what), ['reader contact read…'], 'the file still there is read');
    assert.equal(scan.diskFiles, 1);
  });

  it('stopTree resolves only once every process it started has exited, one that left the group and outlives its parent included', async () => {
    const marker = join(dir, 'helper-exited');
    // A parent (its own group, as code-server) with a helper in a group of its own that goes on a
    // moment after its parent is gone and then writes a file, as an extension host winds down.
    const helper = `process.on('SIGTERM', () => {}); process.on('disconnect', () => setTimeout(() => { require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); process.exit(0); }, 300)); setInterval(() => {}, 1000); process.send('up');`;
    const parent = `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(helper)}], { detached: true, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }); c.on('message', () => console.log(c.pid)); process.on('SIGTERM', () => process.exit(0));`;
    const child = spawn(process.execPath, ['-e', parent], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const helperPid = await new Promise<number>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    assert.ok(processTree(child.pid!).includes(helperPid), 'the helper is part of the tree');
    await stopTree(child, 5_000);
    assert.equal(isRunning(helperPid), false, 'the helper has exited');
    assert.equal(existsSync(marker) && readFileSync(marker, 'utf8'), 'x', 'what it wrote on its way out is there before anyone reads the folder');
  });
});
