/**
 * A mocha root hook plugin (registered in .mocharc.cjs): for the whole unit suite it collects
 * everything written to stdout and stderr, every error a test checks with `assert.rejects` /
 * `assert.throws`, the message of every failed test, and (through `recordingLogger()`) every
 * line the core logs; it learns every key the simulators accept and every presigned signature
 * they issue. Once every test has run, it fails the run if any of that text holds one of them,
 * or any unmasked bearer token or S3 signature. Child processes (the CLI) are recorded by the
 * tests that start them (`collector.record`). In CI (`CI=true`) it also fails the run if any
 * test was skipped.
 */
import assert from 'node:assert';
import strict from 'node:assert/strict';
import { watchSecrets } from '../../simulator/ledger';
import { pendingTests, skippedInCi } from '../../support/skipped';
import { collector, describeLeaks } from './collector';

type Write = typeof process.stdout.write;

const undo: (() => void)[] = [];

function tee(stream: NodeJS.WriteStream, source: string): void {
  const original = Object.getOwnPropertyDescriptor(stream, 'write');
  const forward = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    collector.record(source, typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '');
    return forward(chunk, ...rest);
  });
  undo.push(() => {
    if (original === undefined) delete (stream as { write?: Write }).write;
    else Object.defineProperty(stream, 'write', original);
  });
}

/** Wraps assert.rejects / assert.throws so the error a test expects is seen by the collector too. */
function watchAssertions(module: typeof assert | typeof strict): void {
  const target = module as unknown as { rejects: (...args: unknown[]) => Promise<void>; throws: (...args: unknown[]) => void };
  const { rejects, throws } = target;
  target.rejects = ((block: Promise<unknown> | (() => Promise<unknown>), ...rest: unknown[]) => {
    const promise = Promise.resolve()
      .then(() => (typeof block === 'function' ? block() : block))
      .catch((error: unknown) => {
        collector.recordError('assert.rejects', error);
        throw error;
      });
    return rejects(promise, ...rest);
  }) as typeof rejects;
  target.throws = ((fn: () => unknown, ...rest: unknown[]) => {
    const watched = () => {
      try {
        return fn();
      } catch (error) {
        collector.recordError('assert.throws', error);
        throw error;
      }
    };
    return throws(watched, ...rest);
  }) as typeof throws;
  undo.push(() => {
    target.rejects = rejects;
    target.throws = throws;
  });
}

export const mochaHooks = {
  beforeAll(): void {
    undo.push(watchSecrets((kind, value) => collector.addSecret(kind, value)));
    tee(process.stdout, 'stdout');
    tee(process.stderr, 'stderr');
    watchAssertions(assert);
    watchAssertions(strict);
  },

  afterEach(this: Mocha.Context): void {
    const test = this.currentTest;
    if (test?.state === 'failed' && test.err !== undefined) collector.recordError(`failed test "${test.fullTitle()}"`, test.err);
  },

  afterAll(this: Mocha.Context): void {
    for (const step of undo.splice(0).reverse()) step();
    // In CI a skipped test is a failure: what the README counts must have run.
    const root = this.test?.parent;
    const skipped = root === undefined ? undefined : skippedInCi(pendingTests(root), 'unit');
    if (skipped !== undefined) throw skipped;
    const leaks = collector.leaks();
    if (leaks.length > 0) {
      throw new Error(`${leaks.length} secret(s) in what the extension core or the CLI logged, threw or printed during the unit tests:\n${describeLeaks(leaks)}`);
    }
  },
};
