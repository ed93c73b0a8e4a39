/**
 * The secrets collector itself: the scan finds what it must (exact keys and signatures, and
 * the generic shapes of a bearer token and an S3 signature) and only that; the suite-wide
 * collector is wired (it learns the simulators' keys and signatures, and sees stdout, log
 * lines at every level and the errors tests check). Without these, a collector that scans
 * nothing would pass for one that found nothing.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanRun } from '../../host/logScan';
import { redactSecrets } from '../../../src/core/redact';
import { Simulator } from '../../simulator';
import { Collector, collector, describeLeaks, secretLeaks } from '../support/collector';
import { recordingLogger } from '../support/logger';
import { AdminApiClient } from '../../../src/core/api/client';

const KEY = 'da_secret_test_key_0a9b8c7d';
const SIGNATURE = 'a3f1c2d4e5b6978800112233445566778899aabbccddeeff0011223344556677';

describe('reliability: the secrets collector @secrets', () => {
  it('finds a key, a signature, a bearer token and an S3 signature, and says where without repeating them', () => {
    const leaks = secretLeaks(
      [
        { source: 'log:debug', text: `GET /v2/agent/p/job/j with ${KEY}` },
        { source: 'stderr', text: `saved from https://s3.example/b.tgz?X-Amz-Signature=${SIGNATURE}&X-Amz-Date=1` },
        { source: 'error', text: 'Authorization: Bearer someoneelses_token_1234' },
        { source: 'stdout', text: 'x-goog-signature=00ff00ff00ff00ff00ff' },
      ],
      { keys: [KEY], signatures: [SIGNATURE] },
    );
    assert.deepEqual(
      leaks.map((l) => `${l.source}: ${l.what}`),
      ['log:debug: key da_s…', `stderr: signature ${SIGNATURE.slice(0, 4)}…`, 'stderr: URL signature', 'error: Bearer token', 'stdout: URL signature'],
    );
    const report = describeLeaks(leaks);
    assert.ok(!report.includes(KEY) && !report.includes(SIGNATURE) && !report.includes('someoneelses_token_1234'), report);
  });

  it('passes what redaction leaves, prose, and a link printed on purpose (keys still count there)', () => {
    const clean = secretLeaks(
      [
        { source: 'log', text: 'GET https://s3.example/b.tgz?[redacted] Authorization: Bearer [redacted]' },
        { source: 'stdout', text: '  ✔ masks Bearer tokens and X-Amz-Signature values' },
        { source: 'stdout', text: `https://s3.example/b.tgz?X-Amz-Signature=${SIGNATURE}`, mayHoldLink: true },
      ],
      { keys: [KEY, 'short'], signatures: [SIGNATURE] },
    );
    assert.deepEqual(clean, []);
    const keyInLink = secretLeaks([{ source: 'stdout', text: `https://h/x?key=${KEY}`, mayHoldLink: true }], { keys: [KEY], signatures: [] });
    assert.equal(keyInLink.length, 1);
  });

  it('finds a reader\'s contact in any text (unless the text may hold it: --include-contact), and in a file left on disk, a SQLite database included', () => {
    const contact = 'reader.contact@example.net';
    const leaks = secretLeaks(
      [
        { source: 'log:info', text: `feedback from ${contact}` },
        { source: 'stdout', text: `contact,${contact}`, mayHoldContact: true },
        { source: 'stdout', text: `https://s3.example/b.tgz?X-Amz-Signature=${SIGNATURE}`, mayHoldLink: true },
      ],
      { keys: [], signatures: [SIGNATURE], contacts: [contact] },
    );
    assert.deepEqual(leaks.map((l) => `${l.source}: ${l.what}`), ['log:info: reader contact read…']);
    assert.ok(!describeLeaks(leaks).includes(contact), 'the report does not repeat it');
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-scan-'));
    try {
      mkdirSync(join(dir, 'logs'));
      mkdirSync(join(dir, 'User', 'globalStorage'), { recursive: true });
      writeFileSync(join(dir, 'User', 'globalStorage', 'state.vscdb'), Buffer.concat([Buffer.from([0, 1, 2, 0xff]), Buffer.from(`{"x":"${contact}"}`), Buffer.from([0])]));
      const found = scanRun(dir, [], { keys: [], signatures: [], contacts: [contact] });
      assert.deepEqual(found.leaks.map((l) => l.what), ['reader contact read…']);
      assert.equal(found.diskFiles, 1);
      rmSync(join(dir, 'User', 'globalStorage', 'state.vscdb'));
      assert.deepEqual(scanRun(dir, [], { keys: [], signatures: [], contacts: [contact] }).leaks, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a collector fails on what it was given, and only then', () => {
    const own = new Collector();
    own.addSecret('key', KEY);
    own.record('log:info', 'all fine');
    assert.deepEqual(own.leaks(), []);
    own.recordError('assert.rejects', new Error('outer', { cause: new Error(`inner with ${KEY}`) }));
    assert.equal(own.leaks().length, 1, 'an error cause is read too');
  });

  it('the suite-wide collector learns every key and signature a simulator hands out, and sees what is logged and printed', async () => {
    const sim = await Simulator.start({ keys: [{ key: KEY }] });
    const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log: recordingLogger('client') });
    try {
      sim.addExportJob({ jobId: 'done', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 1_000 });
      const bundle = await client.generateBundle('done');
      const signature = new URL(bundle.bundleUrl).searchParams.get('X-Amz-Signature') ?? '';
      assert.ok(collector.knows('key', KEY), 'the key the simulator accepts');
      assert.ok(collector.knows('signature', signature), 'the signature it issued');
      const logged = collector.count('client:debug');
      const log = recordingLogger('probe');
      for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) log[level](`${level} line`);
      assert.equal(collector.count('probe:'), 5, 'every level is recorded');
      assert.ok(logged > 0, 'the client\'s request lines reached the collector');
      const before = collector.count('stdout');
      process.stdout.write('');
      process.stdout.write(' ');
      assert.equal(collector.count('stdout'), before + 1, 'stdout is recorded');
      await assert.rejects(Promise.reject(new Error('seen by assert.rejects')));
      assert.ok(collector.count('assert.rejects') > 0, 'errors tests check are recorded');
    } finally {
      await client.close();
      await sim.stop();
    }
  });

  it('redaction masks a signature wherever it sits: a path without a host, a protocol-relative link, a `;` parameter, Azure, CloudFront, GCS', () => {
    const texts = [
      `GET /bundles/x/bundle.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${SIGNATURE} failed`,
      `redirected to //cdn.example/x?X-Amz-Signature=${SIGNATURE}`,
      `https://h/b;X-Amz-Signature=${SIGNATURE}`,
      `blob b.tgz sv=2024-01-01&sig=AbCd%2Bz9secretsig%3D&se=2026-12-01`,
      `cookie Policy=eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoi; Signature=Xy~Z9secretCloudFront; Key-Pair-Id=K2JCJMDEHXQW5F`,
      `X-Goog-Credential=svc%40p.iam/20261123/auto/storage/goog4_request&X-Goog-Signature=${SIGNATURE}`,
    ];
    for (const text of texts) {
      const out = redactSecrets(text, []);
      for (const secret of [SIGNATURE, 'AbCd%2Bz9secretsig%3D', 'Xy~Z9secretCloudFront', 'eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoi', 'K2JCJMDEHXQW5F', 'svc%40p.iam']) {
        assert.ok(!out.includes(secret), `${secret.slice(0, 8)}… left in: ${out}`);
      }
    }
    assert.equal(redactSecrets('GET /v2/agent/p/job/j -> 200 (3 ms)', []), 'GET /v2/agent/p/job/j -> 200 (3 ms)', 'ordinary text is left alone');
  });
});
