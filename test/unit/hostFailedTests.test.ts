import * as assert from 'node:assert/strict';
import { failedTestLine, failedTests, FAILED_TEST_MARK } from '../support/failedTests';

/**
 * A host run that fails names its failed tests as its last lines (issue 34: the landing run failed
 * on a test its printed end did not name). The window prints one marked line per failure; the
 * runner finds them among everything the window printed.
 */
describe('the failed tests a host run names at its end', () => {
  it('finds each failure\'s title and first error line among the window\'s output, in order', () => {
    const log = [
      '  200 passing (8m)',
      `${failedTestLine('LM tools readerSignals reads a page', new Error('expected 3\nto equal 4'))}\n${failedTestLine('UI x', 'timed out')}`,
      'Error: 2 integration test(s) failed',
    ];
    assert.deepEqual(failedTests(log), ['LM tools readerSignals reads a page: expected 3', 'UI x: timed out']);
  });

  it('keeps a failure to one line of visible characters, whatever its title or message hold', () => {
    const line = failedTestLine('a\u001b[2Jtitle\rwith\u0007bells', new Error('\n\n  first\u001b]8;;x\u0007 line\nsecond'));
    assert.equal(line.split('\n').length, 1);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f]/);
    assert.ok(line.startsWith(`${FAILED_TEST_MARK} a [2Jtitle with bells: first`), line);
    assert.ok(!line.includes('second'));
  });

  it('finds nothing in a run where every test passed', () => {
    assert.deepEqual(failedTests(['  201 passing (8m)', 'log scan: 10 log files']), []);
  });
});
