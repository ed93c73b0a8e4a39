// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '*.mjs', 'scripts/**', '.vscode-test/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // The core is the part the CLI and the unit tests run without an editor.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/core must not depend on vscode: put editor code in src/vscode.' }] },
      ],
    },
  },
  editorL10n(),
);

/**
 * The editor's side of localisation (issue 8): a string a person sees, written where the editor
 * shows it as it is, must go through `vscode.l10n.t(...)` instead, so that a translation is one
 * file away. Flags a string or template literal with words in it as an argument of a
 * notification or of an Error, as the value of a UI property (`title`, `prompt`, `placeHolder`,
 * `tooltip`, `label`, ...), or assigned to one (`item.tooltip = ...`). Allowed: literals without
 * words (a codicon such as `$(sync~spin)`, punctuation, an empty string, a template that only
 * places translated parts), and example host names or URLs (`docs.example.com`). Log lines, ids,
 * setting keys and the product's name are not in these positions (or use a named constant).
 */
function editorL10n() {
  // A text with no words: codicons, digits, punctuation, white space (`\n` in a template's raw text).
  const noWords = String.raw`/^(?:\$\([\w~-]+\)|\\[nrt]|[^A-Za-z])*$/`;
  // An example host name or URL, all lower case: `docs.example.com`, `https://api.example.com`.
  const hostOrUrl = String.raw`/^(?:https?:\x2F\x2F)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\x2F\S*)?$/`;
  const text = [
    `Literal[value=/[A-Za-z]/]:not([value=${noWords}]):not([value=${hostOrUrl}])`,
    `TemplateLiteral:has(TemplateElement:not([value.raw=${noWords}]))`,
  ];
  const message = 'Text a person sees goes through vscode.l10n.t(...) (issue 8: a translation is one file away); log lines stay English.';
  const uiProperty = /^(?:title|prompt|placeHolder|placeholder|openLabel|saveLabel|tooltip|message|detail|label|description|name)$/.source;
  const positions = [
    // vscode.window.show*Message(message, ...buttons): the message and every button.
    (t) => `CallExpression[callee.property.name=/^show(?:Information|Warning|Error)Message$/] > ${t}.arguments`,
    // Our own helpers whose arguments are shown: a progress title, a quick pick title.
    (t) => `CallExpression[callee.name=/^(?:withCancellableProgress|pickCompletedExport)$/] > ${t}.arguments`,
    (t) => `CallExpression[callee.property.name='setStatusBarMessage'] > ${t}.arguments`,
    // new Error('...') and the typed errors: their message is shown by the command wrapper.
    (t) => `NewExpression[callee.name=/Error$/] > ${t}.arguments`,
    // Tree items, quick fixes, hovers and tasks built with their text.
    (t) => `NewExpression[callee.property.name=/^(?:TreeItem|CodeAction|MarkdownString|Task)$/] > ${t}.arguments`,
    // { title: '...', prompt: '...', ... } in input boxes, quick picks, dialogs, progress, CodeLens commands.
    // (Not the `message` of `vscode.l10n.t({ message, comment })`.)
    (t) => `Property[key.name=/${uiProperty}/]:not(CallExpression[callee.property.name='t'] > ObjectExpression > Property) > ${t}.value`,
    // item.tooltip = '...', view.message = '...', statusItem.text = '...'.
    (t) => `AssignmentExpression[left.property.name=/^(?:description|tooltip|message|text|title|label|name)$/] > ${t}.right`,
  ];
  return {
    files: ['src/extension.ts', 'src/vscode/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...positions.flatMap((at) => text.map((t) => ({ selector: at(t), message })))],
    },
  };
}
